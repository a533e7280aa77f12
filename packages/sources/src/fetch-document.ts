import { TextDecoder } from 'node:util';

/** Limits for one request. */
export interface FetchLimits {
  /** For the whole request, body included. */
  readonly timeoutMs: number;
  /** Bodies larger than this are abandoned and reported. */
  readonly maxBytes: number;
  /** Aborting it aborts the request and rejects with the signal's reason (a timeout does not: it is a result). */
  readonly signal?: AbortSignal;
}

/** A fetched document, or why there is none. Never thrown for a single bad page. */
export type FetchResult =
  | {
      readonly ok: true;
      /** The address after redirects. */
      readonly url: string;
      readonly contentType: string;
      readonly text: string;
      readonly bytes: number;
    }
  | { readonly ok: false; readonly reason: string; readonly status?: number };

const ACCEPT = 'text/markdown, text/plain;q=0.9, text/html;q=0.8, application/xhtml+xml;q=0.8, */*;q=0.1';

/**
 * GETs one document with a timeout and a byte cap (checked against
 * Content-Length first, then while the body streams in). Failures of the page
 * (HTTP errors, timeouts, oversize bodies, refused connections) are results;
 * only aborting `signal` rejects.
 *
 * @example
 * const page = await fetchDocument('https://example.com/llms.txt', { timeoutMs: 15_000, maxBytes: 5 << 20 });
 * if (page.ok) console.log(page.text);
 */
export async function fetchDocument(url: string, limits: FetchLimits): Promise<FetchResult> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = limits.signal ? AbortSignal.any([limits.signal, timeout]) : timeout;
  try {
    const response = await fetch(url, {
      signal,
      redirect: 'follow',
      headers: { accept: ACCEPT, 'user-agent': 'docs (local documentation indexer)' },
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      return { ok: false, reason: `HTTP ${response.status}`, status: response.status };
    }
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > limits.maxBytes) {
      await response.body?.cancel().catch(() => {});
      return { ok: false, reason: `larger than ${formatBytes(limits.maxBytes)} (${formatBytes(declared)})` };
    }
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    const reader = response.body?.getReader();
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > limits.maxBytes) {
        await reader.cancel().catch(() => {});
        return { ok: false, reason: `larger than ${formatBytes(limits.maxBytes)}` };
      }
      chunks.push(value);
    }
    const contentType = response.headers.get('content-type') ?? '';
    return {
      ok: true,
      url: response.url || url,
      contentType,
      text: decoder(contentType).decode(Buffer.concat(chunks)),
      bytes,
    };
  } catch (error) {
    if (limits.signal?.aborted) throw limits.signal.reason ?? error;
    if (timeout.aborted) return { ok: false, reason: `timed out after ${limits.timeoutMs / 1000} s` };
    return { ok: false, reason: describeNetworkError(error) };
  }
}

/** `5 MiB`, `312 KiB`, `87 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / 1024 / 1024).toFixed(1))} MiB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
  return `${bytes} bytes`;
}

function decoder(contentType: string): TextDecoder {
  const charset = /charset=["']?([\w-]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `cannot connect (${cause.code})`;
  return (cause?.message ?? (error as Error).message ?? String(error)).replace(/^fetch failed$/, 'cannot connect');
}
