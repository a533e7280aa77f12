// Headers every answer carries. Documentation is untrusted input: nothing the
// server sends may be sniffed into another type, framed by another site, or
// (for the page) run a script or load anything that is not the server's own.

const COMMON = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
} as const;

/** For JSON answers: no document may come of them. */
export const API_HEADERS: Readonly<Record<string, string>> = {
  ...COMMON,
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
};

/**
 * For the page: scripts, styles and images only from this server (no inline
 * script or style, no eval), requests only to it, no plugins, no <base>, no
 * forms posting elsewhere, no framing; and HTML may enter the DOM only through
 * the page's one Trusted Types policy, which takes the markdown renderer's output.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "require-trusted-types-for 'script'",
  'trusted-types docs-markdown',
].join('; ');

/** For the page and its assets. */
export const WEB_HEADERS: Readonly<Record<string, string>> = {
  ...COMMON,
  'Content-Security-Policy': PAGE_CSP,
  'X-Frame-Options': 'DENY',
};
