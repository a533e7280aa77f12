import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siblingSubpaths } from './entry-points.js';
import { packageApi } from './index.js';

// A date library laid out as dayjs is: no exports map, a root declaration file, and plugins in `plugin/`, each a
// module of its own that adds methods to the root's interface by augmentation. Its README imports one plugin.
let dir: string;
let folder: { name: string; dir: string };
const limits = { maxFiles: 1000, maxBytes: 16 * 1024 * 1024 };
const readme =
  "# datey\n\nA plugin extends it:\n\n```js\nimport advanced from 'datey/plugin/advanced'\ndatey.extend(advanced)\n```\n";

async function write(root: string, files: Record<string, string | object>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), typeof content === 'string' ? content : JSON.stringify(content));
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-api-plugins-'));
  folder = { name: 'datey', dir: path.join(dir, 'node_modules', 'datey') };
  await write(folder.dir, {
    'package.json': { name: 'datey', version: '1.11.13', main: 'datey.min.js', types: 'index.d.ts' },
    'README.md': readme,
    'index.d.ts': `export = datey;
/** Makes a date. */
declare function datey(date?: string): datey.Datey;
declare namespace datey {
    /** A date. */
    class Datey {
        /** Adds time to the date. */
        add(value: number, unit: string): Datey;
    }
    /** Installs a plugin. */
    function extend(plugin: unknown): void;
}
`,
    'plugin/advanced.d.ts': `declare const plugin: (options: unknown) => void;
export = plugin;
declare module 'datey' {
    interface Datey {
        /** Formats with the advanced tokens. */
        formatAdvanced(template: string): string;
    }
}
`,
    'plugin/relativeTime.d.ts': `declare const plugin: (options: unknown) => void;
export = plugin;
declare module 'datey' {
    interface Datey {
        /** The time from now, as words: "3 hours ago". */
        fromNow(withoutSuffix?: boolean): string;
        /** Adds an object of units. */
        add(value: { days?: number }): Datey;
    }
}
`,
    'locale/es.js': 'module.exports = {}',
  });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('siblingSubpaths', () => {
  it('lists the declaration files beside a module the docs import, when there is no exports map', () => {
    expect(siblingSubpaths(folder, { name: 'datey' }, readme)).toEqual(['./plugin/advanced', './plugin/relativeTime']);
  });

  it('lists none with an exports map, whose subpaths are the only importable ones', () => {
    expect(siblingSubpaths(folder, { name: 'datey', exports: { '.': './index.js' } }, readme)).toEqual([]);
  });

  it('lists none for a folder without declarations, or outside the package', () => {
    expect(siblingSubpaths(folder, {}, "import 'datey/locale/es'")).toEqual([]);
    expect(siblingSubpaths(folder, {}, "import 'datey/../other/x'")).toEqual([]);
  });
});

describe("a plugin's augmentation", () => {
  it("documents the methods a plugin adds on the plugin's page, not among the root's", async () => {
    const api = await packageApi(folder, undefined, limits, [readme]);
    const page = (importPath: string) =>
      api.pages
        .filter((p) => p.importPath === importPath)
        .map((p) => p.markdown)
        .join('\n');
    expect(page('datey/plugin/relativeTime')).toContain('### Datey.fromNow');
    expect(page('datey/plugin/relativeTime')).toContain('The time from now, as words');
    expect(page('datey/plugin/advanced')).toContain('Formats with the advanced tokens.');
    const root = page('datey');
    expect(root).not.toContain('fromNow');
    expect(root).not.toContain('formatAdvanced');
    // The root's own `add` stays on its page, with the overload the plugin adds; the plugin's page does not repeat it.
    expect(root).toContain('Adds time to the date.');
    expect(page('datey/plugin/relativeTime')).not.toContain('Datey.add');
  });

  it('puts a plugin the docs never import under the other entry points', async () => {
    const api = await packageApi(folder, undefined, limits, [readme]);
    const files = api.pages.map((p) => p.file);
    expect(files.some((f) => f.startsWith('api/plugin/advanced'))).toBe(true);
    expect(files.some((f) => f.startsWith('api/other-entry-points/plugin/relativeTime'))).toBe(true);
  });
});
