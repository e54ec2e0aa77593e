// Icons are untrusted (MCP 2025-11-25, "Icons"): only checked raster bytes reach the UI, as data: URIs. The
// https cases are served by a real HTTP server on 127.0.0.1; the fetch handed in maps the icon's https URL
// onto it (the SSRF guard itself is tested in guardedFetch.test.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedDataUri, IconResolver, MAX_ICON_BYTES, sniffRaster } from './icons';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');
const dataUri = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

let server: Server;
let base = '';
const hits: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url!);
    if (req.url === '/icon.png') return void res.end(PNG);
    if (req.url === '/lies.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(SVG);
    if (req.url === '/huge.png') {
      // No content-length: the reader must stop at the cap on its own.
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(PNG);
      const chunk = Buffer.alloc(16 * 1024, 1);
      let sent = 0;
      const more = () => {
        while (sent < 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      return more();
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** The https URL's path, served by the local server. */
const fetchVia = (url: string, init?: RequestInit) => fetch(`${base}${new URL(url).pathname}`, init);
const resolved = (r: IconResolver) => new Promise<void>((res) => r.once('resolved', () => res()));

describe('data: icons', () => {
  it('keeps a raster image, re-encoded from its checked bytes', () => {
    expect(checkedDataUri(dataUri('image/png', PNG))).toBe(dataUri('image/png', PNG));
    expect(sniffRaster(PNG)).toBe('image/png');
  });

  it('refuses SVG, a raster label on other bytes, HTML, and anything over the size cap', () => {
    expect(checkedDataUri(dataUri('image/svg+xml', SVG))).toBeUndefined();
    expect(checkedDataUri(dataUri('image/png', SVG))).toBeUndefined();
    expect(checkedDataUri(`data:text/html,<script>alert(1)</script>`)).toBeUndefined();
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_ICON_BYTES)]);
    expect(checkedDataUri(dataUri('image/png', big))).toBeUndefined();
  });

  it('takes the first acceptable icon of a list and skips the SVG one', () => {
    const r = new IconResolver();
    const icons = [
      { src: dataUri('image/svg+xml', SVG), mimeType: 'image/svg+xml' },
      { src: dataUri('image/png', PNG), mimeType: 'image/png' },
    ];
    expect(r.dataUri(icons, { fetch: fetchVia })).toBe(dataUri('image/png', PNG));
  });
});

describe('https icons', () => {
  it("are fetched from a remote server's own host and then shown as data: URIs", async () => {
    const r = new IconResolver();
    const icons = [{ src: 'https://mcp.example.com/icon.png' }];
    const ctx = { serverUrl: 'https://mcp.example.com/mcp', fetch: fetchVia };
    const arrived = resolved(r);
    expect(r.dataUri(icons, ctx)).toBeUndefined(); // fetched in the background
    await arrived;
    expect(r.dataUri(icons, ctx)).toBe(dataUri('image/png', PNG));
  });

  it("are never fetched from another host than a remote server's, nor over http or with credentials", async () => {
    const r = new IconResolver();
    hits.length = 0;
    const ctx = { serverUrl: 'https://mcp.example.com/mcp', fetch: fetchVia };
    for (const src of [
      'https://tracker.example.net/icon.png',
      'http://mcp.example.com/icon.png',
      'https://user:pw@mcp.example.com/icon.png',
      'file:///etc/passwd',
    ])
      expect(await r.settle([{ src }], ctx)).toBeUndefined();
    expect(hits).toEqual([]);
  });

  it('are refused when the bytes are not a raster image or pass the size cap', async () => {
    const r = new IconResolver();
    const ctx = { fetch: fetchVia }; // a stdio server: any public host
    expect(await r.settle([{ src: 'https://icons.example.org/lies.png' }], ctx)).toBeUndefined();
    expect(await r.settle([{ src: 'https://icons.example.org/huge.png' }], ctx)).toBeUndefined();
    expect(await r.settle([{ src: 'https://icons.example.org/missing.png' }], ctx)).toBeUndefined();
    expect(await r.settle([{ src: 'https://icons.example.org/icon.png' }], ctx)).toBe(
      dataUri('image/png', PNG),
    );
  });
});
