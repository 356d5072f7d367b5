// Tells the kernel where the browser shows this notebook: its origin (under JupyterHub, the hub's
// public address, which the kernel cannot know) and the Jupyter server's root (JupyterLab's page
// config), so the server panel's client configs point at the hub's route. Draws nothing.

function pageConfig() {
  const node = document.getElementById("jupyter-config-data");
  if (!node) return {};
  try {
    return JSON.parse(node.textContent || "{}");
  } catch {
    return {};
  }
}

function render({ model, el }) {
  el.style.display = "none";
  const config = pageConfig();
  model.set("origin", window.location.origin);
  model.set("server_root", typeof config.serverRoot === "string" ? config.serverRoot : "");
  model.save_changes();
}

export default { render };
