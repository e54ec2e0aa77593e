// The three contenders every benchmark compares (README, "Performance"): Mooring's core (the full path), the raw
// MCP SDK client, and a bare newline-JSON echo child over a pipe (the floor). Same servers, same
// machine, same run.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ServerConfigSchema, type ServerConfig } from '@shared/config';
import { MooringCore, type MooringCoreOptions } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';

import {
  BENCH_ECHO_PATH as BENCH_ECHO,
  EVERYTHING_PATH as EVERYTHING,
  FLOOR_ECHO_PATH as FLOOR_ECHO,
  rawCommand,
} from './paths';
import type { Contender } from './stats';

export { ROOT, SETSID } from './paths';

/** A stdio server both contenders start the same way: `node <script> [args]`. */
export interface ServerSpec {
  name: string;
  script: string;
  args?: string[];
  /** Raises the stdio message cap for servers that return big results. */
  maxMessageMB?: number;
  /** Runs it confined (docs/confinement.md): no writes but its temporary folder, no network. */
  sandboxEnabled?: boolean;
  /** Environment variables the server is started with (Mooring's contender only). */
  env?: Record<string, string>;
}

export const everything = (name = 'everything'): ServerSpec => ({
  name,
  script: EVERYTHING,
  args: ['stdio'],
});
export const benchEcho = (name = 'benchecho', extra: Partial<ServerSpec> = {}): ServerSpec => ({
  name,
  script: BENCH_ECHO,
  ...extra,
});

function configOf(s: ServerSpec): ServerConfig {
  return ServerConfigSchema.parse({
    name: s.name,
    command: process.execPath,
    args: [s.script, ...(s.args ?? [])],
    ...(s.maxMessageMB ? { maxMessageMB: s.maxMessageMB } : {}),
    ...(s.sandboxEnabled ? { sandboxEnabled: true } : {}),
    ...(s.env ? { env: s.env } : {}),
  });
}

/** Mooring's core over a throwaway MOORING_HOME, secrets in memory; the caller calls start(). */
export async function openCore(
  servers: ServerSpec[],
  session?: MooringCoreOptions['session'],
): Promise<{ core: MooringCore; dispose: () => Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), 'mooring-bench-'));
  const core = await MooringCore.open({
    home,
    secretStore: new MemorySecretStore(),
    extraServers: servers.map(configOf),
    ...(session ? { session } : {}),
  });
  // toolCallRunner.ts adds one broker listener per call in flight: 16 in flight trips Node's default
  // limit of 10 and floods stderr with MaxListenersExceededWarning (the runner's, not the bench's).
  core.approvals.setMaxListeners(64);
  return {
    core,
    dispose: async () => {
      await core.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** The raw SDK as a host would use it: connect, then list the tools (Mooring's "ready" includes that). */
export async function openRawClient(s: ServerSpec, opts: { maxBufferSize?: number } = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    ...rawCommand(s.script, s.args),
    stderr: 'pipe',
    ...(opts.maxBufferSize ? { maxBufferSize: opts.maxBufferSize } : {}),
  });
  transport.stderr?.on('data', () => undefined); // drained, like Mooring's stderr ring buffer
  const client = new Client({ name: 'bench-raw', version: '0.0.0' });
  await client.connect(transport);
  await client.listTools();
  return client;
}

/** The floor: one request line out, one response line back, matched by id. Nothing else. */
export class FloorClient {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, (result: unknown) => void>();
  private nextId = 1;

  constructor() {
    // Detached like Mooring's children (own session, same scheduling group treatment).
    this.child = spawn(process.execPath, [FLOOR_ECHO], { stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      const msg = JSON.parse(line) as { id: number; result: unknown };
      const resolve = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      resolve?.(msg.result);
    });
  }

  call(message: string): Promise<unknown> {
    return this.callTool('echo', { message });
  }

  /** One `tools/call` line out, its answer line back (the floor answers `echo` and `image`). */
  callTool(name: string, args: Record<string, unknown>): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.stdin!.write(
        `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })}\n`,
      );
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.child.once('close', () => resolve());
      this.child.stdin!.end();
    });
  }
}

/** Fails loudly when a contender answers something other than the echo: a benchmark of errors is no benchmark. */
export function expectEcho(text: unknown, who: string): void {
  if (text !== 'Echo: hi') throw new Error(`${who} answered ${JSON.stringify(text)} instead of "Echo: hi"`);
}

/**
 * The echo call through Mooring's core (by the model's name of the tool) and through a raw SDK client, each
 * checking its answer: the two contenders every tool-call suite measures side by side.
 */
export function echoContenders(
  core: MooringCore,
  modelName: string,
  raw: Client,
): readonly [Contender<'mooring'>, Contender<'sdk'>] {
  return [
    {
      name: 'mooring',
      call: async () => {
        const out = await core.tools.call(modelName, { message: 'hi' }, { client: 'bench' });
        const p = out.result.parts[0];
        expectEcho(p?.kind === 'text' ? p.text : p, 'Mooring');
      },
    },
    {
      name: 'sdk',
      call: async () => {
        const r = await raw.callTool({ name: 'echo', arguments: { message: 'hi' } });
        expectEcho((r.content as { text?: string }[])[0]?.text, 'raw SDK');
      },
    },
  ];
}
