// The traffic wrapper: every message both ways reaches the tap, methods keep their own `this` (a
// transport with private fields still works), and other properties read through.
import { describe, expect, it } from 'vitest';
import type { Transport } from '@modelcontextprotocol/client';
import { MAX_TRACE_CHARS, tracedTransport, traceText } from './trafficTrace';

class PrivateTransport {
  #sent: unknown[] = [];
  onmessage?: (m: unknown) => void;
  readonly stderr = 'the stream';
  async start() {}
  async send(m: unknown) {
    this.#sent.push(m);
  }
  async close() {}
  sent() {
    return this.#sent;
  }
}

describe('tracedTransport', () => {
  it('taps sends and receives, and passes everything else through', async () => {
    const inner = new PrivateTransport();
    const seen: [string, unknown][] = [];
    const t = tracedTransport(inner as unknown as Transport, (d, m) => seen.push([d, m]));
    const got: unknown[] = [];
    t.onmessage = (m) => got.push(m);
    await t.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    inner.onmessage!({ jsonrpc: '2.0', id: 1, result: {} });
    expect(inner.sent()).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    expect(got).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    expect(seen.map(([d]) => d)).toEqual(['→', '←']);
    expect((t as unknown as PrivateTransport).stderr).toBe('the stream');
  });

  it('cuts a long message, saying how much was left out', () => {
    const text = traceText({ data: 'x'.repeat(MAX_TRACE_CHARS * 2) });
    expect(text.length).toBeLessThan(MAX_TRACE_CHARS + 60);
    expect(text).toMatch(/… \(\d+ more characters\)$/);
  });
});
