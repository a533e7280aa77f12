// The options commands share, as commander parses them: each command's definition (commands/*-command.ts) declares
// its flags, the handlers read them.

/** Options every command shares, as parsed by commander. */
export interface GlobalOptions {
  readonly home?: string;
  /** Set when `home` came from a project config (docs.config.json), not a flag, the environment or the user config. */
  readonly homeFromProject?: boolean;
  readonly json?: boolean;
}

/** Options of the commands that search. */
export interface QueryOptions {
  readonly tokens: number;
  readonly limit: number;
  readonly offset: number;
  readonly format: 'full' | 'index';
  readonly mode?: 'lexical' | 'hybrid';
  readonly embed?: string;
  readonly rerank?: string;
  /** The project whose installed versions a bare library name means (default: the working directory). */
  readonly project?: string;
  /** Alternative phrasings of the topic (`--also`, repeatable). */
  readonly also?: string[];
}
