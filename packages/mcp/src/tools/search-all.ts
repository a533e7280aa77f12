import { searchAll } from '@docs/search';
import { parsePackageSpec } from '@docs/store';
import { z } from 'zod';
import { type DocsToolContext, servedPackages } from '../context.js';
import { alternativesInput } from '../phrasings.js';
import { renderSearch, renderUnresolved, structuredSearchOutput } from '../render.js';
import {
  formatInput,
  freshInput,
  libraryName,
  limitInput,
  modeInput,
  offsetInput,
  searchOutput,
  tokensInput,
  topicInput,
} from '../schemas.js';
import { sentOption } from '../session-memory.js';
import { answer, type DocsTool, READ_ONLY } from '../tool.js';

const inputSchema = z.object({
  topic: topicInput,
  alternatives: alternativesInput,
  libraries: z
    // Items undescribed: the field's description says what each is, and tools/list is paid for by every session.
    .array(libraryName)
    .min(1)
    .max(50)
    .optional()
    .describe('Only these libraries (names or name@version). Default: every installed library.'),
  tokens: tokensInput,
  format: formatInput,
  limit: limitInput,
  offset: offsetInput,
  mode: modeInput,
  fresh: freshInput,
});

/** `search_all`: search every installed library (or some) at once. */
export const searchAllTool: DocsTool<typeof inputSchema, typeof searchOutput> = {
  name: 'search_all',
  title: 'Search all libraries',
  description: [
    'Search every installed library at once (or `libraries`): one ranked list within one token budget, each result naming its library.',
    'Use it when you do not know which library documents something, or a task spans several.',
  ].join(' '),
  listsLibraries: false,
  inputSchema,
  outputSchema: searchOutput,
  structuredForMcp: structuredSearchOutput,
  annotations: READ_ONLY,
  async handler(args, context, call) {
    // The search resolves every library named, within the server's scope, so nothing outside it is reached.
    const response = await searchAll(context.store, args.topic, {
      tokens: args.tokens,
      format: args.format,
      limit: args.limit,
      offset: args.offset,
      ...(args.mode ? { mode: args.mode } : {}),
      ...(context.models ? { models: context.models } : {}),
      ...(args.alternatives?.length ? { alternatives: args.alternatives } : {}),
      ...(args.libraries ? { libraries: args.libraries } : {}),
      ...(context.libraries ? { scope: context.libraries } : {}),
      ...(context.projectVersion || context.projectVersions ? { projectVersions: await projectVersions(context) } : {}),
      ...sentOption(call, args.fresh),
    });
    // Nothing installed is an answer (with how to add docs); a library named that is not installed is an error.
    const isError = response.status === 'unknown-library' || response.status === 'unknown-version';
    if (isError) return answer(response, renderUnresolved(response), true);
    const noted = withBuildsNote(response, context.builds?.building() ?? []);
    return answer(noted, renderSearch(noted, 'search_all'));
  },
};

/**
 * The versions the project being worked on installs, for the libraries installed here in more than one version
 * (for the others there is nothing to choose), so search_all reads the version the project uses, as get_docs does.
 */
async function projectVersions(context: DocsToolContext): Promise<Map<string, string>> {
  const counts = new Map<string, number>();
  for (const pkg of await servedPackages(context)) {
    const name = pkg.name.toLowerCase();
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const several = [...counts].filter(([, count]) => count > 1).map(([name]) => name);
  if (context.projectVersions) return new Map(await context.projectVersions(several));
  const versions = new Map<string, string>();
  for (const name of several) {
    const version = await context.projectVersion?.(name);
    if (version !== undefined) versions.set(name, version);
  }
  return versions;
}

/** How many libraries being built a note names before it counts the rest. */
const NAMED_BUILDS = 5;

/**
 * The answer, its message saying which of the project's libraries are being built now (a server following its
 * project): search_all waits for none, so a library answered from another version, or not searched yet, is named.
 */
function withBuildsNote<T extends { readonly message: string; readonly searched: readonly string[] }>(
  response: T,
  building: readonly string[],
): T {
  if (building.length === 0) return response;
  const searched = new Map(response.searched.map((id) => [parsePackageSpec(id).name.toLowerCase(), id]));
  const named = building.slice(0, NAMED_BUILDS).map((id) => {
    const other = searched.get(parsePackageSpec(id).name.toLowerCase());
    return other && other.toLowerCase() !== id.toLowerCase() ? `${id} (answered from ${other} meanwhile)` : id;
  });
  const rest = building.length > NAMED_BUILDS ? `, and ${building.length - NAMED_BUILDS} more` : '';
  const lead = /[.!?]$/.test(response.message) || response.message === '' ? response.message : `${response.message}.`;
  const note = `Being built now (the project installs them; ask again shortly): ${named.join(', ')}${rest}.`;
  return { ...response, message: lead === '' ? note : `${lead} ${note}` };
}
