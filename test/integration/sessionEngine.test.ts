// The session engine against real processes: the fixture server and the reference servers from npm.
import { afterEach, describe, expect, it } from 'vitest';
import { MooringError } from '../../src-main/core/errors';
import { SessionActor } from '../../src-main/core/mcp/sessionActor';
import { SessionPool } from '../../src-main/core/mcp/sessionPool';
import type { ToolsChange } from '../../src-main/core/mcp/types';
import { cfg, everythingStdio, fixtureStdio, isAlive, nextLog, waitFor } from '../helpers/servers';

const text = (r: { content?: unknown }) =>
  ((r.content as Array<{ type: string; text?: string }>) ?? []).map((c) => c.text ?? '').join('');

const actors: SessionActor[] = [];
const pools: SessionPool[] = [];
afterEach(async () => {
  await Promise.all([...actors.splice(0).map((a) => a.close()), ...pools.splice(0).map((p) => p.closeAll())]);
});
async function started(config = fixtureStdio('engineServer.ts')) {
  const a = new SessionActor({ config });
  actors.push(a);
  await a.start();
  return a;
}
async function rejection(p: Promise<unknown>): Promise<MooringError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'expected the promise to reject').toBeInstanceOf(MooringError);
  return err as MooringError;
}

describe('session actor on server-everything (stdio)', () => {
  it('lists tools, calls echo, returns an image, runs many calls concurrently', async () => {
    const a = await started(everythingStdio());
    expect(a.status().state).toBe('ready');
    const names = a.tools().map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-tiny-image', 'get-sum']));
    expect(text(await a.tool('echo')!.call({ message: 'hi' }))).toContain('hi');

    const img = await a.tool('get-tiny-image')!.call({});
    const image = (img.content as Array<{ type: string; mimeType?: string; data?: string }>).find(
      (c) => c.type === 'image',
    );
    expect(image?.mimeType).toBe('image/png');
    expect(Buffer.from(image!.data!, 'base64').subarray(1, 4).toString()).toBe('PNG');

    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => a.tool('get-sum')!.call({ a: i, b: 1000 })),
    );
    results.forEach((r, i) => expect(text(r)).toContain(String(i + 1000)));
    expect(a.status().metrics.calls).toBe(42);
  });
});

describe('session actor on the fixture server', () => {
  it('a child killed mid-call fails the call in flight, reconnects, and keeps the same tool objects', async () => {
    const a = await started();
    const echo = a.tool('echo')!;
    const slow = a.tool('slow')!;
    const pid1 = Number(text(await a.tool('pid')!.call({})));
    const arrived = nextLog(a, /slow started/);
    const inFlight = slow.call({ ms: 20_000 });
    await arrived; // the server is running the call
    process.kill(pid1, 'SIGKILL');
    const err = await rejection(inFlight);
    expect(err.code).toBe('transport_closed');
    expect(err.message).toMatch(/not retried/);
    // The next call waits for the new session and succeeds on it.
    expect(text(await echo.call({ text: 'after' }))).toBe('echo: after');
    expect(a.tool('echo')).toBe(echo);
    expect(a.tool('slow')).toBe(slow);
    const pid2 = Number(text(await a.tool('pid')!.call({})));
    expect(pid2).not.toBe(pid1);
    expect(a.status().metrics.reconnects).toBe(1);
  });

  it('a hanging tool times out and the session stays usable', async () => {
    const a = await started();
    const err = await rejection(a.tool('hang')!.call({}, { timeoutMs: 300 }));
    expect(err.code).toBe('timeout');
    expect(err.hint).toMatch(/timeout/i);
    expect(text(await a.tool('echo')!.call({ text: 'still here' }))).toBe('echo: still here');
    expect(a.status().state).toBe('ready');
  });

  it('cancels a call through its abort signal', async () => {
    const a = await started();
    const ac = new AbortController();
    const arrived = nextLog(a, /hang started/);
    const p = a.tool('hang')!.call({}, { signal: ac.signal });
    await arrived; // the server is running the call: the abort must reach it on the wire
    ac.abort();
    const err = await rejection(p);
    expect(err.code).toBe('cancelled');
    expect(text(await a.tool('echo')!.call({ text: 'x' }))).toBe('echo: x');
  });

  it('refreshes on tools/list_changed, logs the change, keeps calls in flight running', async () => {
    const a = await started();
    const changes: ToolsChange[] = [];
    a.on('tools', (c) => changes.push(c));
    const echo = a.tool('echo')!;
    const inFlight = a.tool('slow')!.call({ ms: 400 });
    await a.tool('add_tool')!.call({ name: 'fresh' });
    await waitFor(() => changes.find((c) => c.added.includes('fresh')), 'list_changed refresh');
    expect(a.tool('fresh')).toBeDefined();
    expect(text(await a.tool('fresh')!.call({}))).toBe('I am fresh');
    expect(text(await inFlight)).toBe('slept 400');
    expect(a.tool('echo')).toBe(echo);
    expect(a.logs.toArray().some((l) => l.source === 'host' && l.text.includes('+fresh'))).toBe(true);

    const fresh = a.tool('fresh')!;
    await a.tool('remove_tool')!.call({ name: 'fresh' });
    await waitFor(() => changes.find((c) => c.removed.includes('fresh')), 'removal refresh');
    expect(fresh.removed).toBe(true);
    expect((await rejection(fresh.call({}))).code).toBe('not_found');
  });

  it('reports garbage on stdout without breaking the session', async () => {
    const a = await started(fixtureStdio('engineServer.ts', 'garbage', { FIXTURE_GARBAGE_AT_START: '1' }));
    expect(text(await a.tool('garbage')!.call({}))).toBe('ok after garbage');
    const warnings = a.logs.toArray().filter((l) => l.level === 'warning' && /not JSON-RPC/.test(l.text));
    expect(warnings.length).toBeGreaterThanOrEqual(2);
    expect(a.status().state).toBe('ready');
  });

  it('drops an oversized response line, fails that call at once, and carries on', async () => {
    const a = await started(fixtureStdio('engineServer.ts', 'fixture', {}, { maxMessageMB: 4 }));
    const err = await rejection(a.tool('big')!.call({ mb: 5 }));
    expect(err.code).toBe('protocol_error');
    // Mooring's own limit, said so: never "the server answered with error".
    expect(err.message).toMatch(/over the 4 MB Mooring accepts in one message/);
    expect(err.message).not.toMatch(/the server answered/);
    expect(text(await a.tool('big')!.call({ mb: 1 }))).toHaveLength(1024 * 1024);
    expect(a.status().state).toBe('ready');
  });

  it('kills the whole process group on close (grandchildren too)', async () => {
    const a = await started(fixtureStdio('engineServer.ts', 'gc', { FIXTURE_GRANDCHILD: '1' }));
    const gpid = Number(text(await a.tool('grandchild_pid')!.call({})));
    const pid = Number(text(await a.tool('pid')!.call({})));
    expect(isAlive(gpid)).toBe(true);
    await a.close();
    await waitFor(() => !isAlive(gpid) && !isAlive(pid), 'the process group to die');
    expect(a.status().state).toBe('closed');
  });
});

describe('connect failures', () => {
  it('a missing command says it was not found on PATH', async () => {
    const a = new SessionActor({ config: cfg({ name: 'nope', command: 'definitely-not-a-command-xyz' }) });
    actors.push(a);
    const err = await rejection(a.start());
    expect(err.code).toBe('connect_failed');
    expect(err.message).toMatch(/not found on PATH/);
    expect(err.hint).toMatch(/full path/);
    expect(a.status().state).toBe('failed');
  });

  it('a server that exits at start shows its stderr; the pool keeps the others working', async () => {
    const pool = new SessionPool();
    pools.push(pool);
    await pool.sync([
      fixtureStdio('engineServer.ts', 'broken', { FIXTURE_FAIL_START: '1' }),
      fixtureStdio('engineServer.ts', 'good'),
    ]);
    const broken = pool.get('broken')!.status();
    expect(broken.state).toBe('failed');
    expect(broken.error?.message).toMatch(/exited \(code 3\)/);
    expect(broken.error?.message).toMatch(/refusing to start/);
    expect(pool.get('good')!.status().state).toBe('ready');
    expect(text(await pool.get('good')!.tool('echo')!.call({ text: 'ok' }))).toBe('echo: ok');
  });
});

describe('session pool', () => {
  it('starts servers in parallel, restarts a changed one, closes removed ones, closes all once', async () => {
    const pool = new SessionPool();
    pools.push(pool);
    const one = fixtureStdio('engineServer.ts', 'one');
    const two = fixtureStdio('engineServer.ts', 'two');
    await pool.sync([one, two]);
    expect(pool.statuses().map((s) => [s.name, s.state])).toEqual([
      ['one', 'ready'],
      ['two', 'ready'],
    ]);
    const firstOne = pool.get('one');
    const pidTwo = Number(text(await pool.get('two')!.tool('pid')!.call({})));
    await pool.sync([{ ...one, timeoutSeconds: 30 }]);
    expect(pool.get('one')).not.toBe(firstOne);
    expect(pool.get('two')).toBeUndefined();
    await waitFor(() => !isAlive(pidTwo), 'removed server to exit');
    const pidOne = Number(text(await pool.get('one')!.tool('pid')!.call({})));
    const c1 = pool.closeAll();
    expect(pool.closeAll()).toBe(c1);
    await c1;
    await waitFor(() => !isAlive(pidOne), 'all servers to exit');
  });
});

describe('message size cap', () => {
  it('a server configured with a larger maxMessageMB may return a message over 4 MB', async () => {
    const a = new SessionActor({
      config: fixtureStdio('engineServer.ts', 'bigok', {}, { maxMessageMB: 16 }),
    });
    actors.push(a);
    await a.start();
    expect(text(await a.tool('big')!.call({ mb: 6 }))).toHaveLength(6 * 1024 * 1024);
  });
});
