import type { ServerResponse } from 'node:http';
import { classify } from '@docs/errors';
import type { DocsTool, DocsToolContext } from '@docs/mcp';
import { z } from 'zod';
import { type ApiParam, type ApiRoute, type apiErrorSchema, apiRoutes } from './api-routes.js';
import { openApiDocument } from './openapi.js';
import { API_HEADERS } from './security-headers.js';

type ApiErrorBody = z.infer<typeof apiErrorSchema>['error'];

/** Sends a JSON answer with the API's headers. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  head = false,
): void {
  writeAnswer(res, json(status, body, headers, head));
}

/** Sends `{ "error": { code, message, … } }`. */
export function sendApiError(
  res: ServerResponse,
  status: number,
  error: ApiErrorBody,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { error }, headers);
}

/** True for the paths the JSON API answers (unknown ones with a JSON 404). */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/** Statuses of a tool's answer that mean "what you named is not here": 404, with what is. */
const NOT_FOUND = new Set(['no-packages', 'unknown-library', 'unknown-version', 'unknown-path']);

/** An HTTP answer as data: what a worker thread hands back for the main thread to write. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  /** Absent for a HEAD request or an answer without a body. */
  readonly body?: string;
}

/** Writes an answer made by answerApi or a RequestHandler. */
export function writeAnswer(res: ServerResponse, answer: HttpAnswer): void {
  const { body } = answer;
  const sized =
    body === undefined || hasHeader(answer.headers, 'content-length')
      ? answer.headers
      : {
          ...answer.headers,
          'Content-Length': String(Buffer.byteLength(body)),
        };
  res.writeHead(answer.status, sized);
  res.end(body);
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

/**
 * Answers a request under /api: GET /api/libraries, /api/search, /api/read
 * and /api/openapi.json. Each route parses its query with the input schema of
 * the MCP tool that answers it and returns that tool's structuredContent, so
 * the API and the tools cannot drift apart. Bad input is a 400 that names the
 * parameter; an unknown library or path a 404 that lists what there is.
 *
 * The answer is data, made from the request's method and URL alone, so a worker thread can make it.
 */
export async function answerApi(method: string, requestUrl: string, context: DocsToolContext): Promise<HttpAnswer> {
  const url = new URL(requestUrl, 'http://localhost');
  const head = method === 'HEAD';
  if (method !== 'GET' && !head) {
    return apiError(
      405,
      { code: 'method-not-allowed', message: `Method not allowed: the API answers GET, not ${method}` },
      { Allow: 'GET, HEAD' },
    );
  }
  if (url.pathname === '/api/openapi.json') return json(200, openApiDocument(), {}, head);
  const route = apiRoutes.find((r) => r.path === url.pathname);
  if (!route) {
    const paths = [...apiRoutes.map((r) => r.path), '/api/openapi.json'].join(', ');
    return apiError(404, { code: 'not-found', message: `Not found: the API's endpoints are ${paths}` });
  }
  const params = readParams(route, url.searchParams);
  if (!params.ok) return apiError(400, { code: 'bad-request', message: params.message });
  const { tool, args } = route.plan(params.value);
  const parsed = tool.inputSchema.safeParse(args);
  if (!parsed.success) {
    return apiError(400, { code: 'bad-request', message: describeIssues(route, parsed.error) });
  }
  let result: Awaited<ReturnType<DocsTool['handler']>>;
  try {
    result = await tool.handler(parsed.data as never, context);
  } catch (error) {
    context.onError?.(error, tool.name);
    return apiError(...explain(error));
  }
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  if (!structured) {
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    return apiError(500, { code: 'internal', message: text });
  }
  const status = typeof structured.status === 'string' ? structured.status : 'ok';
  if (result.isError && NOT_FOUND.has(status)) {
    const { message, installed, suggestion, suggestions } = structured as ApiErrorBody;
    return apiError(404, {
      code: status,
      message,
      ...(installed ? { installed } : {}),
      ...(suggestion ? { suggestion } : {}),
      ...(suggestions ? { suggestions } : {}),
    });
  }
  return json(
    200,
    route.extra ? { ...structured, ...(await route.extra.add(structured, context)) } : structured,
    {},
    head,
  );
}

function json(status: number, body: unknown, headers: Record<string, string> = {}, head = false): HttpAnswer {
  const text = JSON.stringify(body);
  return {
    status,
    headers: { ...API_HEADERS, 'Content-Length': String(Buffer.byteLength(text)), ...headers },
    ...(head ? {} : { body: text }),
  };
}

function apiError(status: number, error: ApiErrorBody, headers: Record<string, string> = {}): HttpAnswer {
  return json(status, { error }, headers);
}

type Params = { ok: true; value: Map<string, string[] | string> } | { ok: false; message: string };

/**
 * Splits the query string by the route's parameters: names it does not know
 * and repeats of a single-valued one are refused (a misspelt parameter would
 * otherwise be ignored), numbers are converted as the tool's schema types
 * them, and missing required ones are named.
 */
function readParams(route: ApiRoute, query: URLSearchParams): Params {
  const value = new Map<string, string[] | string>();
  for (const name of new Set(query.keys())) {
    const param = route.params.find((p) => p.name === name);
    if (!param) {
      const known = route.params.map((p) => p.name).join(', ') || 'none';
      return { ok: false, message: `Unknown parameter "${name}": ${route.path} takes ${known}` };
    }
    const all = query.getAll(name);
    if (!param.repeated && all.length > 1)
      return { ok: false, message: `${name} is given ${all.length} times; give it once` };
    value.set(name, param.repeated ? all : (all[0] as string));
  }
  for (const param of route.params) {
    if (param.required && !value.has(param.name)) return { ok: false, message: `${param.name} is required` };
  }
  return { ok: true, value: convertNumbers(route.params, value) };
}

/** Query values are strings; a field the tool's schema types as a number gets its number (or NaN, refused by the schema). */
function convertNumbers(params: readonly ApiParam[], values: Map<string, string[] | string>) {
  const converted = new Map<string, unknown>(values);
  for (const param of params) {
    const value = values.get(param.name);
    if (typeof value !== 'string') continue;
    const type = fieldType(param);
    if (type === 'integer' || type === 'number') {
      converted.set(param.name, /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : Number.NaN);
    }
  }
  return converted as Map<string, string[] | string>;
}

const fieldTypes = new Map<DocsTool, Record<string, { type?: string }>>();

/** The JSON Schema type of a parameter's tool field. */
export function fieldType(param: ApiParam): string | undefined {
  let properties = fieldTypes.get(param.tool);
  if (!properties) {
    const schema = z.toJSONSchema(param.tool.inputSchema, { io: 'input' }) as {
      properties?: Record<string, { type?: string }>;
    };
    properties = schema.properties ?? {};
    fieldTypes.set(param.tool, properties);
  }
  return properties[param.field]?.type;
}

/** Zod's issues as one line, named by the URL's parameters rather than the tool's fields. */
function describeIssues(route: ApiRoute, error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const field = String(issue.path[0] ?? '');
      const name = route.params.find((p) => p.field === field)?.name ?? field;
      if (issue.code === 'invalid_type' && issue.expected === 'number') return `${name} must be a number`;
      return `${name}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * An error a handler threw, by the one error policy (classify): bad arguments are the caller's (400); what is the
 * user's, a request meets in the store (a damaged or stale package, a home it cannot read), the server's (500).
 */
function explain(error: unknown): [number, ApiErrorBody] {
  const { blame, message } = classify(error);
  if (blame === 'caller') return [400, { code: 'bad-request', message }];
  if (blame === 'user') {
    return [500, { code: 'store-error', message: `The documentation store could not be read: ${message}` }];
  }
  return [
    500,
    { code: 'internal', message: `The docs server failed unexpectedly (a bug, please report it): ${message}` },
  ];
}
