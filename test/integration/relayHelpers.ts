// Real processes on one MOORING_HOME for the relay tests: `mooring web` (the app, driven through its
// router as the dialogs are) and `mooring serve --stdio` (launched by the SDK's own client).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '../../src-main/core/api/router';
import type { ApprovalRequest } from '../../shared/approval';
import type { UiEvent } from '../../shared/wire';
import { FILESYSTEM, ROOT, tempDir } from '../helpers/servers';
import { webEvents } from '../helpers/webEvents';

export const BIN = join(ROOT, 'bin/mooring.mjs');
export const text = (r: { content?: unknown }) =>
  ((r.content ?? []) as { type: string; text?: string }[])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');

/** A home whose only server is server-filesystem, written directly (so write_file is enabled). */
export function fsHome(fsRoot: string): string {
  const home = tempDir('mooring-relay-home-');
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({
      servers: [{ name: 'files', transport: 'stdio', command: 'node', args: [FILESYSTEM, fsRoot] }],
    }),
  );
  return home;
}

export const childEnv = (home: string) => ({
  ...(process.env as Record<string, string>),
  MOORING_HOME: home,
  MOORING_NO_SHELL_PATH: '1',
});

/** Starts `mooring web --json --no-open`, signs in with its one-time link, returns a router client. */
export async function startWeb(home: string) {
  const child = spawn(process.execPath, [BIN, 'web', '--json', '--no-open'], {
    env: childEnv(home),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done) throw new Error(`mooring web printed nothing: ${stderr}`);
  const url = new URL((JSON.parse(first.value as string) as { url: string }).url);
  const setCookie = await new Promise<string>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: url.port,
        path: `${url.pathname}${url.search}`,
        headers: { host: url.host },
      },
      (res) => {
        res.resume();
        resolve(String(res.headers['set-cookie']));
      },
    );
    req.on('error', reject);
    req.end();
  });
  const cookie = setCookie.split(';')[0]!;
  const trpc = createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${url.origin}/trpc`, headers: { cookie } })],
  });
  // What the app's UI is told, from now on: the tests wait on it (an approval shown, one resolved).
  const events = webEvents(url.origin, cookie);
  child.once('exit', () => events.close());
  await events.connected;
  return { child, trpc, events, stderr: () => stderr };
}

export async function startServe(
  home: string,
  name: string,
  timeoutSeconds: number,
  env: Record<string, string> = {},
) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'serve', '--stdio', '--approval-timeout', String(timeoutSeconds)],
    env: { ...childEnv(home), ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d));
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

export type Web = Awaited<ReturnType<typeof startWeb>>;

/** An approval the app was asked and has not seen answered, for `tool` (from `client`, when given). */
function openApproval(
  all: UiEvent[],
  want: { tool: string; client?: string; skip: Set<string> },
): ApprovalRequest | undefined {
  const resolved = new Set(all.flatMap((e) => (e.type === 'approvalResolved' ? [e.id] : [])));
  return all.find(
    (e): e is Extract<UiEvent, { type: 'approval' }> =>
      e.type === 'approval' &&
      !resolved.has(e.request.id) &&
      !want.skip.has(e.request.id) &&
      e.request.tool === want.tool &&
      (!want.client || !!e.request.client?.startsWith(`${want.client} `)),
  )?.request;
}

/**
 * Waits until the app is asked to approve `tool` (from `client`, when given): the event its dialog opens
 * on. One the app still holds: an answered one whose resolution is still on its way is passed over.
 */
export async function appApproval(web: Web, tool = 'write_file', client?: string): Promise<ApprovalRequest> {
  const skip = new Set<string>();
  for (;;) {
    const req = await web.events.until(
      (all) => openApproval(all, { tool, client, skip }),
      `the app to be asked about ${tool}`,
    );
    if ((await web.trpc.approvals.pending.query()).some((p) => p.id === req.id)) return req;
    skip.add(req.id);
  }
}

/**
 * The app and one serving process on one home whose only server is server-filesystem: `mooring web` and
 * `mooring serve --stdio` (its client named `client`), for a describe's beforeAll; `close` ends both.
 */
export async function webAndServe(opts: { prefix: string; client: string; approvalTimeoutSeconds: number }) {
  const fsRoot = tempDir(`mooring-${opts.prefix}-fs-`);
  const home = fsHome(fsRoot);
  const web = await startWeb(home);
  const serve = await startServe(home, opts.client, opts.approvalTimeoutSeconds).catch((err: unknown) => {
    web.child.kill('SIGTERM');
    throw err;
  });
  const close = async () => {
    await serve.client.close();
    if (web.child.exitCode === null) web.child.kill('SIGTERM');
  };
  return { fsRoot, home, web, serve, close };
}
