// Which protocol era a session speaks, and how the SDK client is set up to find out (MCP 2026-07-28,
// "Lifecycle": server/discover; protocol-versions.md in the SDK's repository). Every connect probes with
// `server/discover` and falls back to the 2025 `initialize` handshake (2025-11-25 down to 2024-11-05) for
// servers that do not speak 2026-07-28; the verdict is kept by the actor so reconnects skip the probe.
// The story of these choices: docs/decisions/006-protocol-eras.md.
import {
  SdkError,
  SdkErrorCode,
  type ClientCapabilities,
  type ClientOptions,
  type DiscoverResult,
  type PriorDiscovery,
  type ProtocolEra,
} from '@modelcontextprotocol/client';

/**
 * How long a stdio server gets to answer the probe before it counts as a 2025 server. Some 2025 servers
 * never answer a request that comes before `initialize`; waiting the whole connect timeout for them would
 * make every start 30 s slower. A 2026 server that is slower than this still works: the SDK's stdio entry
 * serves the 2025 handshake too.
 */
export const STDIO_PROBE_TIMEOUT_MS = 5_000;

/**
 * Input-required rounds one call may take (MCP 2026-07-28, "Multi-round-trip requests"): each round is a
 * dialog the person answers, so a server that keeps asking is stopped here with a clear error.
 */
export const MAX_INPUT_ROUNDS = 8;

export type EraVerdict = PriorDiscovery;

export function clientOptions(opts: {
  capabilities: ClientCapabilities;
  stdio: boolean;
  connectTimeoutMs: number;
}): ClientOptions {
  return {
    capabilities: opts.capabilities,
    versionNegotiation: {
      mode: 'auto',
      probe: {
        timeoutMs: opts.stdio
          ? Math.min(STDIO_PROBE_TIMEOUT_MS, opts.connectTimeoutMs)
          : opts.connectTimeoutMs,
      },
    },
    inputRequired: { autoFulfill: true, maxRounds: MAX_INPUT_ROUNDS },
  };
}

/** What a reconnect adopts instead of probing again: the discover result, or "initialize directly". */
export function verdictOf(
  era: ProtocolEra | undefined,
  discover: DiscoverResult | undefined,
): EraVerdict | undefined {
  if (era === 'legacy') return { kind: 'legacy' };
  return discover ? { kind: 'modern', discover } : undefined;
}

/**
 * The connection closed while the probe was in flight: on stdio that is a 2025 server that exits on any
 * request before `initialize` (the SDK probes such servers on a spare process; Mooring probes on the
 * server's own pipe to avoid a second spawn per connect, so it starts the server again for the handshake).
 */
export function closedDuringProbe(err: unknown): boolean {
  return (
    err instanceof SdkError &&
    err.code === SdkErrorCode.EraNegotiationFailed &&
    /closed during the server\/discover probe/.test(err.message)
  );
}
