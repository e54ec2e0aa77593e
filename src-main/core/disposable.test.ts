import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { DisposableObject, DisposableStore, listen, toDisposable } from './disposable';

describe('DisposableStore', () => {
  it('disposes in reverse order of registration, once', async () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add(toDisposable(() => void order.push('a')));
    store.add(toDisposable(async () => void order.push('b')));
    store.add(toDisposable(() => void order.push('c')));
    await Promise.all([store.dispose(), store.dispose()]);
    expect(order).toEqual(['c', 'b', 'a']);
    expect(store.size).toBe(0);
  });

  it('disposes a late registration at once and runs every disposal despite a failure', async () => {
    const store = new DisposableStore();
    const ran: string[] = [];
    store.add(toDisposable(() => void ran.push('first')));
    store.add(
      toDisposable(() => {
        throw new Error('boom');
      }),
    );
    await expect(store.dispose()).rejects.toThrow('boom');
    expect(ran).toEqual(['first']);
    const late = new Promise<void>((resolve) => store.add(toDisposable(() => resolve())));
    await late;
  });

  it('removes listeners it added', async () => {
    const emitter = new EventEmitter();
    class Owner extends DisposableObject {
      constructor() {
        super();
        this.register(listen(emitter, 'x', () => undefined));
        this.register(listen(emitter, 'y', () => undefined));
      }
    }
    const owner = new Owner();
    expect(emitter.listenerCount('x') + emitter.listenerCount('y')).toBe(2);
    await owner.dispose();
    expect(emitter.listenerCount('x') + emitter.listenerCount('y')).toBe(0);
    expect(owner.isDisposed).toBe(true);
  });
});
