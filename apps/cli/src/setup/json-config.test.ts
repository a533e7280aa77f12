import { describe, expect, it } from 'vitest';
import { withoutServer, withServer } from './json-config.js';
import type { ServerEntry } from './server-entry.js';

const entry: ServerEntry = { command: '/usr/bin/node', args: ['/opt/docs/dist/bin.cjs', 'serve'] };
const other = { command: 'npx', args: ['-y', '@acme/mcp'], env: { TOKEN: 'x' } };

function added(text: string | undefined, key = 'mcpServers') {
  const edit = withServer(text, key, 'docs', entry);
  if (!edit.ok) throw new Error(edit.error);
  return edit;
}

describe('withServer', () => {
  it('makes a new file holding the server alone', () => {
    const edit = added(undefined);
    expect(edit.change).toBe('create');
    expect(edit.text).toBe(`${JSON.stringify({ mcpServers: { docs: entry } }, null, 2)}\n`);
  });

  it("keeps the user's other servers and the keys it does not know, in their order", () => {
    const text = `${JSON.stringify({ inputs: [], servers: { acme: other }, theme: { x: 1 } }, null, 2)}\n`;
    const edit = added(text, 'servers');
    expect(edit.change).toBe('update');
    const written = JSON.parse(edit.text ?? '');
    expect(Object.keys(written)).toEqual(['inputs', 'servers', 'theme']);
    expect(written.servers).toEqual({ acme: other, docs: entry });
    expect(written.theme).toEqual({ x: 1 });
  });

  it('leaves a file that already holds the same server as it is, byte for byte', () => {
    const text = `{\n    "mcpServers": {\n        "docs": {"args": ["/opt/docs/dist/bin.cjs", "serve"], "command": "/usr/bin/node"}\n    }\n}`;
    expect(added(text)).toEqual({ ok: true, change: 'unchanged', text });
    const once = added(undefined).text;
    expect(added(once)).toEqual({ ok: true, change: 'unchanged', text: once });
  });

  it("writes the file's own indentation, line ends and final newline", () => {
    const tabs = '{\n\t"mcpServers": {}\n}';
    expect(added(tabs).text).toBe(
      '{\n\t"mcpServers": {\n\t\t"docs": {\n\t\t\t"command": "/usr/bin/node",\n\t\t\t"args": [\n\t\t\t\t"/opt/docs/dist/bin.cjs",\n\t\t\t\t"serve"\n\t\t\t]\n\t\t}\n\t}\n}',
    );
    const crlf = added('{\r\n    "other": 1\r\n}\r\n').text ?? '';
    expect(crlf).toMatch(/^\{\r\n {4}"other": 1,\r\n {4}"mcpServers"/);
    expect(crlf.replace(/\r\n/g, '')).not.toContain('\n');
    expect(crlf.endsWith('}\r\n')).toBe(true);
  });

  it('replaces a docs server written earlier (another install of docs), and an empty file counts as {}', () => {
    const old = { mcpServers: { docs: { command: 'docs', args: ['serve', '--libs', 'vitest'] } } };
    const edit = added(JSON.stringify(old));
    expect(edit.change).toBe('update');
    expect(JSON.parse(edit.text ?? '').mcpServers.docs).toEqual(entry);
    expect(JSON.parse(added('  \n').text ?? '')).toEqual({ mcpServers: { docs: entry } });
  });

  it.each([
    ['not JSON', '{"mcpServers": {', 'invalid-config', /not valid JSON/],
    ['JSONC', '{\n  // my servers\n  "servers": {}\n}', 'invalid-config', /comments \(JSONC\)/],
    ['JSONC, a block comment', '{ /* x */ "servers": {} }', 'invalid-config', /comments/],
    ['an array', '[]', 'invalid-config', /not a JSON object/],
    ['servers that are not an object', '{"mcpServers": []}', 'invalid-config', /"mcpServers" is not an object/],
    [
      'another server named docs',
      '{"mcpServers": {"docs": {"command": "python", "args": ["-m", "docs_server"]}}}',
      'foreign-server',
      /another server named "docs" \(python -m docs_server\)/,
    ],
  ])('refuses %s', (_name, text, code, message) => {
    const edit = withServer(text, 'mcpServers', 'docs', entry);
    expect(edit.ok).toBe(false);
    if (!edit.ok) {
      expect(edit.code).toBe(code);
      expect(edit.error).toMatch(message);
    }
  });

  it('reads a URL with "//" in a string as JSON, not as a comment', () => {
    const text = '{"mcpServers": {"web": {"url": "https://example.com/mcp"}}}';
    expect(JSON.parse(added(text).text ?? '').mcpServers.web.url).toBe('https://example.com/mcp');
  });
});

describe('withoutServer', () => {
  it('gives back the file as it was before setup', () => {
    const before = `${JSON.stringify({ mcpServers: { acme: other }, extra: true }, null, 2)}\n`;
    const after = added(before).text;
    expect(withoutServer(after, 'mcpServers', 'docs')).toEqual({ ok: true, change: 'update', text: before });
  });

  it('deletes a file left with no server at all, and keeps an empty servers key beside other keys', () => {
    expect(withoutServer(added(undefined).text, 'mcpServers', 'docs')).toEqual({
      ok: true,
      change: 'delete',
      text: undefined,
    });
    const template = `${JSON.stringify({ servers: {}, inputs: [] }, null, 2)}\n`;
    const back = withoutServer(added(template, 'servers').text, 'servers', 'docs');
    expect(back).toEqual({ ok: true, change: 'update', text: template });
  });

  it('leaves a file without the server as it is, and refuses to take out a server that is not docs', () => {
    const text = JSON.stringify({ mcpServers: { acme: other } });
    expect(withoutServer(text, 'mcpServers', 'docs')).toEqual({ ok: true, change: 'absent', text });
    expect(withoutServer(undefined, 'mcpServers', 'docs')).toEqual({ ok: true, change: 'absent', text: undefined });
    const foreign = withoutServer('{"mcpServers": {"docs": {"command": "python"}}}', 'mcpServers', 'docs');
    expect(foreign).toMatchObject({ ok: false, code: 'foreign-server' });
  });
});
