import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WEB_HEADERS } from './security-headers.js';

// The web page: files the server's build bundles into dist/web (scripts/build-web.mjs),
// read once and served from memory. No CDN: the page works offline.

/** The page's files by URL path, with their content types. */
const FILES: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/assets/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/assets/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
  '/assets/icon.svg': { file: 'icon.svg', type: 'image/svg+xml' },
};

/**
 * Where the build puts the page: `dist/web` next to this module's own
 * folder, whether it runs from `src` (tests) or `dist`.
 */
const WEB_DIR = new URL('../dist/web/', import.meta.url);

/** True for the paths of the page and its assets. */
export function isWebPath(path: string): boolean {
  return Object.hasOwn(FILES, path);
}

interface Asset {
  readonly body: Buffer;
  readonly etag: string;
}

const assets = new Map<string, Promise<Asset | undefined>>();

function load(file: string): Promise<Asset | undefined> {
  let asset = assets.get(file);
  if (!asset) {
    asset = readFile(new URL(file, WEB_DIR)).then(
      (body) => ({ body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` }),
      () => undefined,
    );
    assets.set(file, asset);
  }
  return asset;
}

/** Serves the page or one of its assets (GET or HEAD), revalidated by ETag. */
export async function serveWeb(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const entry = FILES[path];
  if (!entry) throw new Error(`not a page path: ${path}`);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { ...WEB_HEADERS, Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Method not allowed');
    return;
  }
  const asset = await load(entry.file);
  if (!asset) {
    res.writeHead(404, { ...WEB_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('The web page was not built: run the build of @docs/server (pnpm build). The JSON API is at /api/.');
    return;
  }
  const headers = { ...WEB_HEADERS, ETag: asset.etag, 'Cache-Control': 'no-cache' };
  if (req.headers['if-none-match'] === asset.etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'Content-Type': entry.type, 'Content-Length': String(asset.body.length) });
  res.end(req.method === 'HEAD' ? undefined : asset.body);
}
