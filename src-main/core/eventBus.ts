// One typed event bus (ARCHITECTURE.md, "The path of an event"): the core publishes every live event here
// once, from where it starts (a session, the tools service, a broker), and every reader subscribes here: the
// UI's stream, the hosts, the rooms that follow sessions. A subscription is a Disposable, so whoever
// subscribes owns it (disposable.ts). Listeners run in the order they subscribed, named ones before those of
// `onAny`; one added or removed during an emit takes effect from the next one (as Node's EventEmitter).
import { toDisposable, type Disposable } from './disposable';

/** One event of a map of names to payloads, as `onAny` hands it over. */
export type BusEvent<M> = { [K in keyof M]: { name: K; payload: M[K] } }[keyof M];

type Listener<P> = (payload: P) => void;
/** One subscription: a listener subscribed twice has two (as Node's EventEmitter, it is called twice). */
interface Entry<P> {
  fn: Listener<P>;
}

export class EventBus<M extends object> implements Disposable {
  private readonly named = new Map<keyof M, Set<Entry<never>>>();
  private readonly any = new Set<Entry<BusEvent<M>>>();

  on<K extends keyof M>(name: K, listener: Listener<M[K]>): Disposable {
    let set = this.named.get(name);
    if (!set) this.named.set(name, (set = new Set()));
    const entry = { fn: listener } as Entry<never>;
    set.add(entry);
    return toDisposable(() => void set.delete(entry));
  }

  /** Removes one subscription of `listener` (for callers that kept the function, not the Disposable). */
  off<K extends keyof M>(name: K, listener: Listener<M[K]>): void {
    const set = this.named.get(name);
    for (const entry of set ?? []) if (entry.fn === (listener as unknown)) return void set!.delete(entry);
  }

  /** Called for the next `name` only. */
  once<K extends keyof M>(name: K, listener: Listener<M[K]>): Disposable {
    const sub = this.on(name, (p) => {
      void sub.dispose();
      listener(p);
    });
    return sub;
  }

  /** Every event, whatever its name: the UI's stream reads the bus through one subscription. */
  onAny(listener: Listener<BusEvent<M>>): Disposable {
    const entry = { fn: listener };
    this.any.add(entry);
    return toDisposable(() => void this.any.delete(entry));
  }

  emit<K extends keyof M>(name: K, payload: M[K]): void {
    const set = this.named.get(name);
    if (set) for (const e of [...set]) (e.fn as Listener<M[K]>)(payload);
    if (this.any.size) {
      const event = { name, payload } as BusEvent<M>;
      for (const e of [...this.any]) e.fn(event);
    }
  }

  /** Listeners of `name`, or of every name and `onAny` together (leak tests read this). */
  listenerCount(name?: keyof M): number {
    if (name !== undefined) return this.named.get(name)?.size ?? 0;
    let n = this.any.size;
    for (const set of this.named.values()) n += set.size;
    return n;
  }

  /** Drops every listener: the bus's owner closed. */
  dispose(): void {
    this.named.clear();
    this.any.clear();
  }
}
