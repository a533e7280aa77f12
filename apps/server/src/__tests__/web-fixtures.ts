import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
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

/** The packages the browser tests install, by name. */
export const webPackages = {
  linked: { version: '1.0.0', documents: linked, description: 'Pages that link to each other' },
  hostile: { version: '6.6.6', documents: hostile, description: '<img src=x onerror="window.__xss=\'description\'">' },
} as const;

/** Builds a package into a temporary file and installs it into the store at `home`. */
export async function installWebPackage(home: string, name: keyof typeof webPackages): Promise<void> {
  const { version, documents, description } = webPackages[name];
  const work = await mkdtemp(path.join(path.dirname(home), 'build-'));
  const file = path.join(work, `${name}@${version}.db`);
  await writePackage(file, { name, version, description }, documents);
  const store = new PackageStore(home);
  await store.install(file, { move: true });
  await store.close();
}
