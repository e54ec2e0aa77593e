// The wire of the Electron IPC link (ARCHITECTURE.md, "Layers"): one channel, typed messages, no string
// channel per procedure (never one giant IPC file with string channel names).

export const IPC_CHANNEL = 'mooring:trpc';

export type IpcRequest =
  | { kind: 'request'; id: number; type: 'query' | 'mutation' | 'subscription'; path: string; input: unknown }
  /** The renderer stopped listening to a subscription, or gave up on a call. */
  | { kind: 'stop'; id: number }
  /** The renderer handled `count` more of a subscription's messages (flow control, below). */
  | { kind: 'ack'; id: number; count: number };

/**
 * A subscription's flow control: the main process sends at most IPC_WINDOW messages the renderer has not
 * acknowledged, and the renderer acknowledges every IPC_ACK_EVERY it handled. A window that is busy for
 * long (or hung) stops receiving; its event stream's own bound then applies (api/eventStream.ts: it is
 * told to resync), instead of messages piling up for it without end.
 */
export const IPC_WINDOW = 512;
export const IPC_ACK_EVERY = 64;

export type IpcResponse =
  | { kind: 'result'; id: number; data: unknown }
  | { kind: 'data'; id: number; data: unknown }
  | { kind: 'error'; id: number; error: unknown }
  | { kind: 'complete'; id: number };

/** What the preload exposes as `window.mooring`: exactly this, nothing else. */
export interface MooringBridge {
  send(message: IpcRequest): void;
  /** Returns the unsubscribe. */
  onMessage(listener: (message: IpcResponse) => void): () => void;
}

export function isIpcRequest(v: unknown): v is IpcRequest {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as Record<string, unknown>;
  if (typeof m.id !== 'number' || !Number.isSafeInteger(m.id)) return false;
  if (m.kind === 'stop') return true;
  if (m.kind === 'ack') return typeof m.count === 'number' && Number.isSafeInteger(m.count) && m.count > 0;
  return (
    m.kind === 'request' &&
    typeof m.path === 'string' &&
    m.path.length < 200 &&
    (m.type === 'query' || m.type === 'mutation' || m.type === 'subscription')
  );
}
