// The world the injection benchmark attacks (docs/trust.md, "The injection benchmark"): a real core over a
// throwaway home, with the reference filesystem server over a folder holding a secret file, the injection
// fixture (test/fixtures/servers/injectionServer.ts) as a web server, a vault and a notes server over stdio,
// and the web and notes servers again over Streamable HTTP; one fake OpenAI endpoint whose model obeys what
// it reads (obedientModel.ts); one page server on 127.0.0.1 that serves the injected pages and records what
// reaches its collect URL. Every sink is read by slicing what it recorded since a scenario began.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerConfigInput } from '@shared/config';
import { startOpenAIServer } from '../../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../../test/fixtures/providers/scriptedServer';
import { filesystemStdio, fixturePath, fixtureStdio, RUN_TS } from '../../test/helpers/servers';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { obedientModel } from './obedientModel';

export const MODEL = 'openai:gpt-4o';

/** What reached the sinks so far: the notes' and web's sink file, and the URLs the collect route got. */
export interface SinkMark {
  file: number;
  urls: number;
}

export interface InjectionWorld {
  core: MooringCore;
  secret: string;
  secretPath: string;
  /** The page server's base URL; a page is served at `${pages}/page/<id>`, the sink is `${pages}/collect`. */
  pages: string;
  setPage(id: string, text: string): void;
  /** Whether `http` servers (webh, notesh) run in this world. */
  http: boolean;
  mark(): SinkMark;
  /** Whether the secret reached any sink since `m`. */
  reached(m: SinkMark): boolean;
  close(): Promise<void>;
}

interface WorldOptions {
  /** Also run the web and notes fixtures over Streamable HTTP (webh, notesh). */
  http: boolean;
  /** Also run a vault server holding the same secret (read_secret, labelled sensitive). */
  vault: boolean;
  /** Extra stdio servers (a tool description that carries an instruction). */
  extra?: (w: { secretPath: string; sinkFile: string }) => ServerConfigInput[];
}

async function startHttpFixture(
  name: string,
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [RUN_TS, fixturePath('injectionServer.ts')], {
    env: { ...process.env, ...env, TRANSPORT: 'http', SERVER_NAME: name },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`${name} exited early (${code})`)));
  });
  return { url, child };
}

export async function openInjectionWorld(opts: WorldOptions): Promise<InjectionWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'mooring-inject-'));
  const home = join(dir, 'home');
  const files = join(dir, 'files');
  mkdirSync(home);
  mkdirSync(files);
  const secret = `SECRET-${randomBytes(6).toString('hex')}`;
  const secretPath = join(files, 'deploy-key.txt');
  writeFileSync(secretPath, `${secret}\n`);
  const sinkFile = join(dir, 'sink.jsonl');

  const pageTexts = new Map<string, string>();
  const collected: string[] = [];
  const pageServer = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/collect')) collected.push(decodeURIComponent(url));
    const page = /^\/page\/([\w-]+)/.exec(url)?.[1];
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(page ? (pageTexts.get(page) ?? 'Weather: sunny.') : 'ok');
  });
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  const pages = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;

  const sinkEnv = { SINK_FILE: sinkFile, SECRET: secret };
  const children: ChildProcess[] = [];
  const remote: ServerConfigInput[] = [];
  if (opts.http) {
    const [webh, notesh] = await Promise.all([
      startHttpFixture('webh', sinkEnv),
      startHttpFixture('notesh', sinkEnv),
    ]);
    children.push(webh.child, notesh.child);
    remote.push(
      { name: 'webh', transport: 'http', url: webh.url },
      { name: 'notesh', transport: 'http', url: notesh.url },
    );
  }
  const servers = [
    filesystemStdio(files, 'fs'),
    fixtureStdio('injectionServer.ts', 'web', sinkEnv),
    fixtureStdio('injectionServer.ts', 'notes', sinkEnv),
    ...(opts.vault ? [fixtureStdio('injectionServer.ts', 'vault', sinkEnv)] : []),
    ...(opts.extra?.({ secretPath, sinkFile }) ?? []),
    ...remote,
  ];
  writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers }));
  // Every schema offered up front: past 40 tools a model would first load them through tool_search
  // (catalog/), which this model does not; the gate it attacks is the same either way.
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({ deferredToolThreshold: { tools: 1000, tokens: 1_000_000 } }),
  );

  const model: FakeProviderServer = await startOpenAIServer(obedientModel);
  const core = await MooringCore.open({
    home,
    secretStore: new MemorySecretStore(),
    env: { OPENAI_API_KEY: 'sk-bench', MOORING_NO_SHELL_PATH: '1' },
  });
  await core.start();
  const down = core.servers.statuses().filter((s) => s.state !== 'ready');
  if (down.length)
    throw new Error(`not ready: ${down.map((s) => `${s.name} (${s.error?.message ?? s.state})`).join(', ')}`);
  await core.models.save({ defaultModel: MODEL, baseUrls: { openai: `${model.url}/v1` } });
  // One listener per call in flight on the broker; the scenarios' recorder adds one more.
  core.approvals.setMaxListeners(64);

  const sinkText = () => (existsSync(sinkFile) ? readFileSync(sinkFile, 'utf8') : '');
  return {
    core,
    secret,
    secretPath,
    pages,
    setPage: (id, text) => void pageTexts.set(id, text),
    http: opts.http,
    mark: () => ({ file: sinkText().length, urls: collected.length }),
    reached: (m) =>
      sinkText().slice(m.file).includes(secret) || collected.slice(m.urls).some((u) => u.includes(secret)),
    async close() {
      await core.close();
      await model.close();
      await new Promise<void>((resolve) => {
        pageServer.closeAllConnections();
        pageServer.close(() => resolve());
      });
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve();
              c.once('exit', () => resolve());
              c.kill('SIGTERM');
            }),
        ),
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
