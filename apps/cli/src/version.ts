import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The CLI's version: its package.json's, which a release sets. Run from a git
 * checkout of the repository (not an installed package), the commit is added
 * as semver build metadata (`0.1.0+git.1a2b3c4`, `-dirty` with local changes),
 * since the same version number then covers unreleased work.
 */
export function cliVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  const commit = checkoutCommit();
  return commit ? `${manifest.version}+git.${commit}` : manifest.version;
}

function checkoutCommit(): string | undefined {
  // apps/cli/dist/version.js → the repository root; an installed package has no workspace file up there.
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  if (!existsSync(`${root}pnpm-workspace.yaml`) || !existsSync(`${root}.git`)) return undefined;
  const described = spawnSync('git', ['-C', root, 'describe', '--always', '--dirty', '--abbrev=7', '--exclude=*'], {
    encoding: 'utf8',
  });
  const commit = described.status === 0 ? described.stdout.trim() : '';
  return /^[0-9a-f]{7,}(-dirty)?$/.test(commit) ? commit.replace('-dirty', '.dirty') : undefined;
}
