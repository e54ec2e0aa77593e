// An event that arrives while its query's fetch is on the wire: that fetch may have been answered before
// the event, so its answer must not be the last word. Real QueryClient and observers; each fetch is answered
// by the test, in the order a slow page sees them.
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { patchLive, refetchFromNow } from './liveCache';

/** A query whose every fetch waits until the test answers it. */
function pendingQuery(qc: QueryClient, key: string[]) {
  const answers: ((v: string[]) => void)[] = [];
  const observer = new QueryObserver<string[]>(qc, {
    queryKey: key,
    queryFn: () => new Promise<string[]>((resolve) => answers.push(resolve)),
    retry: false,
  });
  const stop = observer.subscribe(() => {});
  const settled = () =>
    new Promise<void>((resolve) => {
      const check = () => {
        const s = qc.getQueryState(key);
        if (s?.fetchStatus === 'idle' && s.data !== undefined) {
          unsub();
          resolve();
        }
      };
      const unsub = qc.getQueryCache().subscribe(check);
      check();
    });
  return { answers, stop, settled, data: () => qc.getQueryData<string[]>(key) };
}

describe('live events and fetches on the wire', () => {
  const clients: QueryClient[] = [];
  const client = () => {
    const qc = new QueryClient();
    clients.push(qc);
    return qc;
  };
  afterEach(() => clients.splice(0).forEach((qc) => qc.clear()));

  it('a plain invalidation joins a first load in flight, whose older answer then stays (the hazard)', async () => {
    const qc = client();
    const q = pendingQuery(qc, ['servers']);
    expect(q.answers).toHaveLength(1);
    void qc.invalidateQueries({ queryKey: ['servers'] });
    q.answers[0]!(['connecting']);
    await q.settled();
    expect(q.answers).toHaveLength(1);
    expect(q.data()).toEqual(['connecting']);
    q.stop();
  });

  it('refetchFromNow starts a first load again; the later answer is the one kept', async () => {
    const qc = client();
    const q = pendingQuery(qc, ['servers']);
    refetchFromNow(qc, { queryKey: ['servers'] });
    expect(q.answers).toHaveLength(2);
    q.answers[0]!(['connecting']);
    q.answers[1]!(['ready']);
    await q.settled();
    expect(q.data()).toEqual(['ready']);
    q.stop();
  });

  it('refetchFromNow on a query with data drops its running refetch too', async () => {
    const qc = client();
    const q = pendingQuery(qc, ['servers']);
    q.answers[0]!(['a']);
    await q.settled();
    void qc.refetchQueries({ queryKey: ['servers'] });
    expect(q.answers).toHaveLength(2);
    refetchFromNow(qc, { queryKey: ['servers'] });
    expect(q.answers).toHaveLength(3);
    q.answers[1]!(['stale']);
    q.answers[2]!(['fresh']);
    await q.settled();
    expect(q.data()).toEqual(['fresh']);
    q.stop();
  });

  it('patchLive patches a settled query in place, without a fetch', async () => {
    const qc = client();
    const q = pendingQuery(qc, ['approvals']);
    q.answers[0]!([]);
    await q.settled();
    patchLive<string[]>(qc, ['approvals'], (list) => [...(list ?? []), 'req-1']);
    expect(q.data()).toEqual(['req-1']);
    expect(q.answers).toHaveLength(1);
    q.stop();
  });

  it('patchLive on a query being fetched fetches it again instead, so the older answer cannot drop the change', async () => {
    const qc = client();
    const q = pendingQuery(qc, ['approvals']);
    patchLive<string[]>(qc, ['approvals'], (list) => [...(list ?? []), 'req-1']);
    expect(q.answers).toHaveLength(2);
    q.answers[0]!([]);
    q.answers[1]!(['req-1']);
    await q.settled();
    expect(q.data()).toEqual(['req-1']);
    q.stop();
  });
});
