// Geometry and contrast checks for a rendered view, run in the page (tests/browser/layout.py).
//
// `(root) => problems`: every problem is a line naming the check, the element and what is wrong.
//   columns   a row's cells sit under their headers (grid call lists by `data-col`, tables by index)
//   overflow  no element's content sticks out of its box; no scroll container scrolls by a few pixels
//   overlap   no element overlaps a sibling
//   one-line  button labels stay on one line
//   word      no word or quoted value is broken across lines when it would fit on one
//   cut       no cell is cut short (ellipsis) while a cell of its row is empty
//   fits      an input's placeholder fits in it
//   contrast  text, badges, placeholders and input text reach 4.5:1 (3:1 for large text) on what is behind them,
//             brightness filters included (a hover that dims a button dims its label too)
//   focus     a control focused from the keyboard shows an outline of at least 3:1 against what is around it
(root) => {
  const problems = [];
  const TOL = 1.5;

  const describe = el => {
    const cls = typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\s+/).join('.') : '';
    const text = (el.innerText || el.value || el.placeholder || '').trim().replace(/\s+/g, ' ').slice(0, 50);
    return `${el.tagName.toLowerCase()}${cls}${text ? ` "${text}"` : ''}`;
  };
  const report = (check, el, what) => problems.push(`${check}: ${describe(el)}: ${what}`);

  const shown = el => {
    if (!(el instanceof Element) || !el.isConnected) return false;
    if (el.closest('details:not([open]) > :not(summary)')) return false;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden' || style.display === 'contents') return false;
    const rect = el.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  };
  const all = [root, ...root.querySelectorAll('*')].filter(el => !el.closest('svg, iframe') && shown(el));

  // ---- columns ------------------------------------------------------------------------------------
  for (const list of root.querySelectorAll('.jmcp-calls')) {
    const head = list.querySelector(':scope > .jmcp-calls-head');
    if (!head || !shown(head)) continue;
    const columns = new Map([...head.children].map(cell => [cell.dataset.col, cell.getBoundingClientRect()]));
    for (const row of list.querySelectorAll(':scope > .jmcp-call:not(.jmcp-calls-head)')) {
      for (const cell of row.children) {
        if (!shown(cell)) continue;
        const header = columns.get(cell.dataset.col);
        if (!header) {
          report('columns', cell, 'a cell with no column of its own');
          continue;
        }
        const box = cell.getBoundingClientRect();
        if (Math.abs(box.left - header.left) > TOL) {
          report('columns', cell, `starts at x=${box.left.toFixed(0)}, its header "${cell.dataset.col}" at x=${header.left.toFixed(0)}`);
        }
        if (!cell.classList.contains('jmcp-span') && box.right > header.right + TOL) {
          report('columns', cell, `ends past its header "${cell.dataset.col}" (${box.right.toFixed(0)} > ${header.right.toFixed(0)})`);
        }
      }
    }
  }
  for (const table of root.querySelectorAll('table')) {
    const heads = [...table.querySelectorAll(':scope > thead > tr > th')].filter(shown);
    if (heads.length === 0) continue;
    for (const row of table.querySelectorAll(':scope > tbody > tr')) {
      const cells = [...row.children].filter(shown);
      if (cells.length !== heads.length) {
        report('columns', row, `${cells.length} cells under ${heads.length} headers`);
        continue;
      }
      cells.forEach((cell, i) => {
        const a = cell.getBoundingClientRect();
        const b = heads[i].getBoundingClientRect();
        if (Math.abs(a.left - b.left) > TOL || Math.abs(a.right - b.right) > TOL) {
          report('columns', cell, `not under its header "${heads[i].innerText.trim()}"`);
        }
      });
    }
  }

  function* ancestors(el) {
    for (let node = el.parentElement; node && node !== root; node = node.parentElement) yield node;
  }

  // ---- overflow -----------------------------------------------------------------------------------
  const rootBox = root.getBoundingClientRect();
  for (const el of all) {
    const style = getComputedStyle(el);
    const dx = el.scrollWidth - el.clientWidth;
    const dy = el.scrollHeight - el.clientHeight;
    const scrolls = v => v === 'auto' || v === 'scroll';
    if (scrolls(style.overflowX) && dx > 0 && dx <= 4) report('overflow', el, `scrolls sideways by only ${dx}px`);
    if (scrolls(style.overflowY) && dy > 0 && dy <= 4) report('overflow', el, `scrolls by only ${dy}px (a spurious scrollbar)`);
    const clipsX = style.overflowX !== 'visible';
    const inline = style.display === 'inline';
    if (!clipsX && !inline && el.clientWidth > 0 && dx > TOL && !['TEXTAREA', 'SELECT', 'INPUT'].includes(el.tagName)) {
      report('overflow', el, `content is ${dx}px wider than its box`);
    }
    if (style.overflowY === 'visible' && !inline && el.clientHeight > 0 && dy > TOL && !['TEXTAREA', 'SELECT'].includes(el.tagName)) {
      report('overflow', el, `content is ${dy}px taller than its box`);
    }
    if (style.overflowX === 'hidden' && style.textOverflow !== 'ellipsis' && dx > TOL && !el.classList.contains('jmcp-progress')) {
      report('overflow', el, `${dx}px of its content are cut off`);
    }
    const box = el.getBoundingClientRect();
    const clipped = el.parentElement && el.parentElement.closest('*') !== root && [...ancestors(el)].some(a => getComputedStyle(a).overflowX !== 'visible');
    if (el !== root && !clipped && (box.right > rootBox.right + TOL || box.left < rootBox.left - TOL)) {
      report('overflow', el, `sticks out of the view (${box.left.toFixed(0)}..${box.right.toFixed(0)} outside ${rootBox.left.toFixed(0)}..${rootBox.right.toFixed(0)})`);
    }
  }

  // ---- overlap ------------------------------------------------------------------------------------
  const inFlow = el => {
    const style = getComputedStyle(el);
    return shown(el) && style.position !== 'absolute' && style.position !== 'fixed' && el.tagName !== 'BR';
  };
  // An inline element that wraps is judged by its line fragments, not by the box around all of them.
  const fragments = el =>
    getComputedStyle(el).display === 'inline' ? [...el.getClientRects()] : [el.getBoundingClientRect()];
  const overlap = (as, bs) => {
    for (const a of as) {
      for (const b of bs) {
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > TOL && h > TOL) return `${w.toFixed(0)}×${h.toFixed(0)}px`;
      }
    }
    return null;
  };
  for (const parent of all) {
    const kids = [...parent.children].filter(inFlow);
    if (kids.length < 2) continue;
    const boxes = kids.map(fragments);
    for (let i = 0; i < kids.length; i++) {
      for (let j = i + 1; j < kids.length; j++) {
        const by = overlap(boxes[i], boxes[j]);
        if (by) report('overlap', kids[j], `overlaps ${describe(kids[i])} by ${by}`);
      }
    }
  }

  // ---- one-line labels ----------------------------------------------------------------------------
  const lines = node => {
    const range = document.createRange();
    range.selectNodeContents(node);
    const tops = [...range.getClientRects()].filter(r => r.width > 0.5).map(r => Math.round(r.top + r.height / 2));
    return new Set(tops.map(t => Math.round(t / 4))).size;
  };
  for (const button of all.filter(el => el.matches('button, [role="button"]:not(.jmcp-call), .jp-Button'))) {
    if (!button.innerText.trim()) continue;
    if (lines(button) > 1) report('one-line', button, 'its label wraps');
    if (button.scrollWidth > button.clientWidth + TOL) report('one-line', button, 'its label is wider than the button');
  }

  // ---- words --------------------------------------------------------------------------------------
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !shown(parent) || parent.closest('pre, textarea, .jmcp-json, iframe')) continue;
    const block = parent.closest('div, td, li, p, dd, label, section') || parent;
    const width = block.clientWidth;
    for (const match of node.data.matchAll(/[\w'"]{2,}/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0.5);
      const tops = new Set(rects.map(r => Math.round(r.top)));
      const wide = range.getBoundingClientRect().width;
      if (tops.size > 1 && rects.reduce((s, r) => s + r.width, 0) < width) {
        report('word', parent, `"${match[0]}" is broken across lines (it fits in ${width}px, is ${wide.toFixed(0)}px)`);
      }
    }
  }

  // ---- cut cells beside empty ones -----------------------------------------------------------------
  const displayed = el => getComputedStyle(el).display !== 'none' && getComputedStyle(el).visibility !== 'hidden';
  for (const row of root.querySelectorAll('.jmcp-call:not(.jmcp-calls-head)')) {
    if (!shown(row)) continue;
    const cells = [...row.children].filter(displayed);
    const empty = cells.filter(c => !c.innerText.trim());
    for (const cell of cells) {
      const cut = [cell, ...cell.querySelectorAll('*')].some(el => shown(el) && el.scrollWidth > el.clientWidth + TOL);
      if (cut && empty.length > 0) report('cut', cell, `cut short while ${describe(empty[0])} beside it is empty`);
    }
  }

  // ---- placeholders fit ---------------------------------------------------------------------------
  const canvas = document.createElement('canvas').getContext('2d');
  for (const input of all.filter(el => el.matches('input[placeholder], textarea[placeholder]'))) {
    if (!input.placeholder || input.value) continue;
    const style = getComputedStyle(input);
    canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const needs = canvas.measureText(input.placeholder).width;
    if (needs > room + TOL && input.tagName === 'INPUT') report('fits', input, `placeholder needs ${needs.toFixed(0)}px, has ${room.toFixed(0)}px`);
  }

  // ---- contrast -----------------------------------------------------------------------------------
  const parseColor = text => {
    let m = text.match(/^rgba?\(([^)]+)\)$/);
    if (m) {
      const [r, g, b, a] = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
      return [r / 255, g / 255, b / 255, a === undefined ? 1 : a];
    }
    m = text.match(/^color\(srgb ([^)]+)\)$/);
    if (m) {
      const [r, g, b, a] = m[1].split(/[\s/]+/).filter(Boolean).map(Number);
      return [r, g, b, a === undefined ? 1 : a];
    }
    return null;
  };
  const over = (top, bottom) => {
    const a = top[3];
    return [0, 1, 2].map(i => top[i] * a + bottom[i] * (1 - a)).concat([1]);
  };
  // A brightness filter on an element scales all it draws: its own background, its text, its children.
  const brightness = el => {
    let value = 1;
    for (let node = el; node; node = node.parentElement) {
      for (const [, amount, percent] of getComputedStyle(node).filter.matchAll(/brightness\(([\d.]+)(%?)\)/g)) {
        value *= percent ? Number(amount) / 100 : Number(amount);
      }
    }
    return value;
  };
  const dimmed = (color, factor) => [0, 1, 2].map(i => color[i] * factor).concat([color[3]]);
  const background = el => {
    const layers = [];
    for (let node = el; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.backgroundImage !== 'none' && !style.backgroundImage.startsWith('url(')) return null;
      const color = parseColor(style.backgroundColor);
      if (color && color[3] > 0) {
        layers.push(dimmed(color, brightness(node)));
        if (color[3] >= 1) break;
      }
    }
    let bg = [1, 1, 1, 1];
    for (const layer of layers.reverse()) bg = over(layer, bg);
    return bg;
  };
  const opacity = el => {
    let value = 1;
    for (let node = el; node; node = node.parentElement) value *= Number(getComputedStyle(node).opacity);
    return value;
  };
  const luminance = c => {
    const lin = v => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  };
  const ratio = (fg, bg) => {
    const [a, b] = [luminance(fg), luminance(bg)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
  };
  const check = (el, colorText, what) => {
    if (el.closest(':disabled, [aria-disabled="true"]')) return; // WCAG: inactive controls are exempt
    const style = getComputedStyle(el);
    const bg = background(el);
    const color = parseColor(colorText);
    if (!bg || !color) return;
    const fg = over(dimmed([color[0], color[1], color[2], color[3] * opacity(el)], brightness(el)), bg);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    const needed = large ? 3 : 4.5;
    const got = ratio(fg, bg);
    if (got < needed) report('contrast', el, `${what} ${got.toFixed(2)}:1 < ${needed}:1 (${colorText} on rgb(${bg.slice(0, 3).map(v => Math.round(v * 255)).join(',')}))`);
  };
  for (const el of all) {
    const hasText = [...el.childNodes].some(n => n.nodeType === Node.TEXT_NODE && n.data.trim());
    if (hasText) check(el, getComputedStyle(el).color, 'text');
    if (el.matches('input[placeholder]:placeholder-shown, textarea[placeholder]:placeholder-shown')) {
      check(el, getComputedStyle(el, '::placeholder').color, 'placeholder');
    }
    if (el.matches('select, input:not([type="checkbox"]):not(:placeholder-shown), textarea:not(:placeholder-shown)')) {
      check(el, getComputedStyle(el).color, 'input text');
    }
  }
  // ---- focus --------------------------------------------------------------------------------------
  for (const el of all.filter(node => node.matches(':focus-visible'))) {
    const style = getComputedStyle(el);
    const outline = parseColor(style.outlineColor);
    const around = el.parentElement ? background(el.parentElement) : null;
    if (style.outlineStyle === 'none' || parseFloat(style.outlineWidth) < 1 || !outline) {
      report('focus', el, 'no outline when focused from the keyboard');
    } else if (around && ratio(over(outline, around), around) < 3) {
      report('focus', el, `its outline is ${ratio(over(outline, around), around).toFixed(2)}:1 against what is around it (< 3:1)`);
    }
  }
  return problems;
};
