import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { hostname as machineName, networkInterfaces } from 'node:os';

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '::ffff:127.0.0.1';
}

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** `::1` → `[::1]`, as a Host header or URL writes it. */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * Host names a request may carry in its Host or Origin header: this machine's
 * loopback names, the address bound (every address of the machine, and its
 * name, for a wildcard) and any given. A browser page of another site that
 * resolves its name to this machine (DNS rebinding) carries its own name, so
 * it is refused.
 */
export function allowedHostnames(bound: string, extra: readonly string[] = []): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]', urlHost(bound).toLowerCase()]);
  if (isWildcard(bound)) {
    names.add(machineName().toLowerCase());
    for (const addresses of Object.values(networkInterfaces())) {
      for (const a of addresses ?? []) names.add(urlHost(a.address).toLowerCase());
    }
  }
  for (const name of extra) names.add(urlHost(name).toLowerCase());
  return names;
}

/** The host name of a Host header (`example.com:8080` → `example.com`), or undefined when unparsable. */
function hostnameOf(value: string): string | undefined {
  try {
    return new URL(`http://${value}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Why a request is refused before it reaches MCP, or undefined when it may go on. */
export function refusal(
  req: IncomingMessage,
  allowed: ReadonlySet<string>,
  token: string | undefined,
): { status: 401 | 403; message: string } | undefined {
  const host = req.headers.host;
  const name = host === undefined ? undefined : hostnameOf(host);
  if (name === undefined || !allowed.has(name)) {
    return { status: 403, message: `Forbidden: Host ${JSON.stringify(host ?? '')} is not served here` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let originName: string | undefined;
    try {
      originName = new URL(origin).hostname.toLowerCase();
    } catch {
      originName = undefined;
    }
    if (originName === undefined || !allowed.has(originName)) {
      return { status: 403, message: `Forbidden: Origin ${JSON.stringify(origin)} is not allowed` };
    }
  }
  if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
    return { status: 401, message: 'Unauthorized: send the token as "Authorization: Bearer <token>"' };
  }
  return undefined;
}

/** Compares in constant time (over digests, so the lengths do not show either). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header?.trim() ?? '');
  if (!match?.[1]) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}
