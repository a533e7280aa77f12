import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docExamples } from '../api/doc-examples.js';
import { isGoFence } from './example-mentions.js';
import { goOnPath } from './go-command.js';
import { stageGo } from './stage-go.js';

const hasGo = await goOnPath();
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-go-mentions-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), content);
  }
}

describe('docExamples', () => {
  const limits = { maxExamples: 10, maxCodeChars: 10_000 };

  it('gives each accepted block its heading, its section lead and the paragraph right before it', () => {
    const doc = [
      '# Web',
      '## Binding',
      'To bind a request body into a type, use binding.',
      '- a list item is not a lead',
      'Read it into a struct:',
      '```go\nc.BindJSON(&v)\n```',
      '```sh\n$ go get web\n```',
      '### Path parameters',
      '```\nc.Param("id")\n```',
    ].join('\n\n');
    expect(docExamples([doc], isGoFence, limits)).toEqual([
      {
        code: 'c.BindJSON(&v)\n',
        language: 'go',
        heading: 'Binding',
        prose: ['To bind a request body into a type, use binding.', 'Read it into a struct:'],
      },
      { code: 'c.Param("id")\n', language: '', heading: 'Path parameters', prose: [] },
    ]);
  });

  it('stops at its bounds', () => {
    const doc = ['```go\na()\n```', '```go\nb()\n```', '```go\nc()\n```'].join('\n\n');
    expect(docExamples([doc], isGoFence, { maxExamples: 2, maxCodeChars: 100 })).toHaveLength(2);
    expect(docExamples([doc], isGoFence, { maxExamples: 10, maxCodeChars: 8 })).toHaveLength(2);
  });
});

// A small web module shaped as gin is: a Context whose binding methods are terse shortcuts, a constructor whose
// result the examples call, and docs whose examples call several methods each.
const WEB_GO = `// Package web serves HTTP.
package web

// H is a map for JSON bodies.
type H map[string]any

// Engine routes requests.
type Engine struct{}

// Default returns an Engine with logging.
func Default() *Engine { return &Engine{} }

// POST routes a POST request.
func (e *Engine) POST(path string, h func(*Context)) {}

// Run starts serving.
func (e *Engine) Run(addr string) error { return nil }

// Context carries a request.
type Context struct{}

// ShouldBindWith binds the passed struct pointer using the specified binding engine.
func (c *Context) ShouldBindWith(obj any, b string) error { return nil }

// ShouldBindJSON is a shortcut for c.ShouldBindWith(obj, "json").
func (c *Context) ShouldBindJSON(obj any) error { return nil }

// ShouldBindXML is a shortcut for c.ShouldBindWith(obj, "xml").
func (c *Context) ShouldBindXML(obj any) error { return nil }

// JSON writes v as the response.
func (c *Context) JSON(code int, v any) {}

// Param is a path parameter.
func (c *Context) Param(key string) string { return "" }

// Query is a query parameter.
func (c *Context) Query(key string) string { return "" }

// Header is a request header.
func (c *Context) Header(key string) string { return "" }

// Cookie is a request cookie.
func (c *Context) Cookie(key string) string { return "" }

// SetCookie sets a response cookie.
func (c *Context) SetCookie(name, value string) {}
`;

const example = (body: string) => `\`\`\`go
func main() {
  r := web.Default()
  r.POST("/x", func(c *web.Context) {
${body}
    c.JSON(200, web.H{})
  })
  r.Run(":8080")
}
\`\`\``;

const DOC_MD = [
  '# Web Quick Start',
  '## Model binding',
  'To bind a request body into a type, use model binding.',
  `${example(`    // Example for binding JSON
    if err := c.ShouldBindJSON(&v); err != nil {
      return
    }
    // Example for binding XML
    c.ShouldBindXML(&w)`)}`,
  '## Parameters in path',
  example('    name := c.Param("name")'),
  '## Query strings',
  example('    name := c.Query("name")'),
  '## Cookies',
  // A fragment with an elision: go/parser keeps the part before it, as the block says it is Go.
  '```go\nc.SetCookie("session", token)\n...\n```',
  '## Not Go at all',
  // Unlabelled and not Go: nothing of it is read.
  '```\nc.Header("x") then some words\n```',
  '## Everything at once',
  'Read all of a request.',
  example('    c.Param("a")\n    c.Query("b")\n    c.Header("c")\n    c.Cookie("d")'),
].join('\n\n');

describe.runIf(hasGo)("a Go module's examples lend their words", () => {
  let context: string;
  let engine: string;

  beforeAll(async () => {
    const moduleDir = path.join(dir, 'web');
    await write(moduleDir, {
      'go.mod': 'module example.com/web\n\ngo 1.21\n',
      'web.go': WEB_GO,
      'README.md': '# web\n\nA web framework. See docs/doc.md.\n',
      'docs/doc.md': DOC_MD,
    });
    const out = path.join(dir, 'staged');
    await mkdir(out, { recursive: true });
    const staged = await stageGo(
      { name: 'web', dir: moduleDir, goModule: 'example.com/web', ecosystem: 'go' } as never,
      out,
      {
        api: true,
        maxFiles: 100,
        maxBytes: 1 << 20,
        timeoutMs: 300_000,
      },
    );
    expect(staged.warnings).toEqual([]);
    context = await readFile(path.join(out, 'api/Context.md'), 'utf8');
    engine = await readFile(path.join(out, 'api/Engine.md'), 'utf8');
  }, 300_000);

  const section = (page: string, name: string) => {
    const start = page.indexOf(`### ${name}\n`);
    const end = page.indexOf('\n### ', start + 1);
    return page.slice(start, end === -1 ? undefined : end);
  };

  it('lends a call the comment on its statement, and the heading and prose of its example', () => {
    expect(section(context, 'Context.ShouldBindJSON')).toContain('In the docs: Example for binding JSON');
    expect(section(context, 'Context.ShouldBindJSON')).toContain(
      'In the docs: Model binding — To bind a request body into a type, use model binding.',
    );
    expect(section(context, 'Context.ShouldBindXML')).toContain('In the docs: Example for binding XML');
    expect(section(context, 'Context.ShouldBindXML')).not.toContain('binding JSON');
    expect(section(context, 'Context.Param')).toContain('In the docs: Parameters in path');
  });

  it('lends nothing to what most examples call: the setting, not the subject', () => {
    // Default, POST, Run and JSON are called by every example.
    expect(section(context, 'Context.JSON')).not.toContain('In the docs');
    expect(engine).not.toContain('In the docs');
  });

  it('lends an example calling more than three APIs nothing of its heading', () => {
    expect(context).not.toContain('Everything at once');
  });

  it('reads what a labelled fragment holds before an elision, and nothing of an unlabelled block that is not Go', () => {
    expect(section(context, 'Context.SetCookie')).toContain('In the docs: Cookies');
    expect(context).not.toContain('Not Go at all');
  });

  it('gives a terse shortcut the first sentence of the method it names', () => {
    expect(section(context, 'Context.ShouldBindJSON')).toContain(
      'Like `ShouldBindWith`: ShouldBindWith binds the passed struct pointer using the specified binding engine.',
    );
    expect(section(context, 'Context.Param')).not.toContain('Like `');
  });
});
