import type { Command } from 'commander';
import { commonCommand, globals, withExamples } from '../command-kit.js';
import type { SyncOptions } from './sync.js';

/** `docs sync [dir]`: its flags and help; the handlers (`sync.ts`, `sync-watch.ts`) are imported when it runs. */
export function defineSync(cli: Command): void {
  const sync = commonCommand(cli, 'sync')
    .description('build a package for each installed dependency of a project, at its installed version')
    .argument(
      '[dir]',
      'the project folder (package.json and node_modules; pyproject.toml / requirements.txt / Pipfile and a .venv; a go.mod or go.work; or Cargo.toml and Cargo.lock)',
      '.',
    )
    .option(
      '--dev',
      "include devDependencies (a Python project's dependency groups and dev requirements; Rust: dev-dependencies)",
    )
    .option(
      '--all',
      "every dependency, not only those the project declares: a Python virtualenv's every distribution, Go's '// indirect' requirements",
    )
    .option(
      '--venv <dir>',
      'a Python project: the virtualenv to read (default: .venv, venv, env, .env, else $VIRTUAL_ENV)',
    )
    .option('--no-types', 'leave out the API page written from the JSDoc of type declarations')
    .option('--save <dir>', 'also write each package file into this folder to share them')
    .option(
      '--filter <pattern...>',
      'at a workspace root: only the workspace packages whose name or path matches (globs: @acme/*, packages/*)',
    )
    .option(
      '--from-repo',
      "build from each dependency's repository docs at the installed version's tag (falls back to the package, saying why); rebuilds one built earlier from its package",
    )
    .option('--only <library...>', 'only these dependencies (name or name@version); the others are left as they are')
    .option('--rebuild', 'build every selected dependency again, replacing its package once the new one is built')
    .option('--dry-run', 'list what would be built, from where, and what is skipped and why; build nothing')
    .option(
      '--scope <scope>',
      "first install each dependency's doc package from this npm scope when one is published for its version",
    )
    .option('--registry <url>', "with --scope: registry URL (default: the scope's registry in .npmrc)")
    .option('--watch', 'then keep watching the project, building what each install changes, until Ctrl-C')
    .option('--no-embed', 'make no vectors in the background, though an embedder is configured')
    .action(async (dir: string, options: SyncOptions, command: Command) => {
      const { sync } = await import('./sync.js');
      if (!options.watch) return sync(dir, options, globals(command));
      const { checkWatchOptions, watchSync } = await import('./sync-watch.js');
      checkWatchOptions(options);
      await sync(dir, options, globals(command));
      await watchSync(dir, options, globals(command));
    });
  withExamples(sync, ['docs sync', 'docs sync ~/code/app --dev --dry-run', 'docs sync --from-repo']);
}
