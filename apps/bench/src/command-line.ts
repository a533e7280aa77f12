import { type ParseArgsConfig, parseArgs } from 'node:util';

/**
 * A bench command's options, parsed as `parseArgs` parses them. `--help` prints the usage and exits 0; an unknown
 * or malformed option says what is wrong, then the usage, and exits 2 (parseArgs's error was a stack trace).
 */
export function commandLine<T extends ParseArgsConfig>(
  name: string,
  usage: string,
  config: T,
): ReturnType<typeof parseArgs<T>> {
  const args = config.args ?? process.argv.slice(2);
  const end = args.indexOf('--');
  if ((end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h')) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  try {
    return parseArgs<T>(config);
  } catch (error) {
    process.stderr.write(`${name}: ${(error as Error).message}\n${usage}\n`);
    process.exit(2);
  }
}
