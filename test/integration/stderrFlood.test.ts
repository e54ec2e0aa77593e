// A server that writes 100 MB to stderr must not cost Mooring memory in proportion: only the ring buffer's
// worth is kept, the rest dropped as it arrives. Measured on the real CLI process (`mooring mcp test`): its
// peak RSS (VmHWM) with the flood, against the same command with a server that writes nothing.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StderrLines } from '../../src-main/core/mcp/stderrLines';
import { ROOT, fixturePath, tempDir } from '../helpers/servers';

/** Runs `mooring mcp test flood` and reports its exit, output and peak resident memory in MB. */
function peakOfMcpTest(floodMb: number) {
  const home = tempDir('mooring-flood-');
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({
      servers: [
        {
          name: 'flood',
          command: 'node',
          args: [fixturePath('stderrFlood.mjs')],
          env: { FLOOD_MB: String(floodMb), FLOOD_LONG_ONLY: '1' },
        },
      ],
    }),
  );
  const child = spawn(process.execPath, [join(ROOT, 'bin/mooring.mjs'), 'mcp', 'test', 'flood', '--json'], {
    env: { ...process.env, MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let peakKb = 0;
  const sample = () => {
    try {
      const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) peakKb = Math.max(peakKb, Number(m[1]));
    } catch {
      /* exited */
    }
  };
  const timer = setInterval(sample, 20);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise<{ code: number | null; out: string; peakMb: number }>((resolve) =>
    child.on('exit', (code) => {
      clearInterval(timer);
      resolve({ code, out, peakMb: peakKb / 1024 });
    }),
  );
}

describe.runIf(process.platform === 'linux')('a server flooding stderr', () => {
  it('100 MB of stderr grows the Mooring process by far less than that', { timeout: 120_000 }, async () => {
    const quiet = await peakOfMcpTest(0);
    const flood = await peakOfMcpTest(100);
    expect(quiet.code, quiet.out).toBe(0);
    expect(flood.code, flood.out).toBe(0);
    expect(JSON.parse(flood.out)).toMatchObject({ ok: true, tools: ['echo'] });
    // The ring buffer holds 1,000 lines of at most 4,000 bytes (8 MB as UTF-16): a generous bound. Before,
    // every kept line pinned the 64 KB pipe chunk it was sliced from, and the peak grew by ~85 MB.
    expect(flood.peakMb - quiet.peakMb).toBeLessThan(40);
  });
});

describe('stderr lines', () => {
  it('splits chunks into lines, joins a line across chunks, cuts a long line and says how much it dropped', () => {
    const lines: string[] = [];
    const s = new StderrLines((l) => lines.push(l), 10);
    s.push(Buffer.from('one\r\ntw'));
    s.push(Buffer.from('o\n\n  \nthree is too long for ten'));
    s.push(Buffer.from(' bytes\nlast'));
    s.end();
    expect(lines).toEqual(['one', 'two', 'three is t … (21 more bytes of this line dropped)', 'last']);
  });
});
