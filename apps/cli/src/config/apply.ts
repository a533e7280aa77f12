import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { loadConfig } from './load.js';
import { settingKeys, settings } from './settings.js';

/**
 * Fills in, from the environment and the config files, every option of the
 * command about to run that has a setting of the same name and was not given
 * on the command line (flags win). Only the settings this command has flags
 * for are read, so a project setting waiting for approval is asked about only
 * by a command that would use it.
 */
export async function applyConfig(action: Command): Promise<void> {
  const config = await loadConfig({ ...terminalQuestion(), warn: (line) => process.stderr.write(`docs: ${line}\n`) });
  for (const key of settingKeys) {
    const spec: { flag?: string; commands?: readonly string[]; env: string } = settings[key];
    const flag = spec.flag;
    if (flag === undefined || (spec.commands && !spec.commands.includes(action.name()))) continue;
    if (!action.options.some((option) => option.attributeName() === flag)) continue;
    if (givenOnCommandLine(action, flag)) continue;
    const found = await config.getWithSource(key);
    if (found === undefined) continue;
    action.setOptionValueWithSource(flag, found.value, 'config');
    // Its packages came with the project, not through docs: openStore validates them before they are used.
    if (key === 'home' && found.source === 'project')
      action.setOptionValueWithSource('homeFromProject', true, 'config');
  }
}

function givenOnCommandLine(action: Command, flag: string): boolean {
  for (let command: Command | null = action; command; command = command.parent) {
    const source = command.getOptionValueSource(flag);
    if (source === 'cli' || source === 'env') return true;
  }
  return false;
}

/** A yes/no question on the terminal; none when stdin or stderr is not one (MCP over stdio, CI, pipes). */
export function terminalQuestion(): { ask?: (question: string) => Promise<boolean> } {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return {};
  return {
    async ask(question) {
      const reader = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return /^y(es)?$/i.test((await reader.question(question)).trim());
      } finally {
        reader.close();
      }
    },
  };
}
