import type { DocResult, SearchResponse } from '@docs/search';
import './app.css';
import { headingId, type PageContext, renderMarkdown, type SafeHtml } from './markdown.js';

// The page: a search box answered as you type, results titled by their section, and
// whole pages read in place, scrolled to the section a result names. All state is in
// the URL (shareable; the back button works, back to the same place in the results);
// everything goes through the JSON API of the same server.

interface Library {
  readonly library: string;
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly sections: number;
  readonly tokens: number;
}

/** What /api/search answers, as far as the page reads it: the search's response (get_docs' or search_all's form). */
type SearchAnswer = Pick<SearchResponse, 'status' | 'message' | 'results' | 'total' | 'nextOffset'>;

interface PageAnswer {
  readonly library: string;
  readonly path: string;
  readonly title: string;
  readonly content: string;
  readonly nextOffset?: number;
  /** The page on the web, when its package was built from a repository on a known host. */
  readonly webUrl?: string;
}

interface ApiError {
  readonly error: { readonly code: string; readonly message: string; readonly suggestions?: readonly string[] };
}

/** The page's state, read from and written to the URL. */
interface View {
  readonly q: string;
  readonly library: string;
  readonly version: string;
  /** `name@version` and path of the page being read, if one is. */
  readonly read?: { readonly library: string; readonly path: string; readonly anchor?: string };
}

/** Places sanitised HTML (markdown.ts made it through the page's one Trusted Types policy). */
function setRenderedHtml(element: Element, html: SafeHtml): void {
  (element as { innerHTML: unknown }).innerHTML = html;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const input = $<HTMLInputElement>('q');
const libraryPicker = $<HTMLSelectElement>('library');
const versionPicker = $<HTMLSelectElement>('version');
const status = $('status');
const resultList = $<HTMLOListElement>('results');
const pageView = $('page');
const emptyState = $('empty');
const libraryOverview = $('libraries');
const tokenForm = $<HTMLFormElement>('token-form');

const DEBOUNCE_MS = 150;
/** Results per request, and the token budget over their content: enough to read, small enough to come fast. */
const PAGE_SIZE = 20;
const PAGE_TOKENS = 8000;
const TOKEN_KEY = 'docs-token';
let libraries: Library[] = [];
let results: readonly DocResult[] = [];
let selected = -1;
/** The query the results on screen answer: Enter opens one only when the box still says it. */
let shownQuery = '';
let inFlight: AbortController | undefined;
let debounce: number | undefined;

/** A small element builder: text goes in as text, never as HTML. */
function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) element.setAttribute(key, value);
  element.append(...children);
  return element;
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function readView(): View {
  const params = new URLSearchParams(location.search);
  const read = params.get('read');
  const path = params.get('path');
  // The section read is the URL's fragment (`…#heading-slug`); `anchor=` is what older links of the page said.
  const anchor = location.hash ? decodeSafely(location.hash.slice(1)) : params.get('anchor');
  return {
    q: params.get('q') ?? '',
    library: params.get('library') ?? '',
    version: params.get('version') ?? '',
    ...(read && path ? { read: { library: read, path, ...(anchor ? { anchor } : {}) } } : {}),
  };
}

function viewUrl(view: View): string {
  const params = new URLSearchParams();
  if (view.q) params.set('q', view.q);
  if (view.library) params.set('library', view.library);
  if (view.library && view.version) params.set('version', view.version);
  if (view.read) {
    params.set('read', view.read.library);
    params.set('path', view.read.path);
  }
  const query = params.toString();
  const anchor = view.read?.anchor ? `#${encodeURIComponent(view.read.anchor)}` : '';
  return `${query ? `/?${query}` : '/'}${anchor}`;
}

/** The fragment naming a result's section in its page: its heading's slug, as GitHub makes it. */
function sectionAnchor(result: DocResult): string | undefined {
  if (result.breadcrumb.length === 0) return undefined;
  return headingId(result.breadcrumb.at(-1) ?? result.heading).slice('h-'.length) || undefined;
}

/** The words of a query worth marking in results: letters and digits, two or more, longest first. */
function queryTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}_]{2,}/gu) ?? [];
  return [...new Set(words)].sort((a, b) => b.length - a.length);
}

/**
 * Wraps each occurrence of the terms in the text under `root` in a `<mark>`. It works on text nodes, after the
 * markdown is rendered and escaped: a term becomes a mark element's text, never HTML. Code blocks are left as they are.
 */
function markTerms(root: Element, terms: readonly string[]): void {
  if (terms.length === 0) return;
  const pattern = new RegExp(terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'giu');
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  while (walker.nextNode()) {
    const node = walker.currentNode as Text;
    if (!node.parentElement?.closest('pre, mark')) nodes.push(node);
  }
  for (const node of nodes) {
    const parts: (Node | string)[] = [];
    let last = 0;
    for (const match of node.data.matchAll(pattern)) {
      parts.push(node.data.slice(last, match.index), h('mark', {}, match[0]));
      last = match.index + match[0].length;
    }
    if (parts.length === 0) continue;
    parts.push(node.data.slice(last));
    node.replaceWith(...parts);
  }
}

/** Puts a copy button on each code block under `root`. */
function addCopyButtons(root: Element): void {
  for (const pre of root.querySelectorAll('pre')) {
    const block = h('div', { class: 'code' });
    pre.replaceWith(block);
    block.append(pre, h('button', { type: 'button', class: 'copy', title: 'Copy the code' }, 'Copy'));
  }
}

/** Renders markdown into `element` through the policy, with copy buttons on its code. */
function showMarkdown(element: Element, markdown: string, context: PageContext): void {
  setRenderedHtml(element, renderMarkdown(markdown, context));
  addCopyButtons(element);
}

/** The search state as the controls show it now. */
function controlsView(): View {
  return { q: input.value.trim(), library: libraryPicker.value, version: versionPicker.value };
}

class Unauthorized extends Error {}

async function api<T>(path: string, params: Record<string, string | readonly string[]>, signal?: AbortSignal) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const v of typeof value === 'string' ? [value] : value) query.append(key, v);
  }
  const token = sessionStorage.getItem(TOKEN_KEY);
  const response = await fetch(`/api/${path}?${query}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    ...(signal ? { signal } : {}),
  });
  if (response.status === 401) throw new Unauthorized();
  const body = (await response.json()) as T | ApiError;
  return { ok: response.ok, body } as { ok: true; body: T } | { ok: false; body: ApiError };
}

function showStatus(text: string, isError = false): void {
  status.textContent = text;
  status.classList.toggle('error', isError);
}

function askForToken(): void {
  $('token').hidden = false;
  showStatus('');
  $<HTMLInputElement>('token-input').focus();
}

async function loadLibraries(): Promise<void> {
  const answer = await api<{ libraries: Library[] }>('libraries', {});
  if (!answer.ok) throw new Error(answer.body.error.message);
  libraries = answer.body.libraries;
  const names = [...new Set(libraries.map((l) => l.name))];
  libraryPicker.replaceChildren(
    h('option', { value: '' }, 'All libraries'),
    ...names.map((n) => h('option', { value: n }, n)),
  );
  libraryOverview
    .querySelector('ul')
    ?.replaceChildren(
      ...libraries.map((l) =>
        h(
          'li',
          {},
          h('a', { href: viewUrl({ q: '', library: l.name, version: l.version }), 'data-library': l.name }, l.library),
          ` ${l.sections.toLocaleString()} sections`,
          l.description ? h('span', { class: 'description' }, ` · ${l.description}`) : '',
        ),
      ),
    );
}

/** Fills the version picker for the chosen library (highest first, as the API lists them). */
function syncPickers(view: View): void {
  libraryPicker.value = libraries.some((l) => l.name === view.library) ? view.library : '';
  const versions = libraries.filter((l) => l.name === libraryPicker.value).map((l) => l.version);
  versionPicker.replaceChildren(
    h('option', { value: '' }, 'latest'),
    ...versions.map((v) => h('option', { value: v }, v)),
  );
  versionPicker.disabled = versions.length === 0;
  versionPicker.value = versions.includes(view.version) ? view.version : '';
}

function libraryParam(view: View): string[] {
  if (!view.library) return [];
  return [view.version ? `${view.library}@${view.version}` : view.library];
}

/** Shows whatever the URL says: a page, results, the installed libraries, or how to add some. */
async function render(): Promise<void> {
  const view = readView();
  if (document.activeElement !== input || input.value.trim() !== view.q) input.value = view.q;
  syncPickers(view);
  emptyState.hidden = libraries.length > 0;
  if (libraries.length === 0) {
    resultList.replaceChildren();
    pageView.hidden = true;
    libraryOverview.hidden = true;
    showStatus('');
    return;
  }
  if (view.read) return showPage(view, view.read);
  pageView.hidden = true;
  resultList.hidden = false;
  if (!view.q) {
    results = [];
    resultList.replaceChildren();
    libraryOverview.hidden = false;
    showStatus(`${libraries.length} ${libraries.length === 1 ? 'library' : 'libraries'} installed. Type to search.`);
    return;
  }
  libraryOverview.hidden = true;
  await search(view);
}

async function search(view: View): Promise<void> {
  inFlight?.abort();
  const controller = new AbortController();
  inFlight = controller;
  showStatus('Searching…');
  const answer = await api<SearchAnswer>(
    'search',
    { q: view.q, library: libraryParam(view), limit: String(PAGE_SIZE), tokens: String(PAGE_TOKENS) },
    controller.signal,
  );
  if (controller.signal.aborted) return;
  if (!answer.ok) {
    results = [];
    resultList.replaceChildren();
    return showStatus(answer.body.error.message, true);
  }
  results = answer.body.results;
  shownQuery = view.q;
  selected = -1;
  resultList.replaceChildren(...results.map((r, i) => resultItem(r, i, view)));
  // Which query the list answers: the URL changes before the answer arrives, and scripts (the tests) wait on this.
  resultList.dataset.query = view.q;
  showStatus(answer.body.message);
  if (answer.body.nextOffset !== undefined) resultList.append(moreResults(view, answer.body.nextOffset));
}

/** A button that appends the next page of results. */
function moreResults(view: View, offset: number): HTMLLIElement {
  const button = h('button', { type: 'button', class: 'more' }, 'More results');
  const item = h('li', { class: 'more-results' }, button);
  button.addEventListener('click', () =>
    guarded(
      (async () => {
        const answer = await api<SearchAnswer>('search', {
          q: view.q,
          library: libraryParam(view),
          limit: String(PAGE_SIZE),
          tokens: String(PAGE_TOKENS),
          offset: String(offset),
        });
        if (!answer.ok) return showStatus(answer.body.error.message, true);
        const start = results.length;
        results = [...results, ...answer.body.results];
        item.replaceWith(
          ...answer.body.results.map((r, i) => resultItem(r, start + i, view)),
          ...(answer.body.nextOffset === undefined ? [] : [moreResults(view, answer.body.nextOffset)]),
        );
      })(),
    ),
  );
  return item;
}

function pageContext(library: string, path: string, view: View): PageContext {
  return {
    library,
    path,
    pageHref: (target, anchor) => viewUrl({ ...view, read: { library, path: target, ...(anchor ? { anchor } : {}) } }),
  };
}

/**
 * A result: titled by its section's heading (the headings above it small, over it), then the page and the library,
 * then the section's text; the query's words are marked in the title and the text. It links to the section.
 */
function resultItem(result: DocResult, index: number, view: View): HTMLLIElement {
  const anchor = sectionAnchor(result);
  const href = viewUrl({
    ...view,
    read: { library: result.library, path: result.path, ...(anchor ? { anchor } : {}) },
  });
  const terms = queryTerms(view.q);
  const content = h('div', { class: 'markdown' });
  showMarkdown(content, result.content ?? '', pageContext(result.library, result.path, view));
  markTerms(content, terms);
  const heading = result.breadcrumb.at(-1) ?? result.heading ?? result.title;
  const trail = result.breadcrumb.slice(0, -1).join(' › ');
  const title = h('span', { class: 'heading' }, heading || result.title);
  markTerms(title, terms);
  return h(
    'li',
    { class: 'result', id: `result-${index}`, 'data-index': String(index) },
    trail ? h('div', { class: 'trail' }, trail) : '',
    h('a', { class: 'open', href, 'data-open': String(index) }, title),
    h(
      'div',
      { class: 'meta' },
      h('span', { class: 'page-title' }, result.title),
      h('span', { class: 'path' }, result.path),
      h('span', { class: 'label' }, result.library),
      h('span', { class: 'score', title: 'score' }, result.score.toFixed(2)),
    ),
    content,
    result.truncated ? h('a', { class: 'more', href }, 'Read the whole section →') : '',
  );
}

async function showPage(view: View, read: NonNullable<View['read']>): Promise<void> {
  inFlight?.abort();
  resultList.hidden = true;
  libraryOverview.hidden = true;
  pageView.hidden = false;
  showStatus('Loading…');
  const back = viewUrl({ q: view.q, library: view.library, version: view.version });
  const header = h(
    'nav',
    { class: 'crumbs' },
    h('a', { href: back, id: 'back' }, view.q ? `← results for “${view.q}”` : '← search'),
    h('span', { class: 'label' }, read.library),
    h('span', { class: 'path' }, read.path),
  );
  const answer = await api<PageAnswer>('read', { library: read.library, path: read.path, tokens: '20000' });
  if (!answer.ok) {
    const suggestions = answer.body.error.suggestions ?? [];
    pageView.replaceChildren(
      header,
      h('p', { class: 'error' }, answer.body.error.message),
      h(
        'ul',
        {},
        ...suggestions.map((p) =>
          h('li', {}, h('a', { href: viewUrl({ ...view, read: { library: read.library, path: p } }) }, p)),
        ),
      ),
    );
    return showStatus('');
  }
  let markdown = answer.body.content;
  const body = h('div', { class: 'markdown' });
  const context = pageContext(answer.body.library, answer.body.path, view);
  const more = h('button', { type: 'button', class: 'more' }, 'Show the rest of the page');
  let next = answer.body.nextOffset;
  const draw = () => {
    showMarkdown(body, markdown, context);
    more.hidden = next === undefined;
  };
  /** Appends the next part of a long page; false when there is none or it failed. */
  const loadMore = async (): Promise<boolean> => {
    if (next === undefined) return false;
    const part = await api<PageAnswer>('read', {
      library: read.library,
      path: read.path,
      tokens: '20000',
      offset: String(next),
    });
    if (!part.ok) {
      showStatus(part.body.error.message, true);
      return false;
    }
    markdown += part.body.content;
    next = part.body.nextOffset;
    return true;
  };
  more.addEventListener('click', () =>
    guarded(
      (async () => {
        if (await loadMore()) draw();
      })(),
    ),
  );
  // The section asked for may lie in a later part of a long page: read on until it is there.
  for (let parts = 0; read.anchor && parts < 50 && !hasHeading(markdown, read.anchor) && (await loadMore()); parts++);
  if (readView().read?.path !== read.path) return;
  draw();
  const { webUrl } = answer.body;
  if (webUrl?.startsWith('https://')) {
    // GitHub and GitLab make a heading's anchor as headingId does, without the page's prefix.
    const fragment = read.anchor ? `#${encodeURIComponent(headingId(read.anchor).slice('h-'.length))}` : '';
    header.append(
      h(
        'a',
        { class: 'web', href: `${webUrl}${fragment}`, target: '_blank', rel: 'noopener noreferrer nofollow' },
        'Open on the web ↗',
      ),
    );
  }
  pageView.replaceChildren(header, body, more);
  document.title = `${answer.body.title} · ${answer.body.library} · docs`;
  showStatus('');
  if (!read.anchor || !goToSection(read.anchor)) window.scrollTo(0, 0);
}

/** Whether the markdown has a heading whose slug is the anchor's (cheaply: a line starting with #, then its slug). */
function hasHeading(markdown: string, anchor: string): boolean {
  const id = headingId(anchor);
  for (const match of markdown.matchAll(/^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    if (headingId((match[1] ?? '').replace(/[`*_[\]]|\]\([^)]*\)/g, '')) === id) return true;
  }
  return false;
}

/** The heading of the page being read that the anchor names: by its id, else by its text's slug. */
function findSection(anchor: string): HTMLElement | undefined {
  const id = headingId(anchor);
  const headings = [...pageView.querySelectorAll<HTMLElement>('.markdown :is(h1, h2, h3, h4, h5, h6)')];
  return headings.find((e) => e.id === id) ?? headings.find((e) => headingId(e.textContent ?? '') === id);
}

/** Scrolls the section the anchor names to the top and marks it as the one asked for; false when there is none. */
function goToSection(anchor: string): boolean {
  const target = findSection(anchor);
  for (const marked of pageView.querySelectorAll('.target')) marked.classList.remove('target');
  if (!target) return false;
  target.classList.add('target');
  target.scrollIntoView({ block: 'start' });
  return true;
}

function select(index: number): void {
  const items = resultList.querySelectorAll<HTMLLIElement>('li.result');
  if (items.length === 0) return;
  selected = Math.max(0, Math.min(items.length - 1, index));
  items.forEach((item, i) => {
    item.classList.toggle('selected', i === selected);
    item.setAttribute('aria-selected', String(i === selected));
  });
  items[selected]?.scrollIntoView({ block: 'nearest' });
  input.setAttribute('aria-activedescendant', `result-${selected}`);
}

/** What the page keeps in each history entry: where it was scrolled, and whether it was opened from the results. */
interface HistoryState {
  readonly scrollY?: number;
  readonly fromResults?: boolean;
}

function historyState(): HistoryState {
  return (history.state as HistoryState | null) ?? {};
}

function go(url: string, replace = false): void {
  if (replace) history.replaceState({ ...historyState(), scrollY: 0 }, '', url);
  else {
    // Where this entry was scrolled, for the back button to return to.
    history.replaceState({ ...historyState(), scrollY: window.scrollY }, '');
    const current = readView();
    history.pushState({ fromResults: !current.read && current.q !== '' }, '', url);
  }
  void guarded(render());
}

/** Runs a render, asking for the token when the server wants one and saying what failed otherwise. */
async function guarded(work: Promise<void>): Promise<void> {
  try {
    await work;
  } catch (error) {
    if (error instanceof Unauthorized) return askForToken();
    if (error instanceof DOMException && error.name === 'AbortError') return;
    showStatus(`The server could not be reached: ${error instanceof Error ? error.message : String(error)}`, true);
  }
}

function onType(): void {
  clearTimeout(debounce);
  debounce = window.setTimeout(() => {
    const view = controlsView();
    const current = readView();
    // Typing refines one search: it replaces the history entry instead of adding one per keystroke.
    if (view.q !== current.q || current.read) go(viewUrl(view), !current.read);
  }, DEBOUNCE_MS);
}

input.addEventListener('input', onType);
libraryPicker.addEventListener('change', () => {
  versionPicker.value = '';
  go(viewUrl({ ...controlsView(), version: '' }), true);
});
versionPicker.addEventListener('change', () => go(viewUrl(controlsView()), true));
$('search-form').addEventListener('submit', (event) => {
  event.preventDefault();
  clearTimeout(debounce);
  go(viewUrl(controlsView()), true);
});
tokenForm.addEventListener('submit', (event) => {
  event.preventDefault();
  sessionStorage.setItem(TOKEN_KEY, $<HTMLInputElement>('token-input').value.trim());
  $('token').hidden = true;
  void start();
});

// Links inside the app (results, pages, the library list) change the view without reloading.
document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  const copy = (event.target as Element).closest('button.copy');
  if (copy) return void copyCode(copy);
  const link = (event.target as Element).closest('a');
  if (!link) return;
  if (link.dataset.blocked) return event.preventDefault();
  const href = link.getAttribute('href') ?? '';
  if (link.id === 'back' && historyState().fromResults) {
    // The results this page was opened from are the entry before: go back to it, scrolled where it was.
    event.preventDefault();
    history.back();
    return;
  }
  if (href.startsWith('#')) {
    event.preventDefault();
    const anchor = link.dataset.anchor ?? href.slice(1);
    const read = readView().read;
    if (read && findSection(anchor)) {
      history.pushState({}, '', viewUrl({ ...readView(), read: { ...read, anchor } }));
      goToSection(anchor);
    }
    return;
  }
  if (link.target === '_blank' || !href.startsWith('/')) return;
  event.preventDefault();
  go(href);
});

document.addEventListener('keydown', (event) => {
  const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement;
  if (event.key === '/' && !typing) {
    event.preventDefault();
    input.focus();
    input.select();
    return;
  }
  if (event.key === 'Escape' && readView().read) {
    event.preventDefault();
    $<HTMLAnchorElement>('back')?.click();
    return;
  }
  if (!pageView.hidden || (typing && event.target !== input)) return;
  if (event.key === 'ArrowDown') {
    event.preventDefault();
    select(selected + 1);
  } else if (event.key === 'ArrowUp') {
    event.preventDefault();
    select(selected - 1);
  } else if (event.key === 'Enter' && results.length > 0 && input.value.trim() === shownQuery) {
    event.preventDefault();
    resultList.querySelector<HTMLAnchorElement>(`#result-${Math.max(selected, 0)} a.open`)?.click();
  }
});

/** Copies the code of the block holding the button, and says so on the button. */
function copyCode(button: Element): void {
  const code = button.closest('.code')?.querySelector('pre')?.textContent ?? '';
  navigator.clipboard.writeText(code).then(
    () => {
      button.textContent = 'Copied';
      setTimeout(() => {
        button.textContent = 'Copy';
      }, 1500);
    },
    () => {
      button.textContent = 'Copy failed';
    },
  );
}

// An address that differs only in its section (typed, or a link from elsewhere) moves within the page read.
window.addEventListener('hashchange', () => {
  const anchor = readView().read?.anchor;
  if (pageView.hidden || !anchor || !goToSection(anchor)) void guarded(render());
});

// Scroll positions are the page's to restore: the results come back from the server after the entry changes.
history.scrollRestoration = 'manual';
window.addEventListener('popstate', () =>
  guarded(
    (async () => {
      await render();
      const { scrollY } = historyState();
      if (scrollY !== undefined && scrollY > 0) window.scrollTo(0, scrollY);
    })(),
  ),
);

async function start(): Promise<void> {
  await guarded(
    (async () => {
      await loadLibraries();
      await render();
      if (!readView().read) input.focus();
    })(),
  );
}

void start();
