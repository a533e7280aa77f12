// Bundles the web page (web/) into dist/web with esbuild: one script, one stylesheet, the HTML and the icon. Runs
// after tsc in the package's build, so the server serves the page from its own files, with no CDN.
import { copyFile, mkdir } from 'node:fs/promises';
import { build } from 'esbuild';

const web = new URL('../web/', import.meta.url);
const out = new URL('../dist/web/', import.meta.url);
await mkdir(out, { recursive: true });
await build({
  entryPoints: [new URL('app.ts', web).pathname],
  outdir: out.pathname,
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome111', 'firefox111', 'safari16.4'],
  // The licences of markdown-it and highlight.js travel with the bundle.
  legalComments: 'eof',
  charset: 'utf8',
  logLevel: 'warning',
});
await Promise.all(['index.html', 'icon.svg'].map((file) => copyFile(new URL(file, web), new URL(file, out))));
