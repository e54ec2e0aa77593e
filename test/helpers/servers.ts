// Where the real servers live, and configs that start them from node_modules (never npx at test time).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ServerConfigSchema, type ServerConfig, type ServerConfigInput } from '../../shared/config';
import type { LogLine } from '../../shared/session';

export const ROOT = resolve(import.meta.dirname, '../..');
const nm = (p: string) => join(ROOT, 'node_modules', p);
export const EVERYTHING = nm('@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM = nm('@modelcontextprotocol/server-filesystem/dist/index.js');
export const MEMORY = nm('@modelcontextprotocol/server-memory/dist/index.js');
/** The extension's example MCP App servers (npm `@modelcontextprotocol/server-<name>`), run with `--stdio`. */
export const extAppsExample = (name: 'system-monitor' | 'budget-allocator' | 'basic-react' | 'pdf') =>
  nm(`@modelcontextprotocol/server-${name}/dist/index.js`);
/** Runs a TypeScript fixture in one process (tsx's loaders registered in it): `node RUN_TS FILE.ts ARGS…`. */
export const RUN_TS = join(ROOT, 'test/fixtures/runTs.mjs');
export const BIND_LOOPBACK = join(ROOT, 'test/fixtures/bindLoopback.cjs');
export const fixturePath = (name: string) => join(ROOT, 'test/fixtures/servers', name);

export const cfg = (input: ServerConfigInput): ServerConfig => ServerConfigSchema.parse(input);

export const everythingStdio = (name = 'everything', extra: Partial<ServerConfigInput> = {}) =>
  cfg({ name, command: 'node', args: [EVERYTHING, 'stdio'], ...extra });
export const filesystemStdio = (root: string, name = 'fs') =>
  cfg({ name, command: 'node', args: [FILESYSTEM, root] });
export const memoryStdio = (file: string, name = 'memory') =>
  cfg({ name, command: 'node', args: [MEMORY], env: { MEMORY_FILE_PATH: file } });
/** A TypeScript fixture server under test/fixtures/servers, run through tsx's loaders (RUN_TS). */
export const fixtureStdio = (
  file: string,
  name = 'fixture',
  env: Record<string, string> = {},
  extra: Partial<ServerConfigInput> = {},
) => cfg({ name, command: 'node', args: [RUN_TS, fixturePath(file)], env, ...extra });

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
    s.on('error', rej);
  });
}

/** Starts server-everything over HTTP ('streamableHttp' or 'sse') on 127.0.0.1; resolves when it listens. */
export async function startEverythingHttp(
  mode: 'streamableHttp' | 'sse',
): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-r', BIND_LOOPBACK, EVERYTHING, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`server-everything ${mode} did not start`)), 60_000);
    const onData = (d: Buffer) => {
      if (/listening|running/i.test(d.toString())) {
        clearTimeout(timer);
        res();
      }
    };
    child.stderr!.on('data', onData);
    child.stdout!.on('data', onData);
    child.once('exit', (code) => rej(new Error(`server-everything exited early (${code})`)));
  });
  const url = `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`;
  return {
    url,
    child,
    stop: () =>
      new Promise((res) => {
        if (child.exitCode !== null) return res();
        child.once('exit', () => res());
        child.kill('SIGKILL');
      }),
  };
}

export const tempDir = (prefix = 'mooring-test-') => mkdtempSync(join(tmpdir(), prefix));

/** Polls until fn returns truthy (events are preferred; this is for process-level facts). */
export async function waitFor<T>(
  fn: () => T | Promise<T>,
  what: string,
  ms = 60_000,
): Promise<NonNullable<T>> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Resolves with the first line a session logs that matches `pattern` (a fixture's stderr saying what it
 * is doing, a host note): call it before the step that makes the line, then await it.
 */
export function nextLog(
  session: {
    on(event: 'log', fn: (l: LogLine) => void): unknown;
    off(event: 'log', fn: (l: LogLine) => void): unknown;
  },
  pattern: RegExp,
): Promise<LogLine> {
  return new Promise((resolve) => {
    const onLog = (l: LogLine) => {
      if (!pattern.test(l.text)) return;
      session.off('log', onLog);
      resolve(l);
    };
    session.on('log', onLog);
  });
}

export const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
