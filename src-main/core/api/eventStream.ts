// The one live stream to the UI (ARCHITECTURE.md, "The path of an event"): every event of the core's bus, as
// the `UiEvent` its declaration says (shared/wire.ts, LIVE_EVENTS), through one subscription. One stream, not
// five: a browser allows only six HTTP/1.1 connections per host, and five SSE streams plus a call waiting for
// approval plus the approval's answer would be seven, a deadlock. A UI that connects or reconnects first gets
// the state as of now (sessions, each recent call's latest state), then every change: a snapshot plus deltas,
// so it heals without polling.
//
// Each subscriber has its own bounded queue. A consumer that falls behind (a stalled SSE reader, a renderer
// busy for seconds, while a server floods its log) does not grow this process's memory: past
// SUBSCRIBER_QUEUE_LIMIT the queue is dropped and the consumer is told to `resync`, then gets the snapshot
// again; every event it applies after that carries what orders it (`seq`, a message's index).
import { LIVE_EVENTS, type CoreEvents, type LiveEventName, type LiveWire, type UiEvent } from '@shared/wire';
import type { BusEvent, EventBus } from '../eventBus';
import type { ConfiguredServers } from '../services/configuredServers';
import type { ToolService } from '../calls/toolService';
import { toWireEvent } from './wire';

/** Events one subscriber may have waiting; past it the subscriber resyncs instead. */
export const SUBSCRIBER_QUEUE_LIMIT = 1000;

/** What the stream reads of the core: its bus, and the state a snapshot is made of. */
export interface EventSource {
  events: EventBus<CoreEvents>;
  servers: Pick<ConfiguredServers, 'statuses'>;
  tools: Pick<ToolService, 'snapshot'>;
}

/** The live events whose wire form needs the core (LIVE_EVENTS' `coreConverts`): one converter each. */
type CoreConvertedName = {
  [K in LiveEventName]: (typeof LIVE_EVENTS)[K] extends { coreConverts: true } ? K : never;
}[LiveEventName];
const CORE_CONVERTERS: { [K in CoreConvertedName]: (p: CoreEvents[K]) => LiveWire[K] } = {
  toolCall: (e) => ({ event: toWireEvent(e) }),
};

/** One bus event as the UI receives it. */
export function toUiEvent(e: BusEvent<CoreEvents>): UiEvent {
  const form = LIVE_EVENTS[e.name];
  // The table's types tie each name to its payload and wire form; a lookup by a name that is a union loses
  // that tie, hence the one widening here.
  const convert = (typeof form === 'function' ? form : CORE_CONVERTERS[e.name as CoreConvertedName]) as (
    p: unknown,
  ) => object;
  return { type: e.name, ...convert(e.payload) } as UiEvent;
}

/** Yields every core event as a UiEvent until `signal` aborts; a consumer that falls behind resyncs. */
export async function* uiEvents(
  core: EventSource,
  signal?: AbortSignal,
  opts: { limit?: number } = {},
): AsyncGenerator<UiEvent> {
  const limit = opts.limit ?? SUBSCRIBER_QUEUE_LIMIT;
  const queue: UiEvent[] = [];
  /** Events dropped since the consumer last caught up; while > 0 nothing is queued. */
  let dropped = 0;
  let wake: (() => void) | undefined;
  const subscription = core.events.onAny((e) => {
    if (dropped > 0) dropped++;
    else if (queue.length >= limit) {
      dropped = queue.length + 1;
      queue.length = 0;
    } else queue.push(toUiEvent(e));
    wake?.();
  });
  const onAbort = () => wake?.();
  signal?.addEventListener('abort', onAbort);
  // The state as of now, so a UI that connects late (or resyncs) starts from the truth. Events queued
  // meanwhile follow; the UI drops a call's event that is not newer than what it holds (`seq`).
  function* snapshot(): Generator<UiEvent> {
    for (const status of core.servers.statuses()) yield { type: 'status', status };
    for (const call of core.tools.snapshot()) yield { type: 'toolCall', event: toWireEvent(call) };
  }
  try {
    yield { type: 'connected' };
    yield* snapshot();
    while (!signal?.aborted) {
      if (dropped > 0) {
        const n = dropped;
        dropped = 0;
        yield { type: 'resync', dropped: n };
        yield* snapshot();
        continue;
      }
      const next = queue.shift();
      if (next) {
        yield next;
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    void subscription.dispose();
  }
}
