// The wire of the Electron IPC link (ARCHITECTURE.md, "Layers"): one channel, typed messages, no string
// channel per procedure (never one giant IPC file with string channel names).

export const IPC_CHANNEL = 'mooring:trpc';

export type IpcRequest =
  | { kind: 'request'; id: number; type: 'query' | 'mutation' | 'subscription'; path: string; input: unknown }
  /** The renderer stopped listening to a subscription, or gave up on a call. */
  | { kind: 'stop'; id: number };

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
  return (
    m.kind === 'request' &&
    typeof m.path === 'string' &&
    m.path.length < 200 &&
    (m.type === 'query' || m.type === 'mutation' || m.type === 'subscription')
  );
}
