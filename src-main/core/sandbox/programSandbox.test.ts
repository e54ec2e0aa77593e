// The sandbox against hostile programs (docs/code-mode.md, "The sandbox"): each ends with a clear error,
// and the host stays responsive — the next program runs at once.
import { describe, expect, it } from 'vitest';
import { runProgram, type RunProgramOptions } from './programSandbox';

const echo = { key: 'echo', name: 'everything__echo' };
const calls: { name: string; args: unknown }[] = [];
const run = (code: string, more: Partial<RunProgramOptions> = {}) =>
  runProgram({
    code,
    functions: [echo],
    call: async (name, args) => {
      calls.push({ name, args });
      return { echoed: args };
    },
    ...more,
  });

describe('program sandbox', () => {
  it('runs a program: awaits tools, prints, returns', async () => {
    const r = await run(`
      const a = await tools.echo({ message: 'one' });
      const [b, c] = await Promise.all([tools.echo({ n: 2 }), tools.echo({ n: 3 })]);
      print('got', a.echoed.message, b.echoed.n + c.echoed.n);
      return { total: b.echoed.n + c.echoed.n };`);
    expect(r).toMatchObject({ ok: true, returned: '{"total":5}', printed: 'got one 5\n', calls: 3 });
  });

  it('a rejected call is an exception the program may catch', async () => {
    const r = await run(`try { await tools.echo({}); } catch (e) { return 'caught: ' + e.message; }`, {
      call: () => Promise.reject(new Error('denied by the person')),
    });
    expect(r).toMatchObject({ ok: true, returned: 'caught: denied by the person' });
  });

  it('an uncaught error ends the program with its message; a syntax error says so', async () => {
    expect(await run(`throw new TypeError('nope')`)).toMatchObject({
      ok: false,
      error: { kind: 'thrown', message: 'TypeError: nope' },
    });
    expect((await run(`return (;`)).error?.kind).toBe('syntax');
  });

  it('stops an infinite loop at its CPU limit, and the next program runs', async () => {
    const r = await run(`for (;;) {}`, { limits: { cpuMs: 200 } });
    expect(r.error).toEqual({
      kind: 'cpu_limit',
      message: expect.stringContaining('CPU time limit (200 ms)'),
    });
    expect(await run(`return 1 + 1`)).toMatchObject({ ok: true, returned: '2' });
  });

  it('stops a loop that catches every error, also in a promise job', async () => {
    const r = await run(`await tools.echo({}); for (;;) { try { for (;;) {} } catch {} }`, {
      limits: { cpuMs: 150 },
    });
    expect(r.error?.kind).toBe('cpu_limit');
  });

  it('stops a memory bomb at its memory limit', async () => {
    const r = await run(`const a = []; for (let i = 0; ; i++) a.push({ i, s: 'item ' + i });`, {
      limits: { memoryBytes: 8 * 1024 * 1024, cpuMs: 10_000 },
    });
    expect(r.error?.kind).toBe('memory_limit');
    expect(r.error?.message).toContain('memory limit (8 MB)');
    // A doubling string meets the engine's own string limit first: a RangeError the program sees.
    const doubling = await run(`let s = 'x'; for (;;) s += s;`, { limits: { memoryBytes: 8 * 1024 * 1024 } });
    expect(doubling.ok).toBe(false);
    expect(doubling.error?.message).toMatch(/string too long|memory limit/);
    expect(await run(`return 'still here'`)).toMatchObject({ ok: true, returned: 'still here' });
  });

  it('stops a huge output at its output limit, printed or returned', async () => {
    const printed = await run(`for (let i = 0; ; i++) print('line ' + i);`, {
      limits: { outputChars: 1000 },
    });
    expect(printed.error?.kind).toBe('output_limit');
    expect(printed.printed.length).toBeLessThanOrEqual(1000);
    const returned = await run(`return 'x'.repeat(5000);`, { limits: { outputChars: 1000 } });
    expect(returned.error?.kind).toBe('output_limit');
  });

  it('reaches no process, require, fetch, timers, modules or host objects', async () => {
    const r = await run(`
      const g = (0, eval)('this');
      const probe = {
        process: typeof process, require: typeof require, fetch: typeof fetch,
        setTimeout: typeof setTimeout, std: typeof std, os: typeof os,
        host: typeof __mooringHost, start: typeof __mooringStart, fnCtor: Function('return typeof process')(),
        ctorChain: tools.echo.constructor.constructor('return typeof require')(),
        globalKeys: Object.getOwnPropertyNames(g).filter((k) => /host|mooring|process|require/i.test(k)),
      };
      let imported = 'no';
      try { await import('fs'); imported = 'yes'; } catch (e) { imported = 'refused'; }
      return { ...probe, imported };`);
    expect(JSON.parse(r.returned!)).toEqual({
      process: 'undefined',
      require: 'undefined',
      fetch: 'undefined',
      setTimeout: 'undefined',
      std: 'undefined',
      os: 'undefined',
      host: 'undefined',
      start: 'undefined',
      fnCtor: 'undefined',
      ctorChain: 'undefined',
      globalKeys: [],
      imported: 'refused',
    });
  });

  it('prototype pollution and a replaced JSON stay inside the program', async () => {
    calls.length = 0;
    const r = await run(`
      Object.prototype.polluted = 'yes';
      JSON.stringify = () => '{"hijacked":true}';
      try { tools.echo = () => 'replaced'; } catch {}
      try { Object.defineProperty(tools, 'other', { value: 1 }); } catch {}
      await tools.echo(JSON.parse('{"__proto__": {"isAdmin": true}, "message": "hi"}'));
      return { replaced: typeof tools.other, same: String(tools.echo).includes('replaced') };`);
    expect(r.ok).toBe(true);
    expect(JSON.parse(r.returned!)).toEqual({ replaced: 'undefined', same: false });
    const args = calls[0]!.args as Record<string, unknown>;
    expect(args.message).toBe('hi');
    expect(args.hijacked).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
  });

  it('a program waiting for nothing ends; too many calls end it', async () => {
    expect((await run(`await new Promise(() => {});`)).error?.kind).toBe('stalled');
    const many = await run(`for (let i = 0; i < 50; i++) await tools.echo({ i });`, {
      limits: { maxCalls: 10 },
    });
    expect(many.error?.kind).toBe('call_limit');
    expect(many.calls).toBe(11);
  });

  it('cancel ends a program waiting on a call, and one that spins', async () => {
    const ac = new AbortController();
    let started!: () => void;
    const calling = new Promise<void>((resolve) => (started = resolve));
    const waiting = run(`await tools.echo({}); return 'finished';`, {
      signal: ac.signal,
      call: () => {
        started();
        return new Promise(() => {});
      },
    });
    await calling;
    ac.abort();
    expect((await waiting).error?.kind).toBe('cancelled');
    const spinning = new AbortController();
    const spin = run(`await tools.echo({}); for (;;) {}`, {
      signal: spinning.signal,
      limits: { cpuMs: 60_000 },
      call: async () => {
        spinning.abort();
        return {};
      },
    });
    expect((await spin).error?.kind).toBe('cancelled');
  });
});
