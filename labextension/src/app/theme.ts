/**
 * The host's look, applied to this document: its theme (light or dark), its CSS variables (the
 * spec's `--color-*`, `--font-*`, `--border-radius-*`), and its font faces. `style/app.css` maps
 * those variables onto the `--jp-*` tokens the component set is drawn with, with JupyterLab's own
 * light and dark values where the host gives none.
 */
import { isObject, JsonObject } from './protocol';

const FONTS_ID = 'jmcp-host-fonts';

/** Apply the parts of a host context (all of it, or a `host-context-changed` update) that set the look. */
export function applyLook(context: JsonObject): void {
  const theme = context['theme'];
  if (theme === 'light' || theme === 'dark') {
    const root = document.documentElement;
    root.dataset.theme = theme;
    root.style.colorScheme = theme;
    // The component set's dark palette follows JupyterLab's marker on the body.
    document.body.dataset.jpThemeLight = String(theme === 'light');
    document.body.dataset.jpThemeName = `MCP host ${theme}`;
  }
  const styles = isObject(context['styles']) ? context['styles'] : {};
  if (isObject(styles['variables'])) {
    for (const [name, value] of Object.entries(styles['variables'])) {
      if (name.startsWith('--') && typeof value === 'string') {
        document.documentElement.style.setProperty(name, value);
      }
    }
  }
  const css = isObject(styles['css']) ? styles['css'] : {};
  if (typeof css['fonts'] === 'string') {
    let node = document.getElementById(FONTS_ID);
    if (!node) {
      node = document.createElement('style');
      node.id = FONTS_ID;
      document.head.append(node);
    }
    node.textContent = css['fonts'];
  }
}

/** Before the host says: the theme the browser prefers. */
export function applyDefaultLook(): void {
  const dark = window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
  applyLook({ theme: dark ? 'dark' : 'light' });
}
