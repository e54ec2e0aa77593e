// A tRPC link over the preload's one bridge (`window.mooring`), for the Electron window. Each operation
// gets an id; answers come back on the same channel. Unsubscribing sends `stop`.
import { TRPCClientError, type TRPCLink } from '@trpc/client';
import type { AnyTRPCRouter } from '@trpc/server';
import { observable } from '@trpc/server/observable';
import type { IpcResponse, MooringBridge } from '@shared/ipc';

export function ipcLink<TRouter extends AnyTRPCRouter>(bridge: MooringBridge): TRPCLink<TRouter> {
  let nextId = 1;
  const listeners = new Map<number, (m: IpcResponse) => void>();
  bridge.onMessage((m) => listeners.get(m.id)?.(m));

  return () =>
    ({ op }) =>
      observable((observer) => {
        const id = nextId++;
        let done = false;
        listeners.set(id, (m) => {
          switch (m.kind) {
            case 'result':
              done = true;
              observer.next({ result: { type: 'data', data: m.data } });
              observer.complete();
              break;
            case 'data':
              observer.next({ result: { type: 'data', data: m.data } });
              break;
            case 'error':
              done = true;
              observer.error(TRPCClientError.from({ error: m.error as never }));
              break;
            case 'complete':
              done = true;
              observer.complete();
              break;
          }
        });
        bridge.send({ kind: 'request', id, type: op.type, path: op.path, input: op.input });
        return () => {
          listeners.delete(id);
          if (!done) bridge.send({ kind: 'stop', id });
        };
      });
}
