import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './__tests__/chromium.js';
import { installTestPackage } from './__tests__/fixtures.js';
import { installWebPackage } from './__tests__/web-fixtures.js';
import { type RunningHttpServer, startHttpServer } from './index.js';

// The web page in a real Chromium over a real server and store: search as you type,
// labels, the library filter, reading pages and following their links, the keyboard,
// the URL and back button, the empty state, and documentation that tries to run script.

// Functions given to page.evaluate run in the page: these name its globals for the type checker (the server's
// project has no DOM types).
interface PageElement {
  readonly tagName: string;
  readonly attributes: Iterable<{ readonly name: string }>;
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
}
declare const document: {
  readonly activeElement: { readonly id: string } | null;
  readonly body: { insertAdjacentHTML(position: string, html: string): void };
  querySelectorAll(selector: string): Iterable<PageElement>;
};
declare const window: { readonly __xss?: unknown };

let dir: string;
let server: RunningHttpServer;
let empty: RunningHttpServer;
let guarded: RunningHttpServer;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
const pageErrors: string[] = [];
const dialogs: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-web-'));
  const home = path.join(dir, 'home');
  for (const name of ['webframe', 'apiframe', 'testlib'] as const) await installTestPackage(home, name);
  for (const name of ['linked', 'hostile'] as const) await installWebPackage(home, name);
  server = await startHttpServer({ home, port: 0 });
  empty = await startHttpServer({ home: path.join(dir, 'empty-home'), port: 0 });
  guarded = await startHttpServer({ home, port: 0, token: 'page-secret' });
  browser = await launchChromium();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  // Generous for a busy CI machine; a passing run waits far less.
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await empty?.close();
  await guarded?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The labels of the results on screen. */
function labels(): Promise<string[]> {
  return page.locator('.result .label').allTextContents();
}

/** Waits until the results answer `query` (the URL carries it once a search has been made). */
async function waitForResults(query: string): Promise<void> {
  await page.waitForURL((url) => url.searchParams.get('q') === query);
  // The URL changes before the answer arrives: the results shown until then are the last query's.
  await expect.poll(() => page.locator('#results').getAttribute('data-query')).toBe(query);
  await page.locator('.result').first().waitFor();
}

describe('the web page', () => {
  it('searches as you type, each result labelled library@version with its breadcrumb and score', async () => {
    await page.goto(server.pageUrl);
    await expect.poll(() => page.locator('#library-list li').count()).toBe(5);
    await page.locator('#q').pressSequentially('enable cors');
    await waitForResults('enable cors');
    expect((await labels()).sort()).toEqual(['apiframe@3.1.0', 'webframe@2.0.0']);
    const first = page.locator('.result').first();
    expect(await first.locator('.crumb').textContent()).toBe('CORS');
    expect(await first.locator('.score').textContent()).toMatch(/^[01]\.\d\d$/);
    expect(await first.locator('.markdown').textContent()).toContain('cors middleware');
    expect(pageErrors).toEqual([]);
  });

  it('filters by library, with the version picker, in the URL', async () => {
    await page.locator('#library').selectOption('webframe');
    await page.waitForURL((url) => url.searchParams.get('library') === 'webframe');
    await expect.poll(() => page.locator('.result').count()).toBe(1);
    expect(await labels()).toEqual(['webframe@2.0.0']);
    expect(await page.locator('#version option').allTextContents()).toEqual(['latest', '2.0.0']);
    await page.locator('#version').selectOption('2.0.0');
    await page.waitForURL((url) => url.searchParams.get('version') === '2.0.0');
    expect(await labels()).toEqual(['webframe@2.0.0']);
    await page.locator('#library').selectOption('');
    await page.waitForURL((url) => !url.searchParams.has('library'));
    await expect.poll(() => page.locator('.result').count()).toBe(2);
  });

  it('is driven by the keyboard: / focuses, arrows choose, Enter opens, Escape goes back', async () => {
    await page.locator('#status').click();
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('q');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('linker');
    await waitForResults('linker');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.locator('.result.selected').count()).toBe(1);
    expect(await page.locator('.result.selected').getAttribute('id')).toBe('result-1');
    await page.keyboard.press('ArrowUp');
    const chosen = await page.locator('.result.selected .open').getAttribute('href');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.has('read'));
    expect(`${new URL(page.url()).pathname}${new URL(page.url()).search}`).toBe(chosen);
    await page.locator('#page .markdown').waitFor();
    await page.keyboard.press('Escape');
    await waitForResults('linker');
    expect(await page.locator('#page').isHidden()).toBe(true);
  });

  it('reads a whole page, follows its links to other pages of the package, and the back button returns', async () => {
    await page.goto(`${server.pageUrl}?q=linker&read=linked%401.0.0&path=guide%2Fintro.md`);
    await expect.poll(() => page.locator('#page .label').textContent()).toBe('linked@1.0.0');
    await expect.poll(() => page.locator('#page .markdown h1').textContent()).toBe('Introduction');
    const external = page.locator('#page a', { hasText: 'the linker site' });
    expect(await external.getAttribute('target')).toBe('_blank');
    expect(await external.getAttribute('rel')).toContain('noopener');

    await page.locator('#page a', { hasText: 'the setup page' }).click();
    await page.waitForURL((url) => url.searchParams.get('path') === 'guide/setup.md');
    await expect.poll(() => page.locator('#page .markdown h1').textContent()).toBe('Setup');
    // The link named a heading of that page: it is scrolled to, and its code is highlighted.
    await expect
      .poll(() => page.locator('#h-install-the-linker').evaluate((e) => e.getBoundingClientRect().top))
      .toBeLessThan(760);
    expect(await page.locator('#page pre code.hljs .hljs-keyword').count()).toBeGreaterThan(0);

    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('path') === 'guide/intro.md');
    await page.locator('#page a', { hasText: 'the client API' }).click();
    await page.waitForURL((url) => url.searchParams.get('path') === 'api/client.md');
    await expect.poll(() => page.locator('#page .markdown h1').textContent()).toBe('Client API');
    // A link from the package root (/guide/intro.md) resolves inside the package too.
    await page.locator('#page a', { hasText: 'the introduction' }).click();
    await page.waitForURL((url) => url.searchParams.get('path') === 'guide/intro.md');
    await page.goBack();
    await page.goBack();
    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('read'));
    await waitForResults('linker');
    expect(pageErrors).toEqual([]);
  });

  it('says how to add docs when none are installed', async () => {
    await page.goto(empty.pageUrl);
    await page.locator('#empty').waitFor({ state: 'visible' });
    expect(await page.locator('#empty').textContent()).toContain('docs add');
  });

  it('asks for the token of a server that has one, then searches with it', async () => {
    await page.goto(guarded.pageUrl);
    await page.locator('#token-input').waitFor({ state: 'visible' });
    expect(await page.locator('.result').count()).toBe(0);
    await page.locator('#token-input').fill('page-secret');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#library-list li').count()).toBe(5);
    await page.locator('#q').fill('fake timers');
    await waitForResults('fake timers');
    expect(await labels()).toEqual(['testlib@1.0.0']);
  });

  it('keeps documentation inert: no payload in a page, title, heading, description or link runs', async () => {
    await page.goto(server.pageUrl);
    await expect.poll(() => page.locator('#library-list li').count()).toBe(5);
    await page.locator('#q').fill('hostile payload');
    await waitForResults('hostile payload');
    expect(await labels()).toEqual(['hostile@6.6.6']);
    await page.locator('.result .open').first().click();
    await page.waitForURL((url) => url.searchParams.get('path') === 'hostile.md');
    const body = page.locator('#page .markdown');
    await body.waitFor();
    // Raw HTML is shown as text, not parsed.
    expect(await body.textContent()).toContain('<script>window.__xss = "script tag"</script>');
    const found = await page.evaluate(() => {
      const content = [...document.querySelectorAll('#page .markdown, .result .markdown')];
      const elements = content.flatMap((c) => [...c.querySelectorAll('*')]);
      return {
        scripts: elements.filter((e) =>
          ['SCRIPT', 'IFRAME', 'IMG', 'SVG', 'OBJECT', 'EMBED'].includes(e.tagName.toUpperCase()),
        ).length,
        handlers: elements.flatMap((e) => [...e.attributes].map((a) => a.name)).filter((n) => n.startsWith('on')),
        hrefs: [...document.querySelectorAll('a')].map((a) => a.getAttribute('href') ?? ''),
      };
    });
    expect(found.scripts).toBe(0);
    expect(found.handlers).toEqual([]);
    expect(found.hrefs.filter((href) => /^\s*(javascript|data|vbscript):/i.test(href))).toEqual([]);
    // Click every link of the page, then let anything scheduled run.
    for (const link of await body.locator('a:not([target])').all()) await link.click();
    await page.waitForTimeout(200);
    // Trusted Types holds too: HTML cannot enter the DOM by any other way than the markdown policy.
    const refused = await page.evaluate(() => {
      try {
        document.body.insertAdjacentHTML('beforeend', '<img src=x onerror="window.__xss=\'sink\'">');
        return false;
      } catch {
        return true;
      }
    });
    expect(refused).toBe(true);
    expect(await page.evaluate(() => window.__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(pageErrors).toEqual([]);
    // The library list shows the hostile description as text too.
    await page.goto(server.pageUrl);
    await expect
      .poll(() => page.locator('#library-list li', { hasText: 'hostile@6.6.6' }).textContent())
      .toContain('onerror');
    expect(await page.evaluate(() => window.__xss)).toBeUndefined();
  });
});
