// How a call from an external MCP client waits for the user's approval. MCP clients time their requests
// out themselves (the TypeScript SDK's default is 60 s); a refusal that comes later is never read, and the
// client reports "Request timed out" instead of Mooring's answer. So the wait is bounded by what the
// client will wait for:
// - a client that asked for progress (a progressToken in the call; MCP spec 2025-11-25, "Progress") hears
//   at once that the call waits for approval, then again every HEARTBEAT; a client that resets its timeout
//   on progress (the SDK's `resetTimeoutOnProgress`) keeps waiting, up to `approvalTimeoutMs`;
// - any other client gets Mooring's refusal, with what to do, after NO_PROGRESS_WAIT_MS: under 60 s;
// - with no app to ask at all, the relay refuses at once (approvalRelayClient.ts).
// The phase comes from the call's own lifecycle (`onPhase`), never from a listener on the core.
import { randomUUID } from 'node:crypto';
import type { ReadOrigin } from '@shared/dataFlow';
import type { Progress } from '@shared/toolCall';
import type { CatalogEntry } from '../catalog/catalog';
import type { ToolCallEvent, ToolCallOutcome } from '../calls/toolCallRunner';
import type { ToolService } from '../calls/toolService';
import { MooringError } from '../errors';

/** How long a call waits for approval at most (`mooring serve --approval-timeout`). */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 120_000;
/** The wait for a client that did not ask for progress: answered before the usual 60 s client timeout. */
export const NO_PROGRESS_WAIT_MS = 50_000;
/** How often a waiting client that asked for progress hears from Mooring (at most a quarter of the wait). */
export const HEARTBEAT_MS = 15_000;

export interface CallThroughCoreOptions {
  client: string;
  /** What the client read through this process before (servedReads.ts): a flow to another server asks. */
  readFrom?: readonly ReadOrigin[];
  approvalTimeoutMs: number;
  signal?: AbortSignal;
  /** Set when the client sent a progressToken: the wait is reported, and the tool's progress relayed. */
  onProgress?: (p: Progress) => void;
}

const seconds = (ms: number) => Math.round(ms / 1000);

/** One call through the core with the wait for approval bounded as above. */
export async function callThroughCore(
  tools: ToolService,
  entry: CatalogEntry,
  args: unknown,
  opts: CallThroughCoreOptions,
): Promise<ToolCallOutcome> {
  const modelName = entry.modelName;
  const { onProgress } = opts;
  const limitMs = onProgress ? opts.approvalTimeoutMs : Math.min(opts.approvalTimeoutMs, NO_PROGRESS_WAIT_MS);
  const heartbeatMs = Math.min(HEARTBEAT_MS, Math.max(250, Math.floor(limitMs / 4)));
  const approval = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let timedOut = false;
  // Progress must increase with every notification (MCP spec, "Progress"): the tool's own progress comes
  // after the heartbeats, so it is shifted past them.
  let beats = 0;
  const stopWaiting = () => {
    clearTimeout(timer);
    clearInterval(heartbeat);
  };
  const beat = (until: number) =>
    onProgress?.({
      progress: ++beats,
      message: `Waiting for the user to approve "${modelName}" in Mooring (up to ${Math.max(0, seconds(until - Date.now()))} s more).`,
    });
  const onPhase = (e: ToolCallEvent) => {
    if (e.phase === 'awaiting-approval') {
      if (timer) return;
      const until = Date.now() + limitMs;
      timer = setTimeout(() => {
        timedOut = true;
        approval.abort(new Error(`no answer within ${seconds(limitMs)} s`));
      }, limitMs);
      if (onProgress) {
        beat(until);
        heartbeat = setInterval(() => beat(until), heartbeatMs);
      }
    } else if (e.phase !== 'requested') stopWaiting();
  };
  try {
    return await tools.call(entry, args, {
      id: randomUUID(),
      client: opts.client,
      ...(opts.readFrom?.length ? { readFrom: opts.readFrom } : {}),
      onPhase,
      interactive: true,
      signal: opts.signal ? AbortSignal.any([opts.signal, approval.signal]) : approval.signal,
      ...(onProgress
        ? {
            onProgress: (p: Progress) => {
              const by = beats ? beats + 1 : 0;
              onProgress({
                ...p,
                progress: p.progress + by,
                ...(p.total !== undefined ? { total: p.total + by } : {}),
              });
            },
          }
        : {}),
    });
  } catch (err) {
    if (timedOut) throw refusal(modelName, opts, limitMs, err);
    // The relay ended the wait (no app to ask, or the app closed): the call was refused, say so.
    if (err instanceof MooringError && err.code === 'cancelled' && !opts.signal?.aborted)
      throw new MooringError('refused', err.message, err.hint, { cause: err });
    throw err;
  } finally {
    stopWaiting();
  }
}

function refusal(modelName: string, opts: CallThroughCoreOptions, limitMs: number, cause: unknown) {
  const readOnly =
    'or give this client a read-only scope (`mooring serve --read-only`) so it uses only tools that need no approval.';
  if (!opts.onProgress && limitMs < opts.approvalTimeoutMs)
    return new MooringError(
      'refused',
      `Nobody approved "${modelName}" within ${seconds(limitMs)} s, so Mooring refused the call before your MCP client gives up on it (clients usually wait 60 s).`,
      `Approve it in Mooring (the app, or \`mooring web\`) while the call waits, then call again; a client that sends a progressToken with the call hears progress while it waits and may wait up to ${seconds(opts.approvalTimeoutMs)} s; ${readOnly}`,
      { cause },
    );
  return new MooringError(
    'refused',
    `Nobody answered the approval for "${modelName}" within ${seconds(limitMs)} s, so Mooring refused the call.`,
    `Ask the user to open Mooring (the app, or \`mooring web\`) and approve it there, or in the terminal running \`mooring serve --http\`, then call it again; ${readOnly}`,
    { cause },
  );
}
