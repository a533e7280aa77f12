// Takes the README's screenshot of the web page (docs/web.png) with the same Chromium as the browser tests:
//   node apps/server/scripts/screenshot.mjs 'http://127.0.0.1:7800/?q=enable+CORS' docs/web.png
// against a `docs serve --http` over the corpus libraries. A URL that reads a page (`read=…&path=…#section`) is taken
// scrolled to its section.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const [url, out] = process.argv.slice(2);
if (!url || !out) {
  console.error('usage: node scripts/screenshot.mjs <page url> <out.png>');
  process.exit(2);
}
const profile = await mkdtemp(path.join(tmpdir(), 'docs-screenshot-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
  viewport: { width: 1100, height: 720 },
});
try {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(url);
  const params = new URL(url).searchParams;
  // A page being read (scrolled to the section the URL names), the results of a search, or the library list.
  await page
    .locator(params.has('read') ? '#page .markdown' : params.has('q') ? '.result' : '#library-list li')
    .first()
    .waitFor();
  // Takes the focus from the search box (its caret); a page being read stays scrolled to its section.
  if (!params.has('read')) await page.locator('#status').click();
  else await page.waitForTimeout(300);
  await page.screenshot({ path: out });
} finally {
  await context.close();
  await rm(profile, { recursive: true, force: true });
}
