// The audit log keeps every call that ran (docs/data-on-disk.md, "Data on disk"): a Mooring process calling a
// real server through the core, 8 calls at a time, is killed with SIGKILL mid-burst, several times. Every
// call it reported done before the kill has its line in the log; the calls the log lacks were all still in
// flight (started, not reported done), so there are at most as many as were in flight. The log is told apart
// call by call by each call's own argument hash (keyed with the home's audit key). And the server itself
// finds each call's line in the log when the call reaches it, 16 calls at once included (their lines go
// out in one write per tick).
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resultText } from '@shared/toolResult';
import { MooringCore } from '../../src-main/core/mooringCore';
import { AuditLog, summariseArgs } from '../../src-main/core/safety/auditLog';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { FILESYSTEM, RUN_TS, tempDir } from '../helpers/servers';

const CHILD = fileURLToPath(new URL('../fixtures/auditBurstChild.ts', import.meta.url));
const IN_FLIGHT = 8;
const KILLS = 4;

/** Runs the child until it reported `after` calls done (plus a random few more), then kills it with SIGKILL. */
function burstThenKill(home: string, after: number): Promise<{ started: Set<number>; done: Set<number> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [RUN_TS, CHILD, home, String(IN_FLIGHT)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const started = new Set<number>();
    const done = new Set<number>();
    const killAt = after + Math.floor(Math.random() * 50);
    let rest = '';
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d: Buffer) => {
      const lines = (rest + d.toString()).split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        const [what, n] = line.split(' ');
        if (what === 'start') started.add(Number(n));
        if (what === 'done') done.add(Number(n));
      }
      if (done.size >= killAt && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL'
        ? resolve({ started, done })
        : reject(new Error(`the child exited on its own (${code}): ${stderr}`)),
    );
  });
}

describe('the audit log across kill -9', () => {
  it(
    `every call reported done is logged; only calls in flight may be missing (${KILLS} kills)`,
    { timeout: 240_000 },
    async () => {
      for (let k = 0; k < KILLS; k++) {
        const home = tempDir('mooring-audit-kill-');
        const { started, done } = await burstThenKill(home, 150 + k * 100);
        const log = new AuditLog(home);
        const key = Buffer.from(readFileSync(log.keyFile, 'utf8').trim(), 'hex');
        const hashes = new Set((await log.read()).map((e) => e.args?.hmac));
        const logged = (n: number) => hashes.has(summariseArgs({ message: `m-${n}` }, key).hmac);
        const missing = [...started].filter((n) => !logged(n));
        expect(done.size).toBeGreaterThan(150 + k * 100 - 1);
        expect(
          [...done].filter((n) => !logged(n)),
          'calls reported done but not in the log',
        ).toEqual([]);
        expect(missing.length).toBeLessThanOrEqual(IN_FLIGHT);
        // Nothing that was never started is in the log (the lines are the calls').
        expect(hashes.size).toBeLessThanOrEqual(started.size + IN_FLIGHT);
      }
    },
  );
});

describe('the audit line is written before the request is sent', () => {
  it('the server reads each call’s line in the log when the call reaches it, 16 calls at once', async () => {
    const home = tempDir('mooring-audit-first-');
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({ servers: [{ name: 'files', command: 'node', args: [FILESYSTEM, home] }] }),
    );
    const core = await MooringCore.open({
      home,
      secretStore: new MemorySecretStore(),
      env: { ...process.env, MOORING_NO_SHELL_PATH: '1' },
    });
    try {
      await core.start();
      const log = new AuditLog(home);
      // The tool reads the audit log itself; each call asks for a different number of lines (all of
      // them), so each has its own argument hash. The first call also loads (makes) the audit key.
      const read = (n: number) =>
        core.tools.call(
          'mcp__files__read_text_file',
          { path: log.file, head: 100_000 + n },
          { client: 'test' },
        );
      const outcomes = [await read(0)];
      for (let round = 0; round < 5; round++)
        outcomes.push(...(await Promise.all(Array.from({ length: 16 }, (_, i) => read(1 + round * 16 + i)))));
      const key = Buffer.from(readFileSync(log.keyFile, 'utf8').trim(), 'hex');
      const unseen = outcomes.filter(
        (o) => o.decision !== 'auto' || !resultText(o.result).includes(summariseArgs(o.arguments, key).hmac),
      );
      expect(outcomes).toHaveLength(81);
      expect(
        unseen.map((o) => o.arguments),
        'calls whose line the server did not find',
      ).toEqual([]);
    } finally {
      await core.close();
    }
  });
});
