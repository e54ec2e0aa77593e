// A stdio server that never answers the handshake: it was Mooring that stopped waiting (and closed its
// stdin, so the process then exits with code 0). The error must say so, with the wait and what to check,
// not blame the server for exiting.
import { afterEach, describe, expect, it } from 'vitest';
import { MooringError } from '../../src-main/core/errors';
import { SessionActor } from '../../src-main/core/mcp/sessionActor';
import { cfg } from '../helpers/servers';

const actors: SessionActor[] = [];
afterEach(async () => {
  await Promise.all(actors.splice(0).map((a) => a.close()));
});

describe('handshake timeout', () => {
  it('says Mooring timed out, after how long, and what to check — not that the process exited', async () => {
    // Reads stdin and never writes a byte; exits 0 at stdin EOF, as many real programs do.
    const silent = cfg({
      name: 'silent',
      command: 'node',
      args: ['-e', 'process.stdin.resume(); process.stderr.write("waiting for input\\n")'],
    });
    const a = new SessionActor({ config: silent, connectTimeoutMs: 1500 });
    actors.push(a);
    const err = await a.start().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MooringError);
    const e = err as MooringError;
    expect(e.code).toBe('timeout');
    expect(e.message).not.toMatch(/exited/);
    expect(e.message).toMatch(/did not finish the MCP handshake within 1\.5 s/);
    expect(e.message).toMatch(/Mooring stopped waiting/);
    expect(e.message).toContain('waiting for input'); // the stderr tail still helps
    expect(e.hint).toMatch(/stdout/);
    expect(a.status()).toMatchObject({ state: 'failed', error: { code: 'timeout' } });
  });
});
