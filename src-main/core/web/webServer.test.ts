// Browser mode's gate and bridge on a real core and a real HTTP server on 127.0.0.1 (webAuth.ts,
// requestLimits.ts): no token → 401; wrong Origin or Host → 403; the token works once; a body is refused
// from its headers (413, 415, 411) before it is read.
import { request } from 'node:http';
import { connect } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTRPCClient, httpLink } from '@trpc/client';
import { MooringCore } from '../mooringCore';
import { MemorySecretStore } from '../secrets/secretStore';
import type { AppRouter } from '../api/router';
import { everythingStdio, tempDir } from '../../../test/helpers/servers';
import { MAX_BODY_BYTES } from './requestLimits';
import { startWebServer, type WebServer } from './webServer';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * A raw request on its own socket: the head, then only `send` bytes of the body. Resolves with the status
 * line and body of the answer once the server closes the connection, and how many bytes went out.
 */
function rawRequest(
  port: number,
  head: string[],
  send: Buffer,
): Promise<{ status: number; body: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' ? undefined : reject(e)));
    socket.on('close', () => {
      const [top, body = ''] = answer.split('\r\n\r\n');
      resolve({ status: Number(top?.split(' ')[1]), body, sent: send.length });
    });
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
    socket.write(send);
  });
}

describe('browser mode', () => {
  let core: MooringCore;
  let web: WebServer;
  let token: string;
  let cookie: string;

  beforeAll(async () => {
    const home = tempDir();
    const staticDir = join(home, 'renderer');
    mkdirSync(staticDir);
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Mooring test</title>');
    core = await MooringCore.open({ home, secretStore: new MemorySecretStore() });
    await core.servers.add(everythingStdio('everything'));
    web = await startWebServer({ core, staticDir });
    token = new URL(web.url).searchParams.get('token')!;
  });
  afterAll(async () => {
    await web?.close();
    await core?.close();
  });

  it('prints a loopback URL with a token', () => {
    expect(web.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{40,}$/);
  });

  it('refuses a request without the token or cookie (401)', async () => {
    expect((await get(web.port, '/')).status).toBe(401);
    expect((await get(web.port, '/trpc/servers.list')).status).toBe(401);
    expect((await get(web.port, '/', { cookie: `mooring_${web.port}=guess` })).status).toBe(401);
  });

  it('tells a person it turns away how to get in: the printed link, else `mooring web --link`', async () => {
    // A browser restarted (the cookie is gone) or another browser: the page is all they see.
    const bare = await get(web.port, '/');
    expect(bare.body).toMatch(
      /^Unauthorized: not signed in, or the sign-in ended\. Open the link Mooring printed/,
    );
    expect(bare.body).toContain(
      'run `mooring web --link` in a terminal: the running Mooring prints a new link',
    );
    const wrong = await get(web.port, '/?token=not-the-token');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatch(
      /already used .* or is not valid\. To open Mooring here, run `mooring web --link`/,
    );
  });

  it('hands a new one-time link only to a POST with the link key and no Origin; each link works once', async () => {
    const post = (headers: Record<string, string>) => get(web.port, '/_mooring/link', headers, 'POST');
    expect((await post({})).status).toBe(403);
    expect((await post({ 'x-mooring-link-key': 'x'.repeat(43) })).status).toBe(403);
    // A page cannot ask, even one that learned the key: it always sends an Origin.
    const fromPage = await post({
      'x-mooring-link-key': web.linkKey,
      origin: `http://127.0.0.1:${web.port}`,
    });
    expect(fromPage.status).toBe(403);
    expect((await get(web.port, '/_mooring/link', { 'x-mooring-link-key': web.linkKey })).status).toBe(403);

    const links = await Promise.all([1, 2].map(() => post({ 'x-mooring-link-key': web.linkKey })));
    const urls = links.map((r) => (JSON.parse(r.body) as { url: string }).url);
    expect(new Set(urls).size).toBe(2);
    for (const url of urls) {
      const path = url.slice(`http://127.0.0.1:${web.port}`.length);
      const login = await get(web.port, path);
      expect(login.status).toBe(303);
      expect(String(login.headers['set-cookie'])).toMatch(/Max-Age=36000\b/);
      expect((await get(web.port, path)).status).toBe(401);
    }
  });

  it('refuses a wrong Host (DNS rebinding) or a foreign Origin (403), even with the token', async () => {
    expect((await get(web.port, `/?token=${token}`, { host: `evil.example:${web.port}` })).status).toBe(403);
    expect((await get(web.port, `/?token=${token}`, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await get(web.port, `/?token=${token}`, { host: `127.0.0.1:${web.port + 1}` })).status).toBe(403);
  });

  it('turns the token into an HttpOnly SameSite=Strict cookie once, and refuses its reuse', async () => {
    const first = await get(web.port, `/?token=${token}`);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    cookie = setCookie.split(';')[0]!;
    const again = await get(web.port, `/?token=${token}`);
    expect(again.status).toBe(401);
    const page = await get(web.port, '/', { cookie });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Mooring test');
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(String(page.headers['content-security-policy'])).not.toMatch(/script-src[^;]*unsafe-inline/);
    // localhost is our host too, and an Origin equal to ours is accepted.
    const viaLocalhost = await get(web.port, '/', {
      cookie,
      host: `localhost:${web.port}`,
      origin: `http://localhost:${web.port}`,
    });
    expect(viaLocalhost.status).toBe(200);
  });

  it('serves the router: queries, errors as data, and the live event stream over SSE', async () => {
    const headers = { cookie };
    const url = `http://127.0.0.1:${web.port}/trpc`;
    // The SSE stream, read raw: Node 20 has no EventSource, and the wire is what a browser gets.
    const abort = new AbortController();
    const res = await fetch(`${url}/events`, { headers, signal: abort.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    let text = '';
    // The headers arrived, so the subscription listens: start the servers now, so it sees one come up.
    void core.start();
    const until = Date.now() + 15_000;
    while (!/"state":"ready"/.test(text)) {
      if (Date.now() > until) throw new Error(`no ready status in: ${text.slice(0, 2000)}`);
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream ended early: ${text}`);
      text += new TextDecoder().decode(value);
    }
    abort.abort();
    expect(text).toMatch(/"type":"status"/);

    const client = createTRPCClient<AppRouter>({ links: [httpLink({ url, headers })] });
    const rows = await client.servers.list.query();
    expect(rows.map((r) => r.config.name)).toEqual(['everything']);
    expect(rows[0]!.status?.state).toBe('ready');
    const err = await client.servers.remove.mutate({ name: 'nope' }).catch((e: unknown) => e);
    expect((err as { data?: { mooring?: { code: string; hint?: string } } }).data?.mooring).toMatchObject({
      code: 'not_found',
    });
  });

  it('refuses an oversized body from its Content-Length (413) without reading the rest', async () => {
    const declared = 50 * 1024 * 1024;
    const first = Buffer.alloc(64 * 1024, 0x20);
    const r = await rawRequest(
      web.port,
      [
        'POST /trpc/servers.previewImport HTTP/1.1',
        `Host: 127.0.0.1:${web.port}`,
        `Cookie: ${cookie}`,
        'Content-Type: application/json',
        `Content-Length: ${declared}`,
      ],
      first,
    );
    // The answer came and the server closed the connection with 49.9 MB still unsent.
    expect(r.status).toBe(413);
    expect(r.sent).toBeLessThan(declared);
    expect(JSON.parse(r.body)).toMatchObject({
      error: { data: { httpStatus: 413, mooring: { code: 'usage', hint: expect.any(String) } } },
    });
    expect(JSON.parse(r.body).error.message).toContain(String(MAX_BODY_BYTES));
  });

  it('refuses a mutation that is not JSON (415) or has no length (411); the mutation never runs', async () => {
    const form = '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\neverything\r\n--b--\r\n';
    for (const type of [
      'multipart/form-data; boundary=b',
      'text/plain',
      'application/x-www-form-urlencoded',
    ]) {
      const r = await rawRequest(
        web.port,
        [
          'POST /trpc/servers.remove HTTP/1.1',
          `Host: 127.0.0.1:${web.port}`,
          `Cookie: ${cookie}`,
          `Content-Type: ${type}`,
          `Content-Length: ${Buffer.byteLength(form)}`,
        ],
        Buffer.from(form),
      );
      expect(r.status, type).toBe(415);
      expect(JSON.parse(r.body).error.data.mooring.message).toMatch(/accepts only application\/json/);
    }
    const chunk = JSON.stringify({ name: 'everything' });
    const chunked = await rawRequest(
      web.port,
      [
        'POST /trpc/servers.remove HTTP/1.1',
        `Host: 127.0.0.1:${web.port}`,
        `Cookie: ${cookie}`,
        'Content-Type: application/json',
        'Transfer-Encoding: chunked',
      ],
      Buffer.from(`${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`),
    );
    expect(chunked.status).toBe(411);
    expect((await core.servers.configs()).map((c) => c.name)).toEqual(['everything']);
  });

  it('accepts the largest legitimate body: a 2,000,000-character import text', async () => {
    const client = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `http://127.0.0.1:${web.port}/trpc`, headers: { cookie } })],
    });
    // Two bytes a character in UTF-8: about 4 MB of JSON, under the cap; the router then reads it.
    const err = await client.servers.previewImport
      .mutate({ text: 'é'.repeat(2_000_000), fileName: 'big.json' })
      .catch((e: unknown) => e);
    const data = (err as { data?: { httpStatus?: number; mooring?: { message: string } } }).data;
    expect(data?.httpStatus).not.toBe(413);
    expect(data?.mooring?.message).not.toMatch(/accepts at most/);
  });

  it('refuses to listen anywhere but loopback', async () => {
    await expect(startWebServer({ core, host: '0.0.0.0' })).rejects.toMatchObject({ code: 'usage' });
  });
});
