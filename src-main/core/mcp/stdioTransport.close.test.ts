// Close in stages (docs/sessions.md, "Session actor states"): EOF, wait, SIGTERM to the group, wait, SIGKILL.
// A real child that ignores EOF; the stage timers are faked, so each test says exactly when SIGTERM goes out
// (no timing thresholds), and the child really ends on it.
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServerConfigSchema } from '@shared/config';
import { SessionActor } from './sessionActor';
import { STAGE_WAIT_MS, StdioTransport } from './stdioTransport';

const FIXTURE = join(import.meta.dirname, '../../../test/fixtures/servers/ignoresEof.mjs');

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function ready(t: { onStderr: (line: string) => void }): Promise<void> {
  return new Promise((resolve) => {
    t.onStderr = (line) => {
      if (line.includes('ready')) resolve();
    };
  });
}

/** Calls of process.kill with SIGTERM to a process group, as the stage timers run. */
function sigterms() {
  const kill = vi.spyOn(process, 'kill');
  return () => kill.mock.calls.filter(([pid, signal]) => Number(pid) < 0 && signal === 'SIGTERM').length;
}

async function startTransport(closeStageMs?: number): Promise<StdioTransport> {
  const hooks = { onStderr: (_line: string) => undefined as void };
  const up = ready(hooks);
  const t = new StdioTransport({
    command: process.execPath,
    args: [FIXTURE],
    env: { PATH: process.env.PATH ?? '' },
    watchdog: null,
    onStderr: (line) => hooks.onStderr(line),
    ...(closeStageMs !== undefined ? { closeStageMs } : {}),
  });
  await t.start();
  await up;
  return t;
}

describe('stdio close stages', () => {
  it.each([
    ['closeStageMs: 100', 100, 100],
    ['no closeStageMs: the default 2 s', undefined, STAGE_WAIT_MS],
  ])(
    'a server that ignores EOF gets SIGTERM when the stage ends, not before (%s)',
    async (_, closeStageMs, wait) => {
      const t = await startTransport(closeStageMs);
      const sent = sigterms();
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const closing = t.close();
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(sent()).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(sent()).toBe(1);
      vi.useRealTimers();
      await closing;
      expect(t.exit?.signal).toBe('SIGTERM');
    },
  );

  it("a session's closeStageMs reaches its stdio transport", async () => {
    const config = ServerConfigSchema.parse({
      name: 'ignores-eof',
      command: process.execPath,
      args: [FIXTURE],
    });
    const actor = new SessionActor({ config, closeStageMs: 50 });
    await actor.start();
    const eof = new Promise<void>((resolve) =>
      actor.on('log', (l) => {
        if (l.text.includes('stdin ended')) resolve();
      }),
    );
    const sent = sigterms();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const closing = actor.close();
    // The close noted the tree with the process watchdog (a real round trip) and ended stdin: from here
    // on only the faked stage timer stands between EOF and SIGTERM.
    await eof;
    await vi.advanceTimersByTimeAsync(49);
    expect(sent()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent()).toBe(1);
    vi.useRealTimers();
    await closing;
    expect(actor.status().state).toBe('closed');
  });
});
