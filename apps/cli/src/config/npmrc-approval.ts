import { readFileSync } from 'node:fs';
import type { ProjectNpmrc } from '@docs/sources';
import { terminalQuestion } from './apply.js';
import { readApprovals } from './approvals.js';
import { userConfigDir } from './load.js';

/** sha256 of a file's bytes, what an approval is given to; undefined when it cannot be read. */
function hashOf(file: string): string | undefined {
  try {
    const { createHash } = process.getBuiltinModule('node:crypto');
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return undefined;
  }
}

/**
 * Decides whether to follow a project `.npmrc`'s settings that reach outside the project (a registry, a proxy,
 * what TLS trusts): as a project config's, once per content. An approval is kept in `approvals.json` with the
 * project configs', by the file's path and a hash of its content; on a terminal docs asks, and remembers a yes;
 * with none (an MCP host, CI) the settings are left out and a line on stderr says so.
 */
export function projectNpmrcApproval(
  options: {
    readonly userDir?: string;
    readonly ask?: (question: string) => Promise<boolean>;
    readonly warn?: (line: string) => void;
  } = { ...terminalQuestion(), warn: (line) => process.stderr.write(`docs: ${line}\n`) },
): (npmrc: ProjectNpmrc) => Promise<boolean> {
  const userDir = options.userDir ?? userConfigDir();
  // One answer per file and content for the whole run: `docs install a b c` asks once, not three times.
  const decided = new Map<string, Promise<boolean>>();
  return async (npmrc) => {
    const hash = hashOf(npmrc.file);
    if (hash === undefined) return false;
    const key = `${npmrc.file}\0${hash}`;
    const known = decided.get(key);
    if (known) return known;
    const decision = decide(npmrc, hash);
    decided.set(key, decision);
    return decision;
  };

  async function decide(npmrc: ProjectNpmrc, hash: string): Promise<boolean> {
    const approvals = readApprovals(userDir);
    if (approvals.get(npmrc.file) === hash) return true;
    const listing = npmrc.settings.join(', ');
    if (!options.ask) {
      options.warn?.(
        `not using ${listing} from ${npmrc.file}: a project .npmrc's registry settings need your approval once, and there is no terminal to ask (approve with "docs config --approve" in that folder)`,
      );
      return false;
    }
    const yes = await options.ask(
      `${npmrc.file} sets ${listing}: settings that send requests outside this project. Use them (remembered until the file changes)? [y/N] `,
    );
    if (yes) await approvals.approve(npmrc.file, hash);
    else options.warn?.(`not using ${listing} from ${npmrc.file}`);
    return yes;
  }
}

/** Approves the project `.npmrc` npm reads in `cwd`, as it is now; its path, or undefined when it has nothing to approve. */
export async function approveProjectNpmrc(cwd: string, userDir = userConfigDir()): Promise<ProjectNpmrc | undefined> {
  const { loadNpmOptions } = await import('@docs/sources');
  let found: ProjectNpmrc | undefined;
  await loadNpmOptions({
    scope: '@docs',
    cwd,
    approveProjectNpmrc: (npmrc) => {
      found = npmrc;
      return true;
    },
  });
  const hash = found ? hashOf(found.file) : undefined;
  if (found && hash) await readApprovals(userDir).approve(found.file, hash);
  return found;
}
