/**
 * Words and counts the views share, so a count reads the same in the notebook, the sidebar and the
 * status bar.
 */

/** `1 call`, `3 calls`, `1,200 calls` (a no-break space: a count stays with its noun). */
export function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')}\u00a0${noun}${count === 1 ? '' : 's'}`;
}

/** " · " that never starts a line: a wrapped line of facts begins with a fact. */
export const SEPARATOR = '\u00a0· ';

/** `text` whose " · " separators never start a line (facts the kernel wrote with plain spaces). */
export function keepDots(text: string): string {
  return text.split(' · ').join(SEPARATOR);
}

export interface ICounts {
  tools: number;
  resources: number;
  prompts: number;
  clients?: number;
  calls?: number;
}

/**
 * "2 tools · 4 resources · 1 client · 8 calls": kinds with nothing in them are left out (a notebook
 * with only resources does not say "0 tools"), and so is everything when nothing is served.
 */
export function countsText(counts: ICounts): string {
  const parts = [
    counts.tools ? plural(counts.tools, 'tool') : '',
    counts.resources ? plural(counts.resources, 'resource') : '',
    counts.prompts ? plural(counts.prompts, 'prompt') : ''
  ].filter(Boolean);
  if (parts.length === 0) {
    parts.push('nothing served');
  }
  if (counts.clients !== undefined) {
    parts.push(plural(counts.clients, 'client'));
  }
  if (counts.calls !== undefined) {
    parts.push(plural(counts.calls, 'call'));
  }
  return parts.join(SEPARATOR);
}

/** How often a resource was read or a prompt used, in words ("read twice", "not used yet"). */
export function usesText(count: number, kind: 'tool' | 'resource' | 'prompt'): string {
  const verb = kind === 'resource' ? 'read' : kind === 'prompt' ? 'used' : 'called';
  if (count === 0) {
    return `not ${verb} yet`;
  }
  const times = count === 1 ? 'once' : count === 2 ? 'twice' : `${count.toLocaleString('en-US')} times`;
  return `${verb} ${times}`;
}

/** Icons beside a call's status word (the word is always there too: colour is never the only cue). */
export const STATUS_ICONS: { [status: string]: string } = {
  running: '',
  waiting: '◔',
  ok: '✓',
  error: '✗',
  timeout: '⏱',
  cancelled: '⊘',
  expired: '⌛',
  refused: '⊘'
};
