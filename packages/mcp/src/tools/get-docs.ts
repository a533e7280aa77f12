import { getDocs } from '@docs/search';
import { parsePackageSpec } from '@docs/store';
import { z } from 'zod';
import { type DocsToolContext, unresolvedOf } from '../context.js';
import { ALTERNATIVES_HINT, alternativesInput } from '../phrasings.js';
import { renderSearch, renderUnresolved, structuredSearchOutput, unresolvedOutput } from '../render.js';
import {
  formatInput,
  freshInput,
  libraryInput,
  limitInput,
  modeInput,
  offsetInput,
  searchOutput,
  tokensInput,
  topicInput,
  versionInput,
} from '../schemas.js';
import { sentOption } from '../session-memory.js';
import { answer, type DocsTool, READ_ONLY } from '../tool.js';

const inputSchema = z.object({
  library: libraryInput,
  topic: topicInput,
  alternatives: alternativesInput,
  version: versionInput,
  tokens: tokensInput,
  format: formatInput,
  limit: limitInput,
  offset: offsetInput,
  mode: modeInput,
  fresh: freshInput,
});

/** `get_docs`: search one library. */
export const getDocsTool: DocsTool<typeof inputSchema, typeof searchOutput> = {
  name: 'get_docs',
  title: 'Search one library',
  description: [
    "The best-matching sections of one library's installed docs, as markdown within a token budget.",
    'Use it when you know the library: how to use an API or option, what an error means, how to do a task.',
    ALTERNATIVES_HINT,
  ].join(' '),
  listsLibraries: true,
  inputSchema,
  outputSchema: searchOutput,
  structuredForMcp: structuredSearchOutput,
  annotations: READ_ONLY,
  async handler(args, context, call) {
    const projectVersion = await projectVersionOf(context, args.library, args.version);
    // A version the project installs that the store lacks may be on its way (a server following its project): waited
    // for a bounded time, else the answer says it is being built.
    const build =
      projectVersion && context.builds
        ? await context.builds.awaitBuild(parsePackageSpec(args.library.trim()).name, projectVersion)
        : undefined;
    const building = build?.state === 'building' ? { retryAfterSeconds: build.retryAfterSeconds } : undefined;
    // The search resolves the library, within the server's scope, and words what could not be resolved.
    const response = await getDocs(context.store, args.library, args.topic, {
      ...(args.version === undefined ? {} : { version: args.version }),
      ...(context.libraries ? { scope: context.libraries } : {}),
      tokens: args.tokens,
      format: args.format,
      limit: args.limit,
      offset: args.offset,
      ...(args.mode ? { mode: args.mode } : {}),
      ...(context.models ? { models: context.models } : {}),
      ...(projectVersion ? { projectVersion } : {}),
      ...(building ? { projectBuilding: building } : {}),
      ...(args.alternatives?.length ? { alternatives: args.alternatives } : {}),
      ...sentOption(call, args.fresh),
    });
    const found = unresolvedOf(response);
    const unresolved =
      found && building && projectVersion
        ? {
            ...found,
            message: `${found.message.replace(/\.?$/, '.')} The project installs ${parsePackageSpec(args.library.trim()).name}@${projectVersion}, which is being built now: ask again in about ${building.retryAfterSeconds} seconds.`,
          }
        : found;
    if (unresolved) return answer(unresolvedOutput(unresolved), renderUnresolved(unresolved), true);
    return answer(response, renderSearch(response, 'get_docs'));
  },
};

/** For a bare name, the version the project installs (when the server knows its project). */
async function projectVersionOf(
  context: DocsToolContext,
  library: string,
  version: string | undefined,
): Promise<string | undefined> {
  const spec = parsePackageSpec(library.trim());
  if ((version !== undefined && version !== '') || spec.version !== undefined) return undefined;
  return context.projectVersion?.(spec.name);
}
