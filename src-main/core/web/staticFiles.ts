// Serves the built renderer (out/renderer) for browser mode: files under the root only, the SPA's
// index.html for unknown paths, long caching for hashed assets.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

async function fileAt(root: string, pathname: string): Promise<string | undefined> {
  let rel: string;
  try {
    rel = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const full = normalize(join(root, rel));
  if (full !== root && !full.startsWith(root.endsWith(sep) ? root : root + sep)) return undefined;
  try {
    return (await stat(full)).isFile() ? full : undefined;
  } catch {
    return undefined;
  }
}

export async function serveStatic(root: string, pathname: string, res: ServerResponse): Promise<void> {
  const file = (await fileAt(root, pathname)) ?? (await fileAt(root, '/index.html'));
  if (!file) {
    res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`The UI is not built (no index.html in ${root}). Run "npx electron-vite build" first.\n`);
    return;
  }
  const type = TYPES[extname(file)] ?? 'application/octet-stream';
  const hashed = file.includes(`${sep}assets${sep}`);
  res.writeHead(200, {
    'content-type': type,
    'cache-control': hashed ? 'private, max-age=31536000, immutable' : 'no-cache',
  });
  createReadStream(file).pipe(res);
}
