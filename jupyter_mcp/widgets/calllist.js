// The history's call list (an anywidget view): rows from the kernel's `rows` trait, the clicked
// row's id into `selected`. Same classes as the static list the kernel renders for fallbacks.

const HEADERS = ["time", "status", "client", "name", "arguments", "duration"];

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function statusCell(status, icons) {
  const cell = el("span", `jmcp-status jmcp-status-${status}`);
  if (status === "running") cell.append(el("span", "jmcp-spinner"), ` ${status}`);
  else cell.textContent = `${icons[status] ?? "?"} ${status}`;
  return cell;
}

function argumentsCell(row) {
  const cell = el("span", "jmcp-args");
  cell.title = row.arguments;
  const text = el("div", "", row.arguments || "\u00a0");
  cell.append(text);
  if (row.progress !== null || row.progress_text) {
    const line = el("div", "jmcp-progress-line");
    if (row.progress !== null) {
      const bar = el("div", "jmcp-progress");
      const fill = el("div");
      fill.style.width = `${Math.round(row.progress * 100)}%`;
      bar.append(fill);
      line.append(bar);
    }
    line.append(el("span", "jmcp-muted", row.progress_text));
    cell.append(line);
  } else if (row.error) {
    const line = el("div");
    line.append(el("span", "jmcp-error", row.error));
    cell.append(line);
  }
  return cell;
}

function nameCell(row) {
  const cell = el("span", "jmcp-mono");
  cell.title = row.tool;
  if (row.kind !== "tool") cell.append(el("span", "jmcp-kind", row.kind));
  cell.append(row.tool);
  if (row.task) {
    const task = el("span", "jmcp-badge jmcp-badge-task", "task");
    task.title = `task ${row.task}`;
    cell.append(" ", task);
  }
  return cell;
}

function rowElement(row, selected, icons) {
  const node = el("div", selected ? "jmcp-callrow jmcp-selected" : "jmcp-callrow");
  node.dataset.call = row.id;
  node.setAttribute("role", "button");
  node.tabIndex = 0;
  node.title = "Show details";
  const client = el("span", "", row.client);
  client.title = row.client;
  node.append(
    el("span", "jmcp-muted", row.time),
    statusCell(row.status, icons),
    client,
    nameCell(row),
    argumentsCell(row),
    el("span", "jmcp-num", row.duration),
  );
  return node;
}

function render({ model, el: root }) {
  root.classList.add("jmcp-calllist");
  const header = el("div", "jmcp-callrow jmcp-header");
  header.append(...HEADERS.map((h) => el("span", h === "duration" ? "jmcp-num" : "", h)));
  const body = el("div", "jmcp-callrows");
  root.append(header, body);

  const draw = () => {
    const selected = model.get("selected");
    const icons = model.get("icons");
    const rows = model.get("rows");
    body.replaceChildren(...rows.map((row) => rowElement(row, row.id === selected, icons)));
    header.style.display = rows.length ? "" : "none";
  };
  const pick = (target) => {
    const row = target.closest("[data-call]");
    if (!row) return;
    model.set("selected", model.get("selected") === row.dataset.call ? null : row.dataset.call);
    model.save_changes();
  };
  body.addEventListener("click", (event) => pick(event.target));
  body.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      pick(event.target);
    }
  });
  model.on("change:rows", draw);
  model.on("change:selected", draw);
  draw();
  return () => {
    model.off("change:rows", draw);
    model.off("change:selected", draw);
  };
}

export default { render };
