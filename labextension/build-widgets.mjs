// Bundles the component set's self-contained front ends, each with its minified stylesheets inside:
// - the notebook widgets' (src/widgets/index.ts), an ES module a kernel sends once, for pages without the
//   JupyterLab extension: jupyter_mcp/widgets/static/widgets.js;
// - the loader each notebook widget carries (src/widgets/loader.ts, anywidget's _esm): it draws with the
//   page's front end or imports the kernel's: jupyter_mcp/widgets/static/loader.js;
// - the MCP App document's script (src/app/index.ts), a classic script the server inlines into each tool's
//   ui:// document (hosts allow inline script only, so it may load nothing): jupyter_mcp/widgets/static/app.js.
import { readFile } from 'node:fs/promises';
import * as esbuild from 'esbuild';

/** `import css from '...css'`: the stylesheet, minified, as a string (the module puts it in the page). */
const cssAsText = {
  name: 'css-as-text',
  setup(build) {
    build.onLoad({ filter: /\.css$/ }, async args => {
      const source = await readFile(args.path, 'utf8');
      const { code } = await esbuild.transform(source, { loader: 'css', minify: true });
      return { contents: code, loader: 'text' };
    });
  }
};

const bundles = [
  { entry: 'src/widgets/index.ts', out: 'widgets.js', format: 'esm' },
  { entry: 'src/widgets/loader.ts', out: 'loader.js', format: 'esm' },
  { entry: 'src/app/index.ts', out: 'app.js', format: 'iife' }
];
for (const { entry, out, format } of bundles) {
  const result = await esbuild.build({
    entryPoints: [entry],
    outfile: `../jupyter_mcp/widgets/static/${out}`,
    bundle: true,
    format,
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    plugins: [cssAsText],
    metafile: true
  });
  const bytes = Object.values(result.metafile.outputs)[0].bytes;
  console.log(`${out}: ${(bytes / 1024).toFixed(1)} kB`);
}
