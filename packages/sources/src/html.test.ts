import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './html.js';

const prose = (topic: string) =>
  `${topic} is configured in one place and applies to every request the client makes, so set it once at start-up. `.repeat(
    6,
  );

const page = `<!doctype html>
<html><head><title>Caching | Widget Docs</title><meta name="description" content="How Widget caches responses."></head>
<body>
  <header><a href="/">Widget</a> <input placeholder="Search"></header>
  <nav class="sidebar"><ul><li><a href="/guide/intro">Introduction</a></li><li><a href="/guide/caching">Caching</a></li></ul></nav>
  <main><article>
    <h1>Caching</h1>
    <p>${prose('Caching')} See <a href="../api/cache">the cache API</a>.</p>
    <h2>Options</h2>
    <p>${prose('The cache size')}</p>
    <table><thead><tr><th>Option</th><th>Default</th></tr></thead>
      <tbody><tr><td><code>maxAge</code></td><td>60</td></tr><tr><td>a|b</td><td>none</td></tr></tbody></table>
    <div class="highlight"><pre class="language-ts"><code>const widget = createWidget({ cache: { maxAge: 60 } });</code></pre></div>
    <img src="data:image/png;base64,AAAA" alt="diagram">
  </article></main>
  <footer>© Widget Inc. All rights reserved. Privacy policy.</footer>
  <script>console.log('tracking')</script>
</body></html>`;

describe('htmlToMarkdown', () => {
  it('keeps the article and leaves navigation, header, footer and scripts out', () => {
    const result = htmlToMarkdown(page, { url: 'https://widget.dev/guide/caching' });
    expect(result.title).toBe('Caching');
    expect(result.description).toBe('How Widget caches responses.');
    expect(result.markdown).toMatch(/^# Caching\n/);
    expect(result.markdown).toContain('## Options');
    expect(result.markdown).toContain('[the cache API](https://widget.dev/api/cache)');
    expect(result.markdown).not.toMatch(/Introduction|rights reserved|tracking|Search|base64/);
  });

  it('writes fenced code with its language and GFM tables', () => {
    const { markdown } = htmlToMarkdown(page);
    expect(markdown).toContain('```ts\nconst widget = createWidget({ cache: { maxAge: 60 } });\n```');
    expect(markdown).toContain('| Option | Default |\n| --- | --- |\n| `maxAge` | 60 |\n| a\\|b | none |');
  });

  it('falls back to the body for a page Readability finds no article in', () => {
    const result = htmlToMarkdown('<html><body><nav>Menu</nav><p>Short note.</p></body></html>');
    expect(result.markdown).toContain('Short note.');
    expect(result.markdown).not.toContain('Menu');
  });

  it('gives an empty document for a page with no text', () => {
    expect(htmlToMarkdown('<html><head><script>x()</script></head><body></body></html>').markdown).toBe('');
  });
});
