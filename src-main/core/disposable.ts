// Ownership of what a long-lived object starts (ARCHITECTURE.md, "The core as one object"): listeners,
// timers, processes, watchers, sockets. Whatever an object starts it registers; disposing the object ends
// all of it, last registered first. The model is VS Code's `Disposable` / `DisposableStore`
// (src/vs/base/common/lifecycle.ts), with async disposal because closing a session waits for its process.
import type { EventEmitter } from 'node:events';

/** Something that can be ended. Disposing twice is allowed and does nothing the second time. */
export interface Disposable {
  dispose(): void | Promise<void>;
}

/** A disposable from a function, called at most once; a promise it returns is awaited by whoever disposes. */
export function toDisposable(fn: () => unknown): Disposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      const r = fn();
      return r instanceof Promise ? r.then(() => undefined) : undefined;
    },
  };
}

/** Minimal shape of Node's EventEmitter and the core's typed emitters. */
interface Listenable<L> {
  on(event: string, listener: L): unknown;
  off(event: string, listener: L): unknown;
}

/** Adds `listener` to `emitter` and returns the disposable that removes it. */
export function listen<T extends Record<keyof T, unknown[]>, K extends keyof T & string>(
  emitter: EventEmitter<T>,
  event: K,
  listener: (...args: T[K]) => void,
): Disposable;
export function listen<L>(emitter: Listenable<L>, event: string, listener: L): Disposable;
export function listen(emitter: Listenable<unknown>, event: string, listener: unknown): Disposable {
  emitter.on(event, listener);
  return toDisposable(() => void emitter.off(event, listener));
}

/** A timer (setTimeout or setInterval) as a disposable. */
export function timer(handle: ReturnType<typeof setTimeout>): Disposable {
  return toDisposable(() => clearTimeout(handle));
}

/**
 * A set of disposables ended together, in reverse order of registration. After `dispose()`, anything
 * added is disposed at once (a late registration never leaks). Errors in one disposal do not stop the
 * others; the first is rethrown once all have run.
 */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposing: Promise<void> | undefined;

  get isDisposed(): boolean {
    return this.disposing !== undefined;
  }

  /** Registers `d`; returns it, so `const x = store.add(new X())` reads naturally. */
  add<T extends Disposable>(d: T): T {
    if (this.disposing) {
      void Promise.resolve()
        .then(() => d.dispose())
        .catch(() => undefined);
      return d;
    }
    this.items.push(d);
    return d;
  }

  /** Removes `d` without disposing it (it ended by itself). */
  delete(d: Disposable): void {
    const i = this.items.lastIndexOf(d);
    if (i >= 0) this.items.splice(i, 1);
  }

  /** How many disposables are held (leak tests read this). */
  get size(): number {
    return this.items.length;
  }

  dispose(): Promise<void> {
    this.disposing ??= this.disposeAll();
    return this.disposing;
  }

  private async disposeAll(): Promise<void> {
    let first: unknown;
    let failed = false;
    while (this.items.length) {
      const d = this.items.pop()!;
      try {
        await d.dispose();
      } catch (e) {
        if (!failed) first = e;
        failed = true;
      }
    }
    if (failed) throw first;
  }
}

/** Base class for an object that owns what it starts: `this.register(x)` ties `x` to `dispose()`. */
export abstract class DisposableObject implements Disposable {
  protected readonly disposables = new DisposableStore();

  protected register<T extends Disposable>(d: T): T {
    return this.disposables.add(d);
  }

  get isDisposed(): boolean {
    return this.disposables.isDisposed;
  }

  dispose(): void | Promise<void> {
    return this.disposables.dispose();
  }
}
