// Sending (stdioTransport.ts): the tick's first message goes out at once and the ones after it in the
// same tick leave together when the tick ends. Against a real newline-JSON echo child: every message of a
// burst arrives, in order, whether sent in one tick or across ticks, and the stream is corked only until
// the tick ends (a message sent later goes out too, and a large burst waits for drain, not forever).
import { join } from 'node:path';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { StdioTransport } from './stdioTransport';

const ECHO = join(import.meta.dirname, '../../../test/fixtures/servers/benchEchoFloor.mjs');
const open: StdioTransport[] = [];
afterEach(async () => void (await Promise.all(open.splice(0).map((t) => t.close()))));

/** A started transport to the echo child, and the texts of the answers in the order they arrived. */
async function echoTransport(): Promise<{
  t: StdioTransport;
  answers: string[];
  arrived: (n: number) => Promise<void>;
}> {
  const t = new StdioTransport({ command: process.execPath, args: [ECHO], env: {}, watchdog: null });
  open.push(t);
  const answers: string[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  t.onmessage = (m) => {
    const r = m as { result?: { content: { text: string }[] } };
    answers.push(r.result!.content[0]!.text);
    for (const w of waiters.filter((x) => answers.length >= x.n)) w.resolve();
  };
  await t.start();
  const arrived = (n: number) =>
    answers.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }));
  return { t, answers, arrived };
}

const call = (id: number, message: string): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: { message } },
});

describe('stdio transport sends', () => {
  it('every message of a tick arrives, in order, and messages of later ticks too', async () => {
    const { t, answers, arrived } = await echoTransport();
    const burst = Array.from({ length: 200 }, (_, i) => t.send(call(i, `a${i}`)));
    await Promise.all(burst);
    await arrived(200);
    // A later tick, one message alone: the cork of the burst's tick is gone.
    await new Promise((r) => setImmediate(r));
    await t.send(call(200, 'alone'));
    await arrived(201);
    // Then a burst spread over microtasks of one tick, and the next tick.
    const spread = Array.from({ length: 50 }, async (_, i) => {
      for (let k = 0; k < i % 5; k++) await Promise.resolve();
      await t.send(call(300 + i, `s${i}`));
    });
    await Promise.all(spread);
    await arrived(251);
    expect(answers.slice(0, 201)).toEqual([
      ...Array.from({ length: 200 }, (_, i) => `Echo: a${i}`),
      'Echo: alone',
    ]);
    expect(answers.slice(201).sort()).toEqual(Array.from({ length: 50 }, (_, i) => `Echo: s${i}`).sort());
  });

  it('a burst larger than the pipe takes: the sends wait for drain and everything arrives', async () => {
    const { t, arrived } = await echoTransport();
    const big = 'x'.repeat(64 * 1024);
    await Promise.all(Array.from({ length: 40 }, (_, i) => t.send(call(i, big))));
    await arrived(40);
  });
});
