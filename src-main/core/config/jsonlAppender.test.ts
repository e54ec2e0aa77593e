// The home's one appender on real files and real processes: four processes appending to one file at once
// leave only whole lines, each process's in its order; appends made together go out in one fsync'd write
// (group commit); a torn last line from a crash gets a line of its own; a deleted file is not recreated
// when it must exist.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeJsonlAppender, jsonlAppender } from './jsonlAppender';
import { RUN_TS } from '../../../test/helpers/servers';

const CHILD = fileURLToPath(new URL('../../../test/fixtures/appendChild.ts', import.meta.url));
const dir = () => mkdtempSync(join(tmpdir(), 'mooring-append-'));

function runChild(file: string, who: string, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [RUN_TS, CHILD, file, who, String(count)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${who} exited ${code}: ${stderr}`)),
    );
  });
}

afterEach(() => vi.restoreAllMocks());

describe('jsonlAppender', () => {
  it('keeps every line whole when four processes append to one file', { timeout: 180_000 }, async () => {
    const file = join(dir(), 'shared.jsonl');
    const per = 200;
    await Promise.all(['a', 'b', 'c', 'd'].map((who) => runChild(file, who, per)));
    const text = readFileSync(file, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    // A spare empty line is allowed (a writer that saw another's write in progress starts a fresh line
    // to be safe; readers skip empty lines); every other line is one whole record.
    const records = text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { who: string; n: number });
    expect(records).toHaveLength(4 * per);
    for (const who of ['a', 'b', 'c', 'd'])
      expect(records.filter((r) => r.who === who).map((r) => r.n)).toEqual([...Array(per).keys()]);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('writes appends made together in one fsync, in call order', async () => {
    const home = dir();
    const file = join(home, 'logs', 'audit.jsonl');
    // The handle class is internal to node:fs/promises; spy on its datasync through any open handle.
    const probe = await open(join(home, 'probe'), 'w');
    const syncs = vi.spyOn(Object.getPrototypeOf(probe) as { datasync: () => Promise<void> }, 'datasync');
    await probe.close();
    const appender = jsonlAppender(file);
    await Promise.all(Array.from({ length: 100 }, (_, n) => appender.append({ n })));
    expect(syncs).toHaveBeenCalledTimes(1);
    await Promise.all(Array.from({ length: 3 }, (_, n) => appender.append({ n: 100 + n })));
    expect(syncs).toHaveBeenCalledTimes(2);
    const ns = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { n: number }).n);
    expect(ns).toEqual([...Array(103).keys()]);
    await closeJsonlAppender(file);
  });

  it("'written' resolves once the lines are in the file; one fsync follows for all of them, and close waits for it", async () => {
    const home = dir();
    const file = join(home, 'logs', 'audit.jsonl');
    const probe = await open(join(home, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
    await probe.close();
    // The fsync waits until the test lets it finish: the appends must resolve without it, the close not.
    const order: string[] = [];
    let release: (() => void) | undefined;
    let synced: { fd: number } | undefined;
    let syncStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (syncStarted = resolve));
    const real = proto.datasync;
    const syncs = vi.spyOn(proto, 'datasync').mockImplementation(function (this: unknown) {
      order.push('fsync started');
      synced = this as { fd: number };
      syncStarted();
      return new Promise<void>((resolve) => (release = resolve)).then(async () => {
        await real.call(this);
        order.push('fsync done');
      });
    });
    const appender = jsonlAppender(file);
    await Promise.all(Array.from({ length: 50 }, (_, n) => appender.append({ n }, { wait: 'written' })));
    await appender.append({ n: 50 }, { wait: 'written' });
    const lines = () => readFileSync(file, 'utf8').trim().split('\n');
    expect(lines()).toHaveLength(51);
    let closed = false;
    const closing = closeJsonlAppender(file).then(() => {
      closed = true;
      order.push('closed');
    });
    // The close starts the gathered fsync and waits for it: with the fsync held, a whole turn of the event
    // loop (every promise the close could settle meanwhile) leaves the handle open (a FileHandle's fd turns
    // -1 the moment its close is called) and the close pending.
    await started;
    await new Promise((r) => setImmediate(r));
    expect(synced!.fd).toBeGreaterThan(-1);
    expect(closed).toBe(false);
    expect(order).toEqual(['fsync started']);
    release!();
    await closing;
    expect(order).toEqual(['fsync started', 'fsync done', 'closed']);
    expect(syncs).toHaveBeenCalledTimes(1);
    expect(lines().map((l) => (JSON.parse(l) as { n: number }).n)).toEqual([...Array(51).keys()]);
  });

  it("'written' lines of one tick: the first is in the file at once, the rest in one write at the tick's end, in order", async () => {
    const file = join(dir(), 'audit.jsonl');
    const appender = jsonlAppender(file);
    await appender.append({ n: 0 }, { wait: 'written' }); // opens the handle
    const lines = () =>
      readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { n: number }).n);
    const first = appender.append({ n: 1 }, { wait: 'written' });
    expect(lines()).toEqual([0, 1]); // in place, before append returned
    const rest = [2, 3, 4].map((n) => appender.append({ n }, { wait: 'written' }));
    expect(lines()).toEqual([0, 1]); // gathered for the tick's one write
    // A synced record appended in the same tick comes after them: the tick's lines go out first.
    const synced = appender.append({ n: 5 });
    expect(lines()).toEqual([0, 1, 2, 3, 4]);
    await Promise.all([first, ...rest, synced]);
    expect(lines()).toEqual([0, 1, 2, 3, 4, 5]);
    // A new tick: its first line is written in place again; the next ones at the tick's end.
    await new Promise((r) => setImmediate(r));
    const again = appender.append({ n: 6 }, { wait: 'written' });
    const after = appender.append({ n: 7 }, { wait: 'written' });
    expect(lines()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    await new Promise<void>((r) => process.nextTick(r));
    expect(lines()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    await Promise.all([again, after]);
    await closeJsonlAppender(file);
  });

  it('starts on a fresh line after a torn one', async () => {
    const file = join(dir(), 'memory.jsonl');
    writeFileSync(file, '{"whole":1}\n{"torn":');
    await jsonlAppender(file).append({ after: true });
    // Another process left a fragment while this one's handle was open: the next write still starts clean.
    appendFileSync(file, '{"torn again');
    await jsonlAppender(file).append({ after: 2 });
    expect(readFileSync(file, 'utf8')).toBe(
      '{"whole":1}\n{"torn":\n{"after":true}\n{"torn again\n{"after":2}\n',
    );
    // The same for a line written in place ('written', on the open handle).
    appendFileSync(file, '{"torn a third time');
    await jsonlAppender(file).append({ after: 3 }, { wait: 'written' });
    await jsonlAppender(file).append({ after: 4 }, { wait: 'written' });
    expect(readFileSync(file, 'utf8')).toMatch(
      /\{"after":2\}\n\{"torn a third time\n\{"after":3\}\n\{"after":4\}\n$/,
    );
    await closeJsonlAppender(file);
  });

  it('fails with ENOENT instead of recreating a file that must exist', async () => {
    const file = join(dir(), 'conversation.jsonl');
    writeFileSync(file, '{"kind":"meta"}\n');
    const appender = jsonlAppender(file, { mustExist: true });
    await appender.append({ kind: 'message' });
    rmSync(file); // deleted by another process while this one holds a handle on it
    await expect(appender.append({ kind: 'message' })).rejects.toMatchObject({ code: 'ENOENT' });
    expect(() => statSync(file)).toThrow();
    await closeJsonlAppender(file);
  });

  it('recreates a deleted log that may be created, instead of writing into the removed file', async () => {
    const file = join(dir(), 'audit.jsonl');
    await jsonlAppender(file).append({ n: 1 });
    rmSync(file);
    await jsonlAppender(file).append({ n: 2 });
    expect(readFileSync(file, 'utf8')).toBe('{"n":2}\n');
    await closeJsonlAppender(file);
  });
});
