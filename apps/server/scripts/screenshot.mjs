// Takes the README's screenshot of the web page (docs/web.png) with the same Chromium as the browser tests:
//   node apps/server/scripts/screenshot.mjs 'http://127.0.0.1:7800/?q=enable+CORS' docs/web.png
// against a `docs serve --http` over the corpus libraries.
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
  await page
    .locator(new URL(url).searchParams.has('q') ? '.result' : '#library-list li')
    .first()
    .waitFor();
  await page.locator('#status').click();
  await page.screenshot({ path: out });
} finally {
  await context.close();
  await rm(profile, { recursive: true, force: true });
}
