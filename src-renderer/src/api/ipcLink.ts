// A tRPC link over the preload's one bridge (`window.mooring`), for the Electron window. Each operation
// gets an id; answers come back on the same channel. Unsubscribing sends `stop`; a subscription's messages
// are acknowledged as they are handled (shared/ipc.ts, IPC_ACK_EVERY).
import { TRPCClientError, type TRPCLink } from '@trpc/client';
import type { AnyTRPCRouter } from '@trpc/server';
import { observable } from '@trpc/server/observable';
import { IPC_ACK_EVERY, type IpcResponse, type MooringBridge } from '@shared/ipc';

export function ipcLink<TRouter extends AnyTRPCRouter>(bridge: MooringBridge): TRPCLink<TRouter> {
  let nextId = 1;
  const listeners = new Map<number, (m: IpcResponse) => void>();
  bridge.onMessage((m) => listeners.get(m.id)?.(m));

  return () =>
    ({ op }) =>
      observable((observer) => {
        const id = nextId++;
        let done = false;
        let handled = 0;
        listeners.set(id, (m) => {
          switch (m.kind) {
            case 'result':
              done = true;
              observer.next({ result: { type: 'data', data: m.data } });
              observer.complete();
              break;
            case 'data':
              observer.next({ result: { type: 'data', data: m.data } });
              if (++handled % IPC_ACK_EVERY === 0) bridge.send({ kind: 'ack', id, count: IPC_ACK_EVERY });
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
