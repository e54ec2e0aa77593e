// The main-process end of the IPC link: runs router procedures for one renderer and sends the answers
// back. Electron-free, so it is tested in plain Node; src-main/electron wires it to ipcMain after the
// sender check. One dispatcher per window: closing the window stops every subscription it holds.
import type { AnyRouter } from '@trpc/server';
import {
  callProcedure,
  getErrorShape,
  getTRPCErrorFromUnknown,
  isAsyncIterable,
} from '@trpc/server/unstable-core-do-not-import';
import { IPC_WINDOW, isIpcRequest, type IpcResponse } from '../../../shared/ipc';

export interface IpcDispatcherOptions<TRouter extends AnyRouter> {
  router: TRouter;
  createContext: () => TRouter['_def']['_config']['$types']['ctx'];
  reply: (message: IpcResponse) => void;
}

export interface IpcDispatcher {
  /** Handles one message from the renderer; ignores anything that is not a well-formed request. */
  handle(message: unknown): void;
  /** Stops every call and subscription (window closed or reloaded). */
  dispose(): void;
}

export function createIpcDispatcher<TRouter extends AnyRouter>(
  opts: IpcDispatcherOptions<TRouter>,
): IpcDispatcher {
  const running = new Map<number, AbortController>();
  /** Per subscription: messages sent and not yet acknowledged, and the wait for the next ack. */
  const credit = new Map<number, { unacked: number; wake?: () => void }>();
  let disposed = false;
  const reply = (m: IpcResponse) => {
    if (!disposed) opts.reply(m);
  };

  const run = async (
    id: number,
    type: 'query' | 'mutation' | 'subscription',
    path: string,
    input: unknown,
  ) => {
    const abort = new AbortController();
    running.set(id, abort);
    const ctx = opts.createContext();
    try {
      const output: unknown = await callProcedure({
        router: opts.router,
        ctx,
        path,
        type,
        input,
        getRawInput: async () => input,
        signal: abort.signal,
        batchIndex: 0,
      });
      if (type !== 'subscription') {
        reply({ kind: 'result', id, data: output });
        return;
      }
      if (!isAsyncIterable(output))
        throw new Error(`Subscription "${path}" did not return an async iterable.`);
      const iterator = (output as AsyncIterable<unknown>)[Symbol.asyncIterator]();
      const flow: { unacked: number; wake?: () => void } = { unacked: 0 };
      credit.set(id, flow);
      const wakeOnAbort = () => flow.wake?.();
      abort.signal.addEventListener('abort', () => void iterator.return?.(), { once: true });
      abort.signal.addEventListener('abort', wakeOnAbort, { once: true });
      for (;;) {
        // A full window: pull nothing more until the renderer acknowledges (shared/ipc.ts, IPC_WINDOW).
        while (flow.unacked >= IPC_WINDOW && !abort.signal.aborted)
          await new Promise<void>((resolve) => (flow.wake = resolve));
        if (abort.signal.aborted) break;
        const next = await iterator.next();
        if (next.done || abort.signal.aborted) break;
        flow.unacked++;
        reply({ kind: 'data', id, data: next.value });
      }
      reply({ kind: 'complete', id });
    } catch (cause) {
      if (abort.signal.aborted) return;
      const error = getTRPCErrorFromUnknown(cause);
      reply({
        kind: 'error',
        id,
        error: getErrorShape({ config: opts.router._def._config, error, type, path, input, ctx }),
      });
    } finally {
      running.delete(id);
      credit.delete(id);
    }
  };

  return {
    handle(message) {
      if (disposed || !isIpcRequest(message)) return;
      if (message.kind === 'stop') {
        running.get(message.id)?.abort();
        running.delete(message.id);
        return;
      }
      if (message.kind === 'ack') {
        const flow = credit.get(message.id);
        if (!flow) return;
        flow.unacked = Math.max(0, flow.unacked - message.count);
        flow.wake?.();
        flow.wake = undefined;
        return;
      }
      if (running.has(message.id)) return;
      void run(message.id, message.type, message.path, message.input);
    },
    dispose() {
      disposed = true;
      for (const a of running.values()) a.abort();
      running.clear();
    },
  };
}
