// What each `mooring serve` client read (servedReads.ts): kept per client, one entry per server and tool,
// a label once seen never lost; and, through the gate's own flowOf, what makes the client's next call to
// another server a flow. End to end (a client reading a page and sending a secret on through Sharing, over
// both protocol eras): test/integration/injectionSuite.test.ts.
import { describe, expect, it } from 'vitest';
import { flowDestination, flowOf } from '@shared/dataFlow';
import { ServedReads } from './servedReads';

describe('ServedReads', () => {
  it('keeps each client apart, one entry per tool, labels only ever added', () => {
    const reads = new ServedReads();
    reads.record('claude', { server: 'web', tool: 'fetch', openWorld: true, untrusted: true });
    reads.record('claude', { server: 'web', tool: 'fetch', openWorld: true });
    reads.record('claude', { server: 'files', tool: 'read', openWorld: false, sensitive: true });
    expect(reads.of('claude')).toEqual([
      { server: 'web', tool: 'fetch', openWorld: true, untrusted: true },
      { server: 'files', tool: 'read', openWorld: false, sensitive: true },
    ]);
    expect(reads.of('cursor')).toEqual([]);
  });

  it("makes a call to another server's read-only tool a flow, and one to the same server none", () => {
    const reads = new ServedReads();
    reads.record('claude', { server: 'files', tool: 'read', openWorld: false });
    const log = flowDestination('notes', 'log', { readOnlyHint: true, openWorldHint: true });
    expect(flowOf(reads.of('claude'), log)?.to).toEqual({ server: 'notes', tool: 'log' });
    const same = flowDestination('files', 'write', { readOnlyHint: false });
    expect(flowOf(reads.of('claude'), same)).toBeUndefined();
    expect(flowOf(reads.of('cursor'), log)).toBeUndefined();
  });
});
