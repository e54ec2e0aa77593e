import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ViolationLog } from './violationLog';
import type { Refusal } from './syscallTrace';

const read: Refusal = { kind: 'read', target: '/home/u/.ssh/id_rsa', operation: 'open for reading' };
const write: Refusal = {
  kind: 'write',
  target: '/home/u/out.txt',
  operation: 'open for writing',
  allow: { write: '/home/u/out.txt' },
};

describe('ViolationLog', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'mooring-violations-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('a refusal recorded while an earlier write is still under way is counted once', async () => {
    const log = new ViolationLog(home);
    log.record('shut', read);
    // The first write starts; before it has finished, another refusal comes and its write starts too
    // (on a loaded machine the burst timer fires while the file is still being written).
    const first = log.flush();
    log.record('shut', write);
    const second = log.flush();
    await Promise.all([first, second]);
    expect((await log.list('shut')).map((v) => [v.kind, v.count])).toEqual([
      ['read', 1],
      ['write', 1],
    ]);
    // And on disk, as another process (`mooring mcp sandbox --show`) reads it.
    const other = new ViolationLog(home);
    expect((await other.list('shut')).map((v) => [v.kind, v.count])).toEqual([
      ['read', 1],
      ['write', 1],
    ]);
    await Promise.all([log.close(), other.close()]);
  });

  it('the same access again counts up its entry', async () => {
    const log = new ViolationLog(home);
    log.record('shut', read);
    await log.flush();
    log.record('shut', read);
    expect((await log.list('shut')).map((v) => [v.kind, v.count])).toEqual([['read', 2]]);
    await log.close();
    expect((await new ViolationLog(home).list('shut')).map((v) => v.count)).toEqual([2]);
  });
});
