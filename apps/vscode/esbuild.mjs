// Bundles the extension (Node, CommonJS, `vscode` provided by the editor) into dist/: the .vsix carries no
// node_modules, so it stays small and activates fast.
import { build } from 'esbuild';

const production = process.argv.includes('--production');

const common = {
  outdir: 'dist',
  bundle: true,
  minify: production,
  sourcemap: !production,
  legalComments: 'none',
  logLevel: 'warning',
};

await Promise.all([
  build({
    ...common,
    entryPoints: { extension: 'src/extension.ts' },
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    // ws's optional native speed-ups are not shipped: it falls back to JavaScript without them.
    external: ['vscode', 'bufferutil', 'utf-8-validate'],
    // When the bundle starts loading: activation time counts loading the code, as VS Code's own measure does.
    banner: { js: 'globalThis.__assistenteLoadStart = { at: performance.now(), cpu: process.cpuUsage() };' },
  }),
  // The chat view's script and style: loaded by the webview from the extension, nothing remote.
  build({
    ...common,
    entryPoints: { webview: 'src/webview/main.ts' },
    platform: 'browser',
    target: 'chrome120',
    format: 'iife',
  }),
]);
