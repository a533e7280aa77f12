import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './__tests__/chromium.js';
import { installTestPackage } from './__tests__/fixtures.js';
import { installWebPackage } from './__tests__/web-fixtures.js';
import { type RunningHttpServer, startHttpServer } from './index.js';

// The web page in a real Chromium over a real server and store: search as you type,
// results titled by their section with the query marked, the library and version filter,
// opening a result at its section, reading pages and following their links, the keyboard,
// the URL and back button, the layout on a phone, tables, copy buttons, the empty state,
// and documentation that tries to run script. The tests leave screenshots in
// apps/server/screenshots/ (git-ignored) for a reviewer to look at.

// Functions given to page.evaluate run in the page: these name its globals for the type checker (the server's
// project has no DOM types).
interface PageElement {
  readonly tagName: string;
  readonly textContent: string | null;
  cloneNode(deep: boolean): PageElement;
  remove(): void;
  readonly attributes: Iterable<{ readonly name: string }>;
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
}
declare const document: {
  readonly activeElement: { readonly id: string } | null;
  readonly documentElement: { readonly scrollWidth: number; readonly scrollHeight: number };
  querySelector(selector: string): PageElement | null;
  readonly body: { insertAdjacentHTML(position: string, html: string): void };
  querySelectorAll(selector: string): Iterable<PageElement>;
};
declare const window: {
  readonly __xss?: unknown;
  readonly innerWidth: number;
  readonly innerHeight: number;
  readonly scrollY: number;
};
declare function getComputedStyle(element: PageElement): { readonly textAlign: string };
declare const navigator: { readonly clipboard: { readText(): Promise<string> } };

let dir: string;
let server: RunningHttpServer;
let empty: RunningHttpServer;
let guarded: RunningHttpServer;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
const pageErrors: string[] = [];
const consoleErrors: string[] = [];
const dialogs: string[] = [];
/** Where the tests leave their screenshots. */
const screenshots = fileURLToPath(new URL('../screenshots/', import.meta.url));
/** Installed libraries: the server tests' three and the browser tests' (two versions of longapi). */
const LIBRARIES = 8;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-web-'));
  const home = path.join(dir, 'home');
  for (const name of ['webframe', 'apiframe', 'testlib'] as const) await installTestPackage(home, name);
  for (const name of ['linked', 'hostile', 'longapi', 'longapi@1.0.0', 'readmes'] as const)
    await installWebPackage(home, name);
  await mkdir(screenshots, { recursive: true });
  server = await startHttpServer({ home, port: 0 });
  empty = await startHttpServer({ home: path.join(dir, 'empty-home'), port: 0 });
  guarded = await startHttpServer({ home, port: 0, token: 'page-secret' });
  browser = await launchChromium();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  // Generous for a busy CI machine; a passing run waits far less.
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
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
  console.log(`The browser tests' screenshots are in ${screenshots}`);
});

/** Saves a screenshot of the viewport under `screenshots`. */
async function screenshot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(screenshots, `${name}.png`) });
}

/** Whether the page is wider than the window (it would scroll sideways). */
function overflows(): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

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
  it('searches as you type, each result titled by its section, labelled library@version, with its score', async () => {
    await page.goto(server.pageUrl);
    await expect.poll(() => page.locator('#library-list li').count()).toBe(LIBRARIES);
    await page.locator('#q').pressSequentially('enable cors');
    await waitForResults('enable cors');
    expect((await labels()).sort()).toEqual(['apiframe@3.1.0', 'webframe@2.0.0']);
    const first = page.locator('.result').first();
    expect(await first.locator('.open').textContent()).toBe('CORS');
    expect(await first.locator('.page-title').textContent()).toBe('CORS');
    expect(await first.locator('.path').textContent()).toBe('middleware/cors.md');
    expect(await first.locator('.score').textContent()).toMatch(/^[01]\.\d\d$/);
    expect(await first.locator('.markdown').textContent()).toContain('cors middleware');
    // The query's words are marked, in the title and in the text, whatever their case.
    expect(await first.locator('.open mark').allTextContents()).toEqual(['CORS']);
    expect(await first.locator('.markdown mark').allTextContents()).toEqual(['Enable', 'CORS', 'cors']);
    await screenshot('results');
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
    const url = new URL(page.url());
    expect(`${url.pathname}${url.search}${url.hash}`).toBe(chosen);
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
    await expect.poll(() => page.locator('#library-list li').count()).toBe(LIBRARIES);
    await page.locator('#q').fill('fake timers');
    await waitForResults('fake timers');
    expect(await labels()).toEqual(['testlib@1.0.0']);
  });

  it('keeps documentation inert: no payload in a page, title, heading, description or link runs', async () => {
    await page.goto(server.pageUrl);
    await expect.poll(() => page.locator('#library-list li').count()).toBe(LIBRARIES);
    await page.locator('#q').fill('hostile payload');
    await waitForResults('hostile payload');
    expect(await labels()).toEqual(['hostile@6.6.6']);
    await page.locator('.result .open').first().click();
    await page.waitForURL((url) => url.searchParams.get('path') === 'hostile.md');
    const body = page.locator('#page .markdown');
    await body.waitFor();
    // Raw HTML is rendered, through the sanitiser: the script is gone, the raw link keeps its text and loses its
    // javascript: address, the image is its alt text (here none: "image").
    const text = await page.evaluate(() => {
      const copy = document.querySelector('#page .markdown')?.cloneNode(true);
      for (const code of copy?.querySelectorAll('pre') ?? []) code.remove();
      return copy?.textContent ?? '';
    });
    expect(text).toContain('The hostile payload page.');
    expect(text).not.toMatch(/<(script|img|svg|iframe)|script tag/);
    expect(await body.locator('a', { hasText: 'raw html link' }).getAttribute('href')).toBeNull();
    expect(await body.locator('span.image').first().textContent()).toBe('image');
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

  it('opens a result at its section: the heading at the top of the viewport, marked, the URL naming it', async () => {
    await page.goto(server.pageUrl);
    await page.locator('#q').fill('logger');
    await waitForResults('logger');
    const result = page.locator('.result', { has: page.locator('.open', { hasText: /^logger$/ }) }).first();
    // Titled by the section, the heading above it small, the page and the library under it.
    expect(await result.locator('.trail').textContent()).toBe('Longapi API');
    expect(await result.locator('.page-title').textContent()).toBe('Longapi API');
    expect(await result.locator('.label').textContent()).toBe('longapi@2.0.0');
    expect(await result.locator('.open mark').textContent()).toBe('logger');
    const href = await result.locator('.open').getAttribute('href');
    expect(href).toMatch(/#logger$/);
    await result.locator('.open').click();
    await page.waitForURL((url) => url.hash === '#logger');
    const atSection = async () => {
      const heading = page.locator('#page .markdown h2.target');
      await expect.poll(() => heading.textContent()).toBe('logger');
      // Below the sticky bar, at the top of what is on screen, far down a page much taller than the window.
      const top = await heading.evaluate((e) => e.getBoundingClientRect().top);
      const bar = await page.locator('.bar').evaluate((e) => e.getBoundingClientRect().bottom);
      expect(top).toBeGreaterThanOrEqual(bar - 1);
      expect(top).toBeLessThan(bar + 160);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(10_000);
      expect(await page.locator('#page .markdown .target').count()).toBe(1);
    };
    await atSection();
    await screenshot('section');
    // The address is shareable: opened afresh, it shows the same section.
    await page.reload();
    await atSection();
    // An address that changes only its section moves within the page.
    await page.goto(page.url().replace(/#logger$/, '#method3'));
    await expect.poll(() => page.locator('#page .markdown .target').textContent()).toBe('method3');
    expect(pageErrors).toEqual([]);
  });

  it('goes back from a page to the results, scrolled where they were', async () => {
    await page.goto(`${server.pageUrl}?q=request+handler+widgets&library=longapi`);
    await waitForResults('request handler widgets');
    expect(await page.locator('.result').count()).toBeGreaterThan(8);
    await page.locator('#result-8').scrollIntoViewIfNeeded();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    const scrolled = await page.evaluate(() => window.scrollY);
    const section = await page.locator('#result-8 .open').textContent();
    await page.locator('#result-8 .open').click();
    await expect.poll(() => page.locator('#page .markdown .target').textContent()).toBe(section);
    // Escape (the page's own back link) and the browser's back button both return to the same place.
    await page.keyboard.press('Escape');
    await waitForResults('request handler widgets');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(scrolled);
    await page.goForward();
    await expect.poll(() => page.locator('#page .markdown .target').textContent()).toBe(section);
    await page.goBack();
    await waitForResults('request handler widgets');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(scrolled);
    expect(pageErrors).toEqual([]);
  });

  it('lists every installed version of the chosen library in the version picker', async () => {
    await page.goto(`${server.pageUrl}?q=logger`);
    await waitForResults('logger');
    await page.locator('#library').selectOption('longapi');
    await page.waitForURL((url) => url.searchParams.get('library') === 'longapi');
    expect(await page.locator('#version option').allTextContents()).toEqual(['latest', '2.0.0', '1.0.0']);
    await page.locator('#version').selectOption('1.0.0');
    await page.waitForURL((url) => url.searchParams.get('version') === '1.0.0');
    await expect.poll(() => labels()).toEqual(['longapi@1.0.0']);
  });

  it('holds its layout from 360 px to wide screens, in light and dark: no sideways scroll, the pickers on screen', async () => {
    try {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        for (const width of [360, 390, 1280]) {
          await page.setViewportSize({ width, height: 800 });
          await page.goto(`${server.pageUrl}?q=logger&library=longapi`);
          await waitForResults('logger');
          expect(await overflows(), `results at ${width} px`).toBe(false);
          for (const picker of ['#library', '#version']) {
            const box = await page.locator(picker).boundingBox();
            expect(box, picker).not.toBeNull();
            expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
            expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
          }
          await screenshot(`results-${width}px-${colorScheme}`);
          await page.locator('.result .open').first().click();
          await page.locator('#page .markdown .target').waitFor();
          expect(await overflows(), `the long page at ${width} px`).toBe(false);
          await screenshot(`section-${width}px-${colorScheme}`);
          await page.goto(`${server.pageUrl}?read=readmes%401.0.0&path=tables.md`);
          await page.locator('#page .markdown table').waitFor();
          expect(await overflows(), `a table at ${width} px`).toBe(false);
        }
      }
    } finally {
      await page.setViewportSize({ width: 1100, height: 760 });
      await page.emulateMedia({ colorScheme: null });
    }
  });

  it('aligns tables with classes and decodes entities: reading every README of the fixtures logs no CSP error', async () => {
    consoleErrors.length = 0;
    const readmes = ['centered-header.md', 'html-blocks.md', 'markdown-badges.md', 'tables.md'];
    for (const readme of readmes) {
      await page.goto(`${server.pageUrl}?read=readmes%401.0.0&path=${readme}`);
      await expect.poll(() => page.locator('#page .path').textContent()).toBe(readme);
      await page.locator('#page .markdown').waitFor();
      // Outside code, no character reference is left as text.
      const text = await page.evaluate(() => {
        const copy = document.querySelector('#page .markdown')?.cloneNode(true);
        for (const code of copy?.querySelectorAll('code') ?? []) code.remove();
        return copy?.textContent ?? '';
      });
      expect(text, readme).not.toMatch(/&(nbsp|amp|mdash|copy|lt|gt);/);
      await screenshot(`readme-${readme.replace(/\.md$/, '')}`);
    }
    expect(await page.locator('#page [style]').count()).toBe(0);
    // The last README read is tables.md; html-blocks.md's raw HTML is rendered, not shown as tags.
    await page.goto(`${server.pageUrl}?read=readmes%401.0.0&path=html-blocks.md`);
    const html = page.locator('#page .markdown');
    await html.waitFor();
    expect(await html.locator('table td code').first().textContent()).toBe('retries');
    expect(await html.locator('details summary').textContent()).toBe('Older versions');
    expect(await html.locator('p.align-center b').textContent()).toBe('Widget');
    expect(await html.locator('sup').first().textContent()).toBe('default export');
    expect(await html.textContent()).not.toMatch(/<\/?(table|details|p|b|sup)\b|a note for maintainers/);
    await page.goto(`${server.pageUrl}?read=readmes%401.0.0&path=tables.md`);
    await page.locator('#page .markdown tr').first().waitFor();
    const cells = page.locator('#page .markdown tr').first().locator('th');
    expect(await cells.evaluateAll((th) => th.map((e) => e.getAttribute('class')))).toEqual([
      'align-left',
      'align-center',
      'align-right',
    ]);
    expect(
      await page
        .locator('#page td.align-right')
        .first()
        .evaluate((e) => getComputedStyle(e).textAlign),
    ).toBe('right');
    expect(await page.locator('#page .markdown p').last().textContent()).toBe(
      'Padding\u00a0\u00a0•\u00a0\u00a0between entries & more.',
    );
    expect(consoleErrors.filter((e) => /Content.Security.Policy|Refused/i.test(e))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('links a page to its file on the web at the commit its package was built from, and no other page', async () => {
    await page.goto(`${server.pageUrl}?read=linked%401.0.0&path=guide%2Fsetup.md#install-the-linker`);
    const web = page.locator('#page .crumbs a.web');
    await web.waitFor();
    expect(await web.getAttribute('href')).toBe(
      'https://github.com/example/linker/blob/0a1b2c3d/docs/guide/setup.md#install-the-linker',
    );
    expect(await web.getAttribute('target')).toBe('_blank');
    expect(await web.getAttribute('rel')).toContain('noopener');
    await web.scrollIntoViewIfNeeded();
    await screenshot('open-on-the-web');
    // A package built from anything else (here written by the test with no source) has no such link.
    await page.goto(`${server.pageUrl}?read=readmes%401.0.0&path=tables.md`);
    await page.locator('#page .markdown tr').first().waitFor();
    expect(await page.locator('#page .crumbs a.web').count()).toBe(0);
  });

  it('copies a code block to the clipboard with its button', async () => {
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(server.pageUrl).origin,
    });
    await page.goto(`${server.pageUrl}?read=linked%401.0.0&path=guide%2Fsetup.md`);
    const block = page.locator('#page .markdown .code').first();
    await block.locator('button.copy').click();
    await expect.poll(() => block.locator('button.copy').textContent()).toBe('Copied');
    const code = await block.locator('pre').textContent();
    expect(code).toContain("import { link } from 'linker';");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    await screenshot('copy');
  });
});
