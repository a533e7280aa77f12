import { resolveHome } from '@docs/store';
import { approvalsFile } from '../config/approvals.js';
import { loadConfig, projectConfigName, type SettingState } from '../config/load.js';
import { approveProjectNpmrc } from '../config/npmrc-approval.js';
import { printJson } from '../context.js';
import { UsageError } from '../errors.js';
import type { GlobalOptions } from '../options.js';

/** `docs config`: each setting's value and where it comes from; `--approve` approves the project config. */
export async function config(options: { approve?: boolean }, globals: GlobalOptions): Promise<void> {
  const loaded = await loadConfig();
  if (options.approve) {
    // The project .npmrc npm reads here too: its registry settings are gated as the project config's are.
    const npmrc = await approveProjectNpmrc(process.cwd(), loaded.userDir);
    if (!loaded.project && !npmrc)
      throw new UsageError(`no ${projectConfigName} in this folder or a parent folder, and no .npmrc with a registry`);
    const gated = loaded.project ? loaded.gatedKeys() : [];
    if (loaded.project) await loaded.approveProject();
    const what = gated.length > 0 ? `its ${gated.join(', ')}` : 'it (nothing in it reaches outside the project now)';
    if (globals.json)
      printJson({
        approved: loaded.project?.file ?? null,
        hash: loaded.project?.hash ?? null,
        settings: gated,
        npmrc: npmrc ? { approved: npmrc.file, settings: npmrc.settings } : null,
      });
    else {
      if (loaded.project)
        process.stdout.write(`Approved ${loaded.project.file}: ${what} will be used until the file changes.\n`);
      if (npmrc)
        process.stdout.write(
          `Approved ${npmrc.file}: its ${npmrc.settings.join(', ')} will be used until the file changes.\n`,
        );
    }
    return;
  }
  const states = loaded.states();
  const files = {
    user: { file: loaded.user.file, exists: loaded.user.exists },
    project: loaded.project
      ? { file: loaded.project.file, approved: loaded.isApproved(), needsApproval: loaded.gatedKeys() }
      : null,
    approvals: approvalsFile(loaded.userDir),
  };
  // The store in effect includes the built-in default, which is what a newcomer wants to find.
  const store = resolveHome({ home: globals.home ?? (states.find((s) => s.key === 'home')?.value as string) });
  if (globals.json) {
    printJson({ precedence: ['flag', 'env', 'project', 'user'], store, settings: states, files });
    return;
  }
  const rows = states.map((state) => [state.key, shownValue(state), shownSource(state), state.describe]);
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  const lines = ['Settings (a flag wins over the environment, then the project config, then the user config):'];
  for (const row of rows) lines.push(`  ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ')}`.trimEnd());
  for (const state of states)
    if (state.heldBack)
      lines.push(
        `  ${state.key}: ${JSON.stringify(state.heldBack.value)} in the project config reaches outside the project; "docs config --approve" uses it`,
      );
  lines.push(
    '',
    `store           ${store}`,
    `user config     ${loaded.user.file}${loaded.user.exists ? '' : ' (none)'}`,
    `project config  ${loaded.project ? `${loaded.project.file}${projectStatus(loaded.gatedKeys(), loaded.isApproved())}` : `none (${projectConfigName} in this folder or a parent)`}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

function shownValue(state: SettingState): string {
  if (state.value !== undefined) return JSON.stringify(state.value);
  return state.heldBack ? '(waiting for approval)' : '-';
}

function shownSource(state: SettingState): string {
  if (state.source === 'env') return `$${state.env}`;
  if (state.source) return `${state.source} config`;
  return '';
}

function projectStatus(gated: readonly string[], approved: boolean): string {
  if (gated.length === 0) return '';
  return approved ? ` (approved: ${gated.join(', ')})` : ` (waiting for approval: ${gated.join(', ')})`;
}
