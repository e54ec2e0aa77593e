// The live event stream a running `mooring web` sends its UI (the router's `events` subscription over
// server-sent events, as browser mode reads it; ARCHITECTURE.md, "Processes and entry points"). Tests wait
// for what the app is told (an approval, a status), never poll on a timer.
import type { UiEvent } from '../../shared/wire';

export interface WebEvents {
  /** Every event so far, in order. */
  readonly all: UiEvent[];
  /** Resolves once the stream is open and subscribed (its first event): anything after is seen. */
  readonly connected: Promise<void>;
  /** Resolves with the first truthy `find(all)`, checked now and on each event; rejects if the stream ends. */
  until<T>(find: (all: UiEvent[]) => T | undefined | false, what: string): Promise<T>;
  close(): void;
}

/** Opens the stream of the app at `origin` (signed in with `cookie`). */
export function webEvents(origin: string, cookie: string): WebEvents {
  const ac = new AbortController();
  const all: UiEvent[] = [];
  const waiters = new Set<() => void>();
  let ended: Error | undefined;
  const wake = () => {
    for (const w of [...waiters]) w();
  };
  const read = async () => {
    const res = await fetch(`${origin}/trpc/events`, {
      headers: { cookie, accept: 'text/event-stream' },
      signal: ac.signal,
    });
    if (!res.ok || !res.body) throw new Error(`the event stream answered ${res.status}`);
    const decoder = new TextDecoder();
    let buffered = '';
    const reader = res.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      buffered += decoder.decode(chunk.value, { stream: true });
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        const lines = buffered.slice(0, end).split('\n');
        buffered = buffered.slice(end + 2);
        // Named events are the transport's own (connected, ping); the UI's events are plain messages.
        if (lines.some((l) => l.startsWith('event:'))) continue;
        const data = lines
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trimStart())
          .join('\n');
        if (!data) continue;
        all.push(JSON.parse(data) as UiEvent);
        wake();
      }
    }
    throw new Error('the event stream ended');
  };
  void read().catch((err: unknown) => {
    ended = ac.signal.aborted ? new Error('the event stream was closed') : (err as Error);
    wake();
  });
  const until = <T>(find: (all: UiEvent[]) => T | undefined | false, what: string) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const found = find(all);
        if (found) {
          waiters.delete(check);
          resolve(found);
        } else if (ended) {
          waiters.delete(check);
          reject(new Error(`waiting for ${what}: ${ended.message}`));
        }
      };
      waiters.add(check);
      check();
    });
  const connected = until((events) => events.length > 0, 'the event stream to open').then(() => undefined);
  connected.catch(() => undefined); // a test that never awaits it is not failed by a closed stream
  return {
    all,
    connected,
    until,
    close: () => ac.abort(),
  };
}
