// The connection doctor and the limits at the terminal, through the real `mooring` command: a 404 is "nothing
// at this path" with its status line and never the page's HTML; TLS failures are named (a plain-http port
// behind https://, an expired or a self-signed certificate); a 401 from a server without OAuth metadata asks for
// a header, not a sign-in; a 5 MB result passes by default, and Mooring's own message limit is never blamed on
// the server. Each named fix is run as written where it can work. `mooring settings get|set|unset` show and
// change every setting, checked. Real servers on 127.0.0.1; certificates made with openssl.
import { execFileSync } from 'node:child_process';
import { createServer as createHttpServer, request, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMooring } from '../helpers/cli';
import { NO_KEYCHAIN, STACK_TRACE } from '../helpers/cliPipes';
import { fixtureStdio, startEverythingHttp, tempDir } from '../helpers/servers';

const KEYCHAIN = Boolean(process.env.WITH_KEYRING_INNER);
let home: string;
let certs: string;
let everything: Awaited<ReturnType<typeof startEverythingHttp>>;
const servers: Server[] = [];
const mooring = (args: string[], opts: { env?: Record<string, string>; input?: string } = {}) =>
  runMooring(home, args, opts);

/** The `mooring …` command a hint names, as arguments (after the last colon of the hint line). */
function namedCommand(stderr: string): string[] {
  const hint = stderr.split('\n').find((l) => l.startsWith('hint:')) ?? '';
  const m = /mooring (mcp [^()\n]*?)\s*(?:\(|\.?$)/.exec(hint);
  expect(m, `a command in: ${hint}`).not.toBeNull();
  return m![1]!.trim().split(/\s+/);
}

const listen = (server: Server) =>
  new Promise<string>((resolve) => {
    servers.push(server);
    server.listen(0, '127.0.0.1', () => resolve(`127.0.0.1:${(server.address() as AddressInfo).port}`));
  });

const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: certs, stdio: 'ignore' });

/** A CA, a leaf it signed that expired yesterday, and a self-signed leaf, for 127.0.0.1. */
function makeCertificates(): void {
  const ip = ['-addext', 'subjectAltName=IP:127.0.0.1'];
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Mooring Test CA',
  );
  openssl(
    'req',
    '-new',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'old.key',
    '-out',
    'old.csr',
    '-subj',
    '/CN=127.0.0.1',
  );
  writeFileSync(join(certs, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  openssl(
    'x509',
    '-req',
    '-in',
    'old.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'old.pem',
    '-days',
    '-1',
    '-extfile',
    'san.ext',
  );
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'self.key',
    '-out',
    'self.pem',
    '-days',
    '2',
    '-subj',
    '/CN=127.0.0.1',
    ...ip,
  );
}

const https = (name: 'old' | 'self') =>
  listen(
    createHttpsServer(
      { key: readFileSync(join(certs, `${name}.key`)), cert: readFileSync(join(certs, `${name}.pem`)) },
      (_req, res) => res.end('{}'),
    ),
  );

/** Answers 401 (no OAuth metadata anywhere) unless the request carries `Authorization: Bearer let-me-in`;
 * then it passes the request on to server-everything. */
function credentialGate(target: string) {
  return listen(
    createHttpServer((req, res) => {
      if (req.headers.authorization !== 'Bearer let-me-in') {
        res.writeHead(401, { 'content-type': 'text/html' }).end('<html><body>Unauthorized</body></html>');
        return;
      }
      const to = new URL(target);
      const upstream = request(
        { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      req.pipe(upstream);
    }),
  );
}

const add = (name: string, url: string) => mooring(['mcp', 'add', name, '--url', url]);

beforeAll(async () => {
  home = tempDir('mooring-doctor-home-');
  certs = tempDir('mooring-doctor-certs-');
  makeCertificates();
  everything = await startEverythingHttp('streamableHttp');
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({ servers: [fixtureStdio('terminalServer.ts', 'term')] }),
  );
}, 60_000);
afterAll(async () => {
  for (const s of servers) s.close();
  await everything?.stop();
});

describe('the connection doctor', () => {
  it('404: nothing at this path, with the status line and never the HTML; the named fix works', async () => {
    const origin = new URL(everything.url).origin;
    expect((await add('wrongpath', `${origin}/nothing-here`)).code).toBe(0);
    const r = await mooring(['mcp', 'test', 'wrongpath']);
    expect(r.code).toBe(1);
    const out = r.stdout + r.stderr;
    expect(out).toContain(
      `Nothing at ${origin}/nothing-here (HTTP 404 Not Found): is the URL the server's MCP endpoint (often /mcp or /sse)?`,
    );
    expect(out).not.toMatch(/<html|<!DOCTYPE|<pre>/i);
    const fix = namedCommand(r.stdout.replace(/^failed[^\n]*\n/, ''));
    expect(fix).toEqual(['mcp', 'set', 'wrongpath', 'url', `${origin}/mcp`]);
    expect((await mooring(fix)).code).toBe(0);
    expect((await mooring(['mcp', 'test', 'wrongpath'])).code).toBe(0);
  });

  it('TLS to a plain-http port: says the port speaks plain HTTP; the named fix works', async () => {
    const plain = new URL(everything.url);
    expect((await add('tlsplain', `https://${plain.host}/mcp`)).code).toBe(0);
    const r = await mooring(['mcp', 'test', 'tlsplain']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('this port speaks plain HTTP; use http://');
    expect(r.stdout).not.toContain('fetch failed');
    const fix = namedCommand(r.stdout.replace(/^failed[^\n]*\n/, ''));
    expect(fix).toEqual(['mcp', 'set', 'tlsplain', 'url', `http://${plain.host}/mcp`]);
    expect((await mooring(fix)).code).toBe(0);
    expect((await mooring(['mcp', 'test', 'tlsplain'])).code).toBe(0);
  });

  it('an expired certificate and a self-signed one are named as such', async () => {
    const expired = await https('old');
    const selfSigned = await https('self');
    expect((await add('expired', `https://${expired}/mcp`)).code).toBe(0);
    expect((await add('selfsigned', `https://${selfSigned}/mcp`)).code).toBe(0);
    // The expired leaf's CA is trusted, so its expiry is the one thing wrong with it.
    const old = await mooring(['mcp', 'test', 'expired'], {
      env: { NODE_EXTRA_CA_CERTS: join(certs, 'ca.pem') },
    });
    expect(old.stdout).toMatch(/The TLS certificate of 127\.0\.0\.1:\d+ has expired/);
    const self = await mooring(['mcp', 'test', 'selfsigned']);
    expect(self.stdout).toMatch(/presents a self-signed certificate/);
    for (const r of [old, self]) {
      expect(r.code).toBe(1);
      expect(r.stdout).not.toContain('fetch failed');
    }
  });

  it('401 without OAuth metadata: add a header with --secret-header, never a sign-in that fails the same way', async () => {
    const gate = await credentialGate(everything.url);
    const url = `http://${gate}/mcp`;
    expect((await add('keyed', url)).code).toBe(0);
    for (const args of [
      ['mcp', 'test', 'keyed'],
      ['mcp', 'login', 'keyed', '--no-browser'],
    ]) {
      const r = await mooring(args);
      expect(r.code).toBe(1);
      const out = r.stdout + r.stderr;
      expect(out).toMatch(/wants credentials \(HTTP 401\) and offers no OAuth sign-in/);
      expect(out).toContain('--secret-header');
      expect(out).not.toMatch(/Dynamic Client Registration|mooring mcp login/);
      expect(out).not.toMatch(STACK_TRACE);
    }
    const fix = namedCommand((await mooring(['mcp', 'call', 'keyed', 'echo'])).stderr);
    expect(fix).toEqual([
      'mcp',
      'add',
      'keyed',
      '--replace',
      '--url',
      url,
      '--secret-header',
      'Authorization',
    ]);
    // The value comes from standard input (a script); it is kept in the keychain only.
    const fixed = await runMooring(home, fix, {
      input: 'Bearer let-me-in\n',
      ...(KEYCHAIN ? {} : { unset: NO_KEYCHAIN }),
    });
    if (KEYCHAIN) {
      expect(fixed.code, fixed.stderr).toBe(0);
      expect((await mooring(['mcp', 'test', 'keyed'])).code).toBe(0);
    } else expect(fixed.stderr).toMatch(/keychain/);
  });
});

describe('results larger than a message limit', () => {
  it('a 5 MB result passes by default; under a lower limit the error is Mooring’s, and its fix works', async () => {
    const ok = await mooring(['mcp', 'call', 'term', 'big', '{"mb":5}', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect((JSON.parse(ok.stdout) as { text: string }).text).toHaveLength(5 * 1024 * 1024);

    expect((await mooring(['mcp', 'set', 'term', 'maxMessageMB', '4'])).code).toBe(0);
    const r = await mooring(['mcp', 'call', 'term', 'big', '{"mb":5}']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /The result of term\/big was 5\.0 MB, over the 4 MB Mooring accepts in one message/,
    );
    expect(r.stderr).toMatch(/the server did nothing wrong/);
    expect(r.stderr).not.toMatch(/the server answered with error|-32001/);
    const fix = namedCommand(r.stderr);
    expect(fix).toEqual(['mcp', 'set', 'term', 'maxMessageMB', '8']);
    expect((await mooring(fix)).code).toBe(0);
    expect((await mooring(['mcp', 'call', 'term', 'big', '{"mb":5}', '--json'])).code).toBe(0);
    const refused = await mooring(['mcp', 'set', 'term', 'maxMessageMB', '500']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/at most 64/);
  }, 120_000);
});

describe('mooring settings', () => {
  it('shows every setting, changes one with validation, and puts it back', async () => {
    const all = await mooring(['settings', 'get']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain('maxToolIterations = 25\n');
    expect(all.stdout).toContain('largeResults.share = 0.2\n');
    expect(all.stdout).toContain('registryUrl = (not set)\n');
    expect(JSON.parse((await mooring(['settings', 'get', '--json'])).stdout)).toMatchObject({
      maxToolIterations: 25,
    });

    expect((await mooring(['settings', 'set', 'maxToolIterations', '40'])).stdout).toBe(
      'maxToolIterations = 40\n',
    );
    expect((await mooring(['settings', 'get', 'maxToolIterations'])).stdout).toBe('40\n');
    expect(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8'))).toMatchObject({
      maxToolIterations: 40,
    });
    expect((await mooring(['settings', 'set', 'largeResults.share', '0.5'])).code).toBe(0);
    expect((await mooring(['settings', 'set', 'titlesFromModel', 'false'])).code).toBe(0);
    expect(
      (await mooring(['settings', 'set', 'largeResults.contextWindows', '{"ollama:tiny":4096}'])).code,
    ).toBe(0);

    for (const [args, why] of [
      [['maxToolIterations', '0'], /maxToolIterations cannot be 0: must be at least 1/],
      [['logLevel', 'verbose'], /It takes one of: debug, info/],
      [['registryUrl', 'not-a-url'], /must be a full URL/],
      [['yolo', 'maybe'], /yolo cannot be "maybe"/],
      [['nope', '1'], /There is no setting "nope"/],
    ] as const) {
      const r = await mooring(['settings', 'set', ...args, '--json']);
      expect(r.code).toBe(2);
      const doc = JSON.parse(r.stdout) as { ok: boolean; code: string; error: string; hint?: string };
      expect(doc).toMatchObject({ ok: false, code: 'usage' });
      expect(`${doc.error} ${doc.hint ?? ''}`).toMatch(why);
    }
    expect(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8'))).toMatchObject({
      maxToolIterations: 40,
    });
    expect((await mooring(['settings', 'unset', 'maxToolIterations'])).stdout).toBe(
      'maxToolIterations = 25\n',
    );
  });
});
