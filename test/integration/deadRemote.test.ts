// A remote server that stops (docs/sessions.md, "Session actor states"): killing a real Streamable HTTP
// server (server-everything) turns its session from ready to reconnecting as soon as the break is seen —
// its event stream breaks, or the first request finds nobody there — not at the next keepalive minutes
// later; after the reconnect budget it is failed, and the call's error and the status say why in words
// (connection refused), never a bare "fetch failed".
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SessionStatus } from '@shared/session';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { startEverythingHttp, tempDir } from '../helpers/servers';

const cores: MooringCore[] = [];
const servers: { stop: () => Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(cores.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.stop()));
});

/** The next status of `server` that `match` accepts (or the current one, if it does already). */
function statusWhere(
  core: MooringCore,
  server: string,
  match: (s: SessionStatus) => boolean,
): Promise<SessionStatus> {
  return new Promise((resolve) => {
    const on = (s: SessionStatus) => {
      if (s.name !== server || !match(s)) return;
      core.off('status', on);
      resolve(s);
    };
    core.on('status', on);
  });
}

async function openWith(name: string): Promise<{ core: MooringCore; stop: () => Promise<void> }> {
  const server = await startEverythingHttp('streamableHttp');
  // Stopped once: a child killed by a signal keeps exitCode null, so a second stop would wait forever.
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= server.stop());
  servers.push({ stop });
  const home = tempDir('mooring-dead-remote-');
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({ servers: [{ name, transport: 'http', url: server.url }] }),
  );
  const core = await MooringCore.open({ home, secretStore: new MemorySecretStore() });
  cores.push(core);
  const ready = statusWhere(core, name, (s) => s.state === 'ready');
  await core.start();
  await ready;
  return { core, stop };
}

const NOT_BARE =
  /Nothing is listening at http:\/\/127\.0\.0\.1|connection refused \(ECONNREFUSED\)|closed by the server|reset by the server/;

describe('a remote server that stops', () => {
  it('turns reconnecting when its stream breaks, then failed, with the cause in words', async () => {
    const { core, stop } = await openWith('far');
    const broken = statusWhere(core, 'far', (s) => s.state === 'reconnecting');
    await stop();
    const reconnecting = await broken;
    expect(reconnecting.state).toBe('reconnecting');
    const failed = await statusWhere(core, 'far', (s) => s.state === 'failed');
    expect(failed.error?.message).toMatch(NOT_BARE);
    expect(failed.error?.message).not.toMatch(/^Could not connect: fetch failed$/);
    expect(core.servers.logs('far').map((l) => l.text)).toEqual(
      expect.arrayContaining([expect.stringMatching(/stopped answering|connection lost/)]),
    );
  });

  it('a call right after the break fails saying why, and the session goes reconnecting', async () => {
    const { core, stop } = await openWith('near');
    const broken = statusWhere(core, 'near', (s) => s.state !== 'ready');
    await stop();
    const call = core.tools.call('mcp__near__echo', { message: 'hi' }, { client: 'test', preApproved: true });
    await expect(call).rejects.toThrow(NOT_BARE);
    expect((await broken).state).not.toBe('ready');
  });
});
