// The ways Mooring reaches a server (MCP 2025-11-25 "Transports"), as one typed value: every kind has one
// row in TRANSPORTS, and code that depends on the kind asks the row or a predicate here, never compares
// strings. A new kind is a compile error in every `Record<TransportKind, …>` and exhaustive switch until it
// is handled (ARCHITECTURE.md, "Adding a transport, a screen or a live event").
// Pure: the renderer's forms and the core read the same table.

export const TRANSPORT_KINDS = ['stdio', 'http', 'sse'] as const;
export type TransportKind = (typeof TRANSPORT_KINDS)[number];

interface TransportTraits {
  /** Reached over the network: SSRF-guarded, may need a sign-in, keepalive-probed. Else a local process. */
  readonly remote: boolean;
  /** How the UI names it. */
  readonly label: string;
}

export const TRANSPORTS = {
  stdio: { remote: false, label: 'local command (stdio)' },
  http: { remote: true, label: 'HTTP' },
  sse: { remote: true, label: 'SSE' },
} as const satisfies Record<TransportKind, TransportTraits>;

/** The kinds reached over the network (the rows of TRANSPORTS with `remote: true`). */
export type RemoteTransportKind = {
  [K in TransportKind]: (typeof TRANSPORTS)[K]['remote'] extends true ? K : never;
}[TransportKind];
/** The kinds that run a local process. */
export type LocalTransportKind = Exclude<TransportKind, RemoteTransportKind>;

export function isRemoteTransport(kind: TransportKind): kind is RemoteTransportKind {
  return TRANSPORTS[kind].remote;
}

export function isLocalTransport(kind: TransportKind): kind is LocalTransportKind {
  return !TRANSPORTS[kind].remote;
}

/** For the default branch of an exhaustive switch: a kind nobody handled is a compile error here. */
export function unhandledTransport(kind: never): never {
  throw new Error(`Unhandled transport kind: ${String(kind)}`);
}
