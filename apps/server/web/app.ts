import type { DocResult, SearchResponse } from '@docs/search';
import './app.css';
import { headingId, type PageContext, renderMarkdown } from './markdown.js';

// The page: a search box answered as you type, results labelled library@version,
// and whole pages read in place. All state is in the URL (shareable; the back
// button works); everything goes through the JSON API of the same server.

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

// Trusted Types: the CSP lets HTML into the DOM only through this policy, which receives nothing but the markdown
// renderer's output. Browsers without Trusted Types take the same string.
interface TrustedTypesWindow {
  trustedTypes?: {
    createPolicy(name: string, rules: { createHTML(html: string): string }): { createHTML(html: string): unknown };
  };
}
const policy = (window as TrustedTypesWindow).trustedTypes?.createPolicy('docs-markdown', {
  createHTML: (html) => html,
});

function setRenderedHtml(element: Element, html: string): void {
  (element as { innerHTML: unknown }).innerHTML = policy ? policy.createHTML(html) : html;
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

function readView(): View {
  const params = new URLSearchParams(location.search);
  const read = params.get('read');
  const path = params.get('path');
  const anchor = params.get('anchor');
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
    if (view.read.anchor) params.set('anchor', view.read.anchor);
  }
  const query = params.toString();
  return query ? `/?${query}` : '/';
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

function resultItem(result: DocResult, index: number, view: View): HTMLLIElement {
  const href = viewUrl({ ...view, read: { library: result.library, path: result.path } });
  const content = h('div', { class: 'markdown' });
  setRenderedHtml(content, renderMarkdown(result.content ?? '', pageContext(result.library, result.path, view)));
  return h(
    'li',
    { class: 'result', id: `result-${index}`, 'data-index': String(index) },
    h(
      'div',
      { class: 'meta' },
      h('span', { class: 'label' }, result.library),
      h('span', { class: 'crumb' }, result.breadcrumb.join(' › ')),
      h('span', { class: 'score', title: 'score' }, result.score.toFixed(2)),
    ),
    h(
      'a',
      { class: 'open', href, 'data-open': String(index) },
      result.title,
      h('span', { class: 'path' }, result.path),
    ),
    content,
    result.truncated ? h('a', { class: 'more', href }, 'Read the whole page →') : '',
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
    setRenderedHtml(body, renderMarkdown(markdown, context));
    more.hidden = next === undefined;
  };
  more.addEventListener('click', async () => {
    if (next === undefined) return;
    const part = await api<PageAnswer>('read', {
      library: read.library,
      path: read.path,
      tokens: '20000',
      offset: String(next),
    });
    if (!part.ok) return showStatus(part.body.error.message, true);
    markdown += part.body.content;
    next = part.body.nextOffset;
    draw();
  });
  draw();
  pageView.replaceChildren(header, body, more);
  document.title = `${answer.body.title} · ${answer.body.library} · docs`;
  showStatus('');
  const target = read.anchor ? document.getElementById(headingId(read.anchor)) : null;
  if (target) target.scrollIntoView();
  else window.scrollTo(0, 0);
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

function go(url: string, replace = false): void {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
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
  const link = (event.target as Element).closest('a');
  if (!link) return;
  if (link.dataset.blocked) return event.preventDefault();
  const href = link.getAttribute('href') ?? '';
  if (href.startsWith('#')) {
    event.preventDefault();
    document.getElementById(href.slice(1))?.scrollIntoView();
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

window.addEventListener('popstate', () => void guarded(render()));

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
