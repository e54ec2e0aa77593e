// A core owns what it starts (ARCHITECTURE.md, "The core as one object"): opened and closed 50 times with
// five real servers, a UI subscriber, the file watch and the diagnostics' history, it leaves nothing behind
// in this process — no listener, no active handle, no child process, no open file.
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionStatus } from '@shared/session';
import { uiEvents } from '../../src-main/core/api/eventStream';
import { createApiContext } from '../../src-main/core/api/router';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { processWatchdog } from '../../src-main/core/mcp/processWatchdog';
import { QUICK_CLOSE_STAGE_MS } from '../../src-main/core/mcp/stdioTransport';
import { everythingStdio, filesystemStdio, fixturePath, memoryStdio, tempDir } from '../helpers/servers';

const CYCLES = Number(process.env.CYCLES ?? 50);

/** The five servers: three reference servers from node_modules and two fixtures (one ignores stdin's end). */
function writeServers(home: string): string[] {
  const servers = [
    everythingStdio('everything'),
    memoryStdio(join(home, 'memory.jsonl'), 'memory'),
    filesystemStdio(home, 'files'),
    { name: 'echo', command: 'node', args: [fixturePath('benchEcho.mjs')] },
    { name: 'stubborn', command: 'node', args: [fixturePath('ignoresEof.mjs')] },
  ];
  writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers }));
  return servers.map((s) => s.name);
}

/** What this process holds now: listeners on `process`, active handles by type, child processes, open files. */
function holdings() {
  const listeners = process.eventNames().reduce((n, e) => n + process.listenerCount(e), 0);
  const handles: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) handles[r] = (handles[r] ?? 0) + 1;
  // The watchdog is one per Mooring process, not per core (mcp/processWatchdog.ts): it stays.
  const watchdog = String(processWatchdog()?.pid);
  const children = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d) && d !== watchdog)
    .filter((pid) => {
      try {
        // Field 4 of /proc/PID/stat is the parent's pid (after the command name in parentheses).
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
      } catch {
        return false; // exited meanwhile
      }
    });
  const files = readdirSync('/proc/self/fd').map((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).replace(/\d+/g, 'N');
    } catch {
      return 'closed';
    }
  });
  return { listeners, handles, children, files };
}

/** One open → start (five servers ready, a UI stream reading) → close. */
async function cycle(home: string, names: string[]): Promise<void> {
  const core = await MooringCore.open({
    home,
    secretStore: new MemorySecretStore(),
    session: { closeStageMs: QUICK_CLOSE_STAGE_MS },
  });
  const api = createApiContext(core);
  const ready = new Set<string>();
  const allReady = new Promise<void>((resolve, reject) => {
    const on = (s: SessionStatus) => {
      if (s.state === 'ready') ready.add(s.name);
      if (s.state === 'failed') reject(new Error(`${s.name} failed: ${s.error?.message}`));
      if (ready.size === names.length) resolve();
    };
    core.on('status', on);
  });
  const ac = new AbortController();
  const stream = uiEvents(core, ac.signal);
  expect((await stream.next()).value).toEqual({ type: 'connected' });
  await core.start({ watch: true, resumeTasks: true });
  // What a host that stays up starts besides: the scheduler (lease, timer, file watch) and the relay's socket.
  await core.schedules.own('lifecycle test');
  const relay = await core.listenForRelayedApprovals({ app: 'the lifecycle test' });
  await allReady;
  const echoed = await core.tools.call('mcp__echo__echo', { message: 'hi' }, { preApproved: true });
  expect(echoed.result.isError).toBe(false);
  // The UI heard the servers come up (the stream's queue held what it did not read yet).
  const seen = await stream.next();
  expect(seen.value?.type).toBeDefined();
  ac.abort();
  await stream.return(undefined);
  api.dispose();
  // The relay's socket is the core's too: closing the core closes it.
  expect(relay.endpoint).toBeTruthy();
  await core.close();
}

describe.runIf(process.platform === 'linux')('the core’s lifecycle', () => {
  it(
    `opened and closed ${CYCLES} times with five servers, leaves no listener, handle, process or file behind`,
    { timeout: 600_000 },
    async () => {
      const home = tempDir('mooring-lifecycle-');
      const names = writeServers(home);
      // Warm up: modules load, the SDK's and Node's lazily made singletons come into being.
      for (let i = 0; i < 3; i++) await cycle(home, names);
      const before = holdings();
      for (let i = 3; i < CYCLES; i++) await cycle(home, names);
      const after = holdings();
      expect(after.children, 'child processes').toEqual([]);
      expect(after.listeners, 'listeners on process').toBe(before.listeners);
      expect(after.handles, 'active handles').toEqual(before.handles);
      expect(after.files.sort(), 'open files').toEqual(before.files.sort());
    },
  );
});
