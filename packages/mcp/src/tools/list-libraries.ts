import { ADD_DOCS_HINT, shortDescription } from '@docs/search';
import { formatPackageId } from '@docs/store';
import { z } from 'zod';
import { isScoped, servedPackages } from '../context.js';
import { answer, type DocsTool, READ_ONLY } from '../tool.js';

const inputSchema = z.object({});

const outputSchema = z.object({
  libraries: z
    .array(
      z.object({
        library: z.string().describe('name@version, as get_docs, search_all and read_doc take it'),
        name: z.string(),
        version: z.string(),
        description: z
          .string()
          .describe(
            'One line about the library ("" when the package has none), at most 500 bytes (UTF-8 as JSON sends it)',
          ),
        documents: z.number().int().describe('Pages in the package'),
        sections: z.number().int().describe('Searchable sections'),
        tokens: z.number().int().describe('Tokens of all sections'),
        bytes: z.number().int().describe('Size of the package file'),
      }),
    )
    .describe('Installed libraries, by name, highest version first'),
  message: z.string().describe('A summary, or how to add documentation when there is none'),
});

/** `list_libraries`: what this server can answer from. */
export const listLibrariesTool: DocsTool<typeof inputSchema, typeof outputSchema> = {
  name: 'list_libraries',
  title: 'List documentation libraries',
  description:
    'List the installed documentation libraries (name@version, description, sections, size): what the other tools can answer from.',
  listsLibraries: false,
  inputSchema,
  outputSchema,
  annotations: READ_ONLY,
  async handler(_args, context) {
    const libraries = [];
    for (const pkg of await servedPackages(context)) {
      const reader = context.store.reader(pkg);
      const [info, stats] = await Promise.all([reader.info(), reader.stats()]);
      libraries.push({
        library: formatPackageId(pkg),
        name: pkg.name,
        version: pkg.version,
        // The package's maker wrote it, at any length; the listing takes no parameters, so it must always fit.
        description: shortDescription(info.description),
        documents: stats.documents,
        sections: stats.chunks,
        tokens: stats.tokens,
        bytes: pkg.bytes,
      });
    }
    const scope = isScoped(context) ? ` (this server is scoped to ${context.libraries?.join(', ')})` : '';
    if (libraries.length === 0) {
      const message = `No documentation libraries are installed${scope}. ${ADD_DOCS_HINT}`;
      return answer({ libraries, message }, message);
    }
    const message = `${libraries.length} ${libraries.length === 1 ? 'library' : 'libraries'} installed${scope}.`;
    const lines = libraries.map(
      (l) =>
        `- ${l.library}: ${l.sections} sections, ${l.tokens.toLocaleString('en')} tokens, ${(l.bytes / 1e6).toFixed(1)} MB${l.description ? ` · ${l.description}` : ''}`,
    );
    return answer({ libraries, message }, `${message}\n${lines.join('\n')}`);
  },
};
