import type { ModelSpecs } from '@docs/search';

/** The model flags of get, search, embed and serve, as commander parses them. */
export interface ModelFlags {
  readonly embed?: string;
  readonly rerank?: string;
}

/**
 * Which models a command uses. The flags are filled in from $DOCS_EMBED,
 * $DOCS_RERANK and the config files before the command runs (see
 * config/settings.ts), so an agent host that starts `docs serve` needs no
 * flags. An empty value means none.
 */
export function modelSpecs(flags: ModelFlags): ModelSpecs {
  const pick = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);
  return { embed: pick(flags.embed), rerank: pick(flags.rerank) };
}
