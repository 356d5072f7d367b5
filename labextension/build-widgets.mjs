// Bundles the notebook widgets' front end (src/widgets/index.ts, the component set and its minified
// stylesheet) into one self-contained ES module for anywidget: jupyter_mcp/widgets/static/widgets.js.
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

const result = await esbuild.build({
  entryPoints: ['src/widgets/index.ts'],
  outfile: '../jupyter_mcp/widgets/static/widgets.js',
  bundle: true,
  format: 'esm',
  target: 'es2020',
  minify: true,
  legalComments: 'none',
  plugins: [cssAsText],
  metafile: true
});
const bytes = Object.values(result.metafile.outputs)[0].bytes;
console.log(`widgets.js: ${(bytes / 1024).toFixed(1)} kB`);
