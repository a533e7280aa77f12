import { setTimeout as sleep } from 'node:timers/promises';
import { EmbedError } from './errors.js';

/** How to call an endpoint: where, with which key, how long to wait and how often to retry. */
export interface EndpointOptions {
  readonly url: string;
  readonly key: string | undefined;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryDelayMs: number;
}

/** Longest wait a Retry-After header may impose before we give up instead. */
const MAX_RETRY_AFTER_MS = 60_000;

/** Retry-After in ms: seconds or an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The error's network code (ECONNREFUSED, ENOTFOUND…) or cause, from undici's `cause` chain. */
export function networkCode(error: unknown): string | undefined {
  for (
    let e = error as { code?: unknown; cause?: unknown } | undefined, i = 0;
    e && i < 5;
    e = e.cause as typeof e, i++
  ) {
    if (typeof e.code === 'string') return e.code;
  }
  // undici refuses some addresses itself ("bad port"), with no code
  const cause = (error as { cause?: { message?: unknown } } | undefined)?.cause?.message;
  return typeof cause === 'string' ? cause : undefined;
}

function describeBody(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: string } | string; message?: string; detail?: string };
    const message = typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message ?? body.detail);
    if (message) return String(message).slice(0, 300);
  } catch {
    // not JSON: the text itself
  }
  return text.trim().slice(0, 300) || '(empty body)';
}

/**
 * POSTs JSON to `<url>/<route>` and returns the parsed answer. Retries 429 and 5xx with exponential
 * backoff (honouring Retry-After); maps every failure to an EmbedError whose code says what to fix.
 */
export async function postJson(
  endpoint: EndpointOptions,
  route: string,
  body: unknown,
  signal?: AbortSignal | undefined,
): Promise<unknown> {
  const url = `${endpoint.url.replace(/\/+$/, '')}/${route}`;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (endpoint.key) headers.authorization = `Bearer ${endpoint.key}`;
  const payload = JSON.stringify(body);

  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    const timeout = AbortSignal.timeout(endpoint.timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers,
        body: payload,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      text = await response.text();
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted) {
        throw new EmbedError('timeout', `${url} did not answer within ${endpoint.timeoutMs} ms`, { cause: error });
      }
      const code = networkCode(error);
      throw new EmbedError(
        'unreachable',
        `cannot reach ${url}${code ? ` (${code})` : ''}: is the server running? Set the URL with $DOCS_EMBED_URL (e.g. http://localhost:11434/v1 for Ollama)`,
        { cause: error },
      );
    }
    const status = response.status;
    if (response.ok) {
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        throw new EmbedError(
          'bad-response',
          `${url} answered ${status} with something that is not JSON: ${text.slice(0, 200)}`,
          {
            cause: error,
          },
        );
      }
    }
    if (status === 401 || status === 403) {
      throw new EmbedError(
        'auth',
        `${url} refused the ${endpoint.key ? 'key' : 'request without a key'} (${status}): ${describeBody(text)}. Set the key with $DOCS_EMBED_KEY`,
      );
    }
    const retryable = status === 429 || status >= 500;
    if (retryable && attempt < endpoint.retries) {
      const wait = retryAfterMs(response.headers.get('retry-after')) ?? endpoint.retryDelayMs * 2 ** attempt;
      if (wait <= MAX_RETRY_AFTER_MS) {
        await sleep(wait, undefined, signal ? { signal } : undefined);
        continue;
      }
    }
    if (retryable) {
      throw new EmbedError(
        'bad-response',
        `${url} answered ${status} ${attempt > 0 ? `after ${attempt + 1} attempts` : ''}: ${describeBody(text)}`.replace(
          '  ',
          ' ',
        ),
      );
    }
    throw new EmbedError(
      status === 404 ? 'not-found' : 'rejected',
      `${url} refused the request (${status}): ${describeBody(text)}`,
    );
  }
}
