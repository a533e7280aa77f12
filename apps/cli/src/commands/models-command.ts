import type { Command } from 'commander';
import { commonCommand, globals, withExamples } from '../command-kit.js';

/** `docs models` and `docs models pull <repo>`: their help; the handlers (`models.ts`) are imported when they run. */
export function defineModels(cli: Command): void {
  const models = commonCommand(cli, 'models')
    .description(
      'list the local embedders and re-rankers (models directory, Hugging Face cache) and whether each is ready',
    )
    .action(async (_options: unknown, command: Command) => {
      const { models } = await import('./models.js');
      await models(globals(command));
    });
  withExamples(models, ['docs models']);
  const pull = commonCommand(models, 'pull')
    .description('fetch a model folder (with its ONNX export) from the Hugging Face hub into the models directory')
    .argument('<repo>', 'the hub repository, <org>/<name>, e.g. Xenova/bge-small-en-v1.5')
    .action(async (repo: string, _options: unknown, command: Command) => {
      const { pull } = await import('./models.js');
      await pull(repo, globals(command));
    });
  withExamples(pull, ['docs models pull Xenova/bge-small-en-v1.5']);
}
