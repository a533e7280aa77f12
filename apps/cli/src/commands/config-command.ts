import type { Command } from 'commander';
import { commonCommand, globals, withExamples } from '../command-kit.js';

/** `docs config`: its flags and help; the handler (`config.ts`) is imported when it runs. */
export function defineConfig(cli: Command): void {
  const config = commonCommand(cli, 'config')
    .description(
      `show each setting, its value and where it comes from (${'flag > environment > docs.config.json > user config'})`,
    )
    .option(
      '--approve',
      "approve this project's docs.config.json and .npmrc as they are now, including settings that reach outside the project",
    )
    .action(async (options: { approve?: boolean }, command: Command) => {
      const { config } = await import('./config.js');
      await config(options, globals(command));
    });
  withExamples(config, ['docs config', 'docs config --approve']);
}
