import { z } from 'zod';
import { apiErrorSchema, apiRoutes } from './api-routes.js';
import { serverVersion } from './create-server.js';

type JsonSchema = { [key: string]: unknown };

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), without the `$schema` line a component does not carry. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'output'): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io }) as JsonSchema;
  return rest;
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

let document: JsonSchema | undefined;

/**
 * The OpenAPI 3.1 document of the JSON API, generated from the input and
 * output schemas of the MCP tools that answer each route (one source of
 * truth: a change to a tool's schema changes the API's document with it).
 */
export function openApiDocument(): JsonSchema {
  document ??= build();
  return document;
}

function build(): JsonSchema {
  const schemas: Record<string, JsonSchema> = { Error: jsonSchema(apiErrorSchema) };
  const paths: Record<string, JsonSchema> = {};
  for (const route of apiRoutes) {
    const answer = route.answeredBy.outputSchema as z.ZodObject;
    schemas[route.responseName] = jsonSchema(route.extra ? answer.extend(route.extra.schema.shape) : answer);
    const parameters = route.params.map((param) => {
      const input = jsonSchema(param.tool.inputSchema, 'input') as { properties: Record<string, JsonSchema> };
      const { description, ...schema } = input.properties[param.field] ?? {};
      return {
        name: param.name,
        in: 'query',
        required: param.required,
        ...(typeof description === 'string' ? { description } : {}),
        schema,
        ...(param.repeated ? { style: 'form', explode: true } : {}),
      };
    });
    paths[route.path] = {
      get: {
        operationId: route.operationId,
        summary: route.summary,
        description: route.description,
        parameters,
        responses: {
          '200': {
            description: route.summary,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${route.responseName}` } } },
          },
          '400': errorResponse('A parameter is missing, unknown, given twice or out of range'),
          '401': errorResponse('A token is set and the request does not carry it as a bearer token'),
          '403': errorResponse('The Host or Origin header names another site'),
          ...(route.path === '/api/libraries'
            ? {}
            : { '404': errorResponse('The library, version or path is not installed') }),
          '500': errorResponse('The store could not be read, or a bug'),
        },
      },
    };
  }
  paths['/api/openapi.json'] = {
    get: {
      operationId: 'openApi',
      summary: 'This document',
      responses: {
        '200': {
          description: 'The OpenAPI 3.1 document',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'docs',
      version: serverVersion(),
      description:
        'Local documentation search: the installed libraries, search within one or across all, and whole pages. The same answers as the MCP tools list_libraries, get_docs, search_all and read_doc.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    security: [{}, { bearer: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Required when the server was started with a token' },
      },
    },
  };
}
