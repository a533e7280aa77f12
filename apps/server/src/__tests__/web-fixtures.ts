import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DocumentInput, PackageStore, writePackage } from '@docs/store';

// Packages for the browser tests: pages that link to each other, and pages whose
// markdown, titles and headings try every way documentation could run a script.

function page(docPath: string, title: string, content: string, heading = title): DocumentInput {
  return {
    path: docPath,
    title,
    content,
    chunks: [{ breadcrumb: [heading], level: 1, content, tokens: Math.ceil(content.length / 4) }],
  };
}

const linked: readonly DocumentInput[] = [
  page(
    'guide/intro.md',
    'Introduction',
    '# Introduction\n\nThe linker connects widgets. Read [the setup page](./setup.md#install-the-linker) next, or [the client API](../api/client.md), or [the linker site](https://linker.example/).\n',
  ),
  page(
    'guide/setup.md',
    'Setup',
    `# Setup\n\n${'Prepare the workspace before the linker runs.\n\n'.repeat(40)}## Install the linker\n\nRun the linker installer with \`linker install\`.\n\n\`\`\`ts\nimport { link } from 'linker';\nconst widget = link({ retries: 3 });\n\`\`\`\n`,
  ),
  page(
    'api/client.md',
    'Client API',
    '# Client API\n\nThe linker client sends widgets. Back to [the introduction](/guide/intro.md).\n',
  ),
];

/** Every payload sets window.__xss (or opens a dialog) if it ever runs. */
const payloads = [
  '# Hostile page',
  '',
  'The hostile payload page.',
  '',
  '<script>window.__xss = "script tag"</script>',
  '',
  '<img src="x" onerror="window.__xss = \'onerror\'">',
  '',
  '<svg onload="window.__xss = \'svg onload\'"></svg>',
  '',
  '<iframe srcdoc="<script>parent.__xss = \'iframe\'</script>"></iframe>',
  '',
  '<a href="javascript:window.__xss = \'raw html link\'">raw html link</a>',
  '',
  "[markdown javascript link](javascript:window.__xss='markdown%20link')",
  '',
  "[mixed case link](JaVaScRiPt:window.__xss='mixed')",
  '',
  "[entity link](jav&#x61;script:window.__xss='entity')",
  '',
  "[tab link](java&#9;script:window.__xss='tab')",
  '',
  '[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '',
  "![image payload](javascript:window.__xss='image')",
  '',
  "<javascript:window.__xss='autolink'>",
  '',
  '```html',
  '</code></pre><script>window.__xss = "code fence"</script>',
  '```',
  '',
  '[payload anchor](#"><img src=x onerror="window.__xss=\'anchor\'">)',
].join('\n');

const hostile: readonly DocumentInput[] = [
  {
    ...page(
      'hostile.md',
      '<img src=x onerror="window.__xss=\'title\'">',
      payloads,
      '<script>window.__xss="heading"</script>',
    ),
  },
];

/**
 * A long API page, like hono's api.md (tens of thousands of pixels, read in several parts): many sections, the
 * `logger` one far down, with a code block. Each section is a chunk, so a search lands on its own section.
 */
function longApiPage(): DocumentInput {
  // Every other section says something else: sections next to each other that both match are joined in one result.
  const filler = (name: string) =>
    (Number(name.slice('method'.length)) % 2
      ? `The request handler ${name} composes widgets from the context and returns them to the caller. `
      : `The response builder ${name} formats records for the client and sends them on. `
    ).repeat(14);
  const names = Array.from({ length: 150 }, (_, i) => `method${i + 1}`);
  names.splice(120, 0, 'logger');
  const section = (name: string) =>
    name === 'logger'
      ? '## logger\n\nThe logger middleware prints each request and its response time.\n\n```ts\napp.use(logger())\n```\n'
      : `## ${name}\n\n${filler(name)}\n`;
  const chunk = (name: string) => {
    const content = section(name).replace(/^## .*\n\n/, '');
    return { breadcrumb: ['Longapi API', name], level: 2, content, tokens: Math.ceil(content.length / 4) };
  };
  return {
    path: 'api.md',
    title: 'Longapi API',
    content: `# Longapi API\n\n${names.map(section).join('\n')}`,
    chunks: names.map(chunk),
  };
}

/** The READMEs the README pipeline's tests read (repository front pages: HTML blocks, badges, entities). */
async function readmeFixtures(): Promise<DocumentInput[]> {
  const dir = fileURLToPath(new URL('../../../../packages/sources/src/__fixtures__/readme/', import.meta.url));
  const files = (await readdir(dir)).filter((f) => f.endsWith('.md')).sort();
  return Promise.all(
    files.map(async (file) => page(file, file, await readFile(path.join(dir, file), 'utf8'), 'Readme')),
  );
}

/** A README with aligned tables, the way commander's has them. */
const tablesReadme = page(
  'tables.md',
  'Tables',
  [
    '# Tables',
    '',
    '| Option | Short | Default |',
    '|:-------|:-----:|--------:|',
    '| --port | -p | 7800 |',
    '| --host | -H | 127.0.0.1 |',
    '',
    'Padding&nbsp;&nbsp;•&nbsp;&nbsp;between entries &amp; more.',
  ].join('\n'),
);

/** The packages the browser tests install, by name. */
export const webPackages = {
  linked: {
    version: '1.0.0',
    documents: () => linked,
    description: 'Pages that link to each other',
    // Built from a repository on GitHub: its pages have an address on the web.
    source: 'https://github.com/example/linker#0a1b2c3d path docs',
  },
  hostile: {
    version: '6.6.6',
    documents: () => hostile,
    description: '<img src=x onerror="window.__xss=\'description\'">',
  },
  longapi: { version: '2.0.0', documents: () => [longApiPage()], description: 'One very long API page' },
  'longapi@1.0.0': { version: '1.0.0', documents: () => [longApiPage()], description: 'An older version' },
  readmes: {
    version: '1.0.0',
    documents: async () => [...(await readmeFixtures()), tablesReadme],
    description: 'READMEs',
  },
} as const;

/** Builds a package into a temporary file and installs it into the store at `home`. */
export async function installWebPackage(home: string, key: keyof typeof webPackages): Promise<void> {
  const fixture: { version: string; description: string; source?: string } = webPackages[key];
  const { version, description, source } = fixture;
  const { documents } = webPackages[key];
  const name = key.split('@')[0] as string;
  const work = await mkdtemp(path.join(path.dirname(home), 'build-'));
  const file = path.join(work, `${name}@${version}.db`);
  await writePackage(file, { name, version, description, ...(source ? { source } : {}) }, await documents());
  const store = new PackageStore(home);
  await store.install(file, { move: true });
  await store.close();
}
