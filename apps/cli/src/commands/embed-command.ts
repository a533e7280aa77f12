import { type Command, Option } from 'commander';
import { commonCommand, globals, positiveNumber, withExamples } from '../command-kit.js';
import type { EmbedOptions } from './embed.js';

/** `docs embed [library...]`: its flags and help; the handler (`embed.ts`) is imported when it runs. */
export function defineEmbed(cli: Command): void {
  const embed = commonCommand(cli, 'embed')
    .description(
      'add vectors to installed packages (no re-parsing), so searches can use meaning as well as keywords; resumable',
    )
    .argument('[library...]', 'name or name@version of each library to embed')
    .option('--all', 'every installed library (the highest version of each)')
    .option('--embed <spec>', 'the embedder: a model folder, a model name or openai:<model> (default: $DOCS_EMBED)')
    .addOption(
      new Option('--batch-size <n>', 'sections per batch, committed as it is done (default 32)').argParser(
        positiveNumber,
      ),
    )
    // The background worker docs add and docs sync start (vector-worker.ts); not for people.
    .addOption(new Option('--worker').hideHelp())
    .action(async (libraries: string[], options: EmbedOptions, command: Command) => {
      const { embed } = await import('./embed.js');
      await embed(libraries, options, globals(command));
    });
  withExamples(embed, ['docs embed vitest --embed Xenova/bge-small-en-v1.5', 'docs embed --all']);
}
