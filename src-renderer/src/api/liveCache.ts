// How a live event reaches the query cache without an older answer overwriting it (useLiveEvents). A fetch
// on the wire when an event arrives may have been answered before the event: its answer is older than the
// event. TanStack Query joins a first load in flight instead of starting another (query.js `fetch`: only a
// query that has data cancels its running fetch), and an event patched into a query whose fetch is running
// is overwritten when that fetch lands. Both would lose the event for good when no later one follows (a
// server row that stays "connecting…" after its server is ready).
import type { QueryClient, QueryFilters, QueryKey } from '@tanstack/react-query';

/** Fetches what `filters` match again, from a request sent after now (a running fetch is dropped). */
export function refetchFromNow(qc: QueryClient, filters: QueryFilters = {}): void {
  // A first load on the wire: dropped and started again (reset refetches the queries somebody shows).
  void qc.resetQueries({
    ...filters,
    predicate: (q) =>
      q.state.data === undefined && q.state.fetchStatus === 'fetching' && (filters.predicate?.(q) ?? true),
  });
  // A query with data: invalidation cancels its running fetch and fetches again.
  void qc.invalidateQueries(filters);
}

/**
 * Applies an event's change to one cached query. While that query is being fetched, the change is not
 * patched in (the fetch's answer would replace it): the query is fetched again from now, and that answer
 * holds the change (the core announces a change after making it).
 */
export function patchLive<T>(
  qc: QueryClient,
  queryKey: QueryKey,
  update: (old: T | undefined) => T | undefined,
): void {
  if (qc.getQueryState(queryKey)?.fetchStatus === 'fetching') {
    refetchFromNow(qc, { queryKey, exact: true });
    return;
  }
  qc.setQueryData<T>(queryKey, update);
}
