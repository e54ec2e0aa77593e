// The path of one tool call (ARCHITECTURE.md): the caller has resolved the name to a catalog entry →
// catalog repairs the arguments → safety decides (auto, ask, refuse) → if ask, an approval request
// travels to the UI or CLI and back → the session actor runs it (timeout, cancellation, progress) →
// catalog normalises the result. Every step emits one lifecycle event (shared/toolCall.ts), to the
// call's own `onPhase` and to the tools service's one stream; every decision lands in the audit log.
import { randomUUID } from 'node:crypto';
import type { AuditDecision } from '@shared/approval';
import type { Progress, ToolCallEvent, ToolCallPhase } from '@shared/toolCall';
import type { ToolResult } from '@shared/toolResult';
import { formatFix, type ArgFix } from '../catalog/argRepair';
import { prepareArguments, type CatalogEntry } from '../catalog/catalog';
import { normalizeResult } from '../catalog/normalizeResult';
import { toErrorData } from '../errors';
import { withSafeRetry } from '../mcp/safeRetry';
import type { SessionActor } from '../mcp/sessionActor';
import type { Tool } from '../mcp/types';
import type { ApprovalBroker } from '../safety/approvalBroker';
import { authorizeCall, type GateDeps, type GateResult } from '../safety/approvalGate';
import type { FingerprintedTool } from '../safety/toolFingerprint';

export type { ToolCallEvent, ToolCallPhase };

/** A lifecycle event before the tools service's stream stamps its `seq`. */
export type UnstampedEvent = Omit<ToolCallEvent, 'seq'>;

export interface CallContext {
  /** Who asks: a conversation id, `cli`, an MCP client's name. Shown in the dialog, written to the audit log. */
  client?: string;
  /** The conversation the call belongs to: on every event, and in the approval request. */
  conversationId?: string;
  /** The CLI's --yes: approve what would be asked (never what is refused). */
  preApproved?: boolean;
  /** Who approved up front, for the audit line (default `<client> (--yes)`): a schedule's allowed tools. */
  approvedBy?: string;
  /** False when nobody can answer an approval (a script): an ask becomes a refusal with a hint. */
  interactive?: boolean;
  /** How long an approval may wait before the call is refused (default: the broker's). */
  approvalTimeoutMs?: number;
  /** The conversation's project folder (canonical, after core.workspaces.ensure): its servers take part. */
  workspace?: string;
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
  /** Every lifecycle event of this call, as it happens: the call's own view of the stream. */
  onPhase?: (e: ToolCallEvent) => void;
  id?: string;
}

export interface ToolCallOutcome {
  id: string;
  entry: CatalogEntry;
  result: ToolResult;
  fixes: ArgFix[];
  decision: AuditDecision;
  /** The arguments the server got (after repair and any edit by the user). */
  arguments: Record<string, unknown>;
  /** The user edited the arguments before approving. */
  argsEdited: boolean;
}

export interface RunnerDeps {
  actor: (server: string) => SessionActor | undefined;
  gate: GateDeps;
  broker: ApprovalBroker;
  /** The tools service's one stream: stamps `seq`, keeps the latest state, tells every subscriber. */
  publish: (e: UnstampedEvent) => ToolCallEvent;
}

const views = new WeakMap<Tool, FingerprintedTool & { annotations?: Tool['annotations'] }>();
/** The fields a fingerprint covers, as one object per definition (so the fingerprint cache hits). */
function fingerprintView(def: Tool) {
  let v = views.get(def);
  if (!v) {
    v = {
      name: def.name,
      description: def.description,
      inputSchema: def.inputSchema,
      annotations: def.annotations,
      ...(def.title ? { title: def.title } : {}),
    };
    views.set(def, v);
  }
  return v;
}

/**
 * Runs one call of a resolved entry. The caller resolved the name once, in the catalog of its own
 * provider, tool set and folder (an exact name resolves even when the tool is disabled, so the safety
 * step refuses it and audits the refusal).
 */
export async function runToolCall(
  deps: RunnerDeps,
  entry: CatalogEntry,
  modelArgs: unknown,
  ctx: CallContext = {},
): Promise<ToolCallOutcome> {
  const id = ctx.id ?? randomUUID();
  const base = {
    id,
    server: entry.server,
    tool: entry.tool,
    modelName: entry.modelName,
    friendlyName: entry.friendlyName,
    ...(ctx.client ? { client: ctx.client } : {}),
    ...(ctx.conversationId ? { conversationId: ctx.conversationId } : {}),
  };
  const emit = (phase: ToolCallPhase, extra?: Partial<UnstampedEvent>) => {
    const e = deps.publish({ ...base, phase, at: Date.now(), ...extra });
    ctx.onPhase?.(e);
  };

  let prepared: { args: Record<string, unknown>; fixes: ArgFix[] };
  try {
    prepared = prepareArguments(entry, modelArgs);
  } catch (err) {
    emit('failed', { error: toErrorData(err) });
    throw err;
  }
  emit('requested', {
    arguments: prepared.args,
    ...(prepared.fixes.length ? { fixes: prepared.fixes.map(formatFix) } : {}),
  });

  // The safety step (one function for every host): decide, ask through the broker, remember, audit.
  const actor = deps.actor(entry.server);
  const def = entry.handle.definition;
  // The gate asks through this broker: the lifecycle shows the wait with the request's id (the broker
  // parks the request synchronously, so it is the newest pending one here).
  const broker: Pick<ApprovalBroker, 'request'> = {
    request: (input, o) => {
      const pending = deps.broker.request(input, o);
      const req = deps.broker.pending().at(-1);
      emit('awaiting-approval', req ? { approvalId: req.id } : {});
      return pending;
    },
  };
  let gate: GateResult;
  try {
    gate = await authorizeCall(
      { ...deps.gate, broker },
      {
        config: actor?.config ?? { name: entry.server, transport: 'stdio', args: [], policy: 'default' },
        tool: fingerprintView(def),
        enabled: entry.enabled,
        disabled: { reason: entry.excludedReason, hint: entry.excludedHint },
        arguments: prepared.args,
        ...(ctx.client ? { client: ctx.client } : {}),
        ...(ctx.conversationId ? { conversationId: ctx.conversationId } : {}),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        ...(ctx.preApproved ? { preApprovedBy: ctx.approvedBy ?? `${ctx.client ?? 'user'} (--yes)` } : {}),
        ...(ctx.interactive === false ? { interactive: false } : {}),
        ...(ctx.approvalTimeoutMs ? { timeoutMs: ctx.approvalTimeoutMs } : {}),
      },
    );
  } catch (err) {
    emit('refused', { error: toErrorData(err) });
    throw err;
  }
  const args = gate.arguments;

  emit('running', gate.argsEdited ? { editedArguments: args } : undefined);
  try {
    // A dropped connection is retried once, on the reconnected session, only for read-only or
    // idempotent tools (mcp/safeRetry.ts); anything else fails explicitly and is not run twice.
    const raw = await withSafeRetry(
      () =>
        entry.handle.call(args, {
          ...(ctx.signal ? { signal: ctx.signal } : {}),
          onProgress: (p) => {
            emit('running', { progress: p });
            ctx.onProgress?.(p);
          },
        }),
      { name: `${entry.server}/${entry.tool}`, annotations: def.annotations },
      {
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        onRetry: (err) => emit('running', { retry: { attempt: 2, error: err.toData() } }),
      },
    );
    await gate.audited;
    const result = normalizeResult(raw, { outputSchema: entry.outputSchema });
    emit(result.isError ? 'failed' : 'done', { result });
    return {
      id,
      entry,
      result,
      fixes: prepared.fixes,
      decision: gate.decision,
      arguments: args,
      argsEdited: gate.argsEdited,
    };
  } catch (err) {
    await gate.audited?.catch(() => undefined);
    emit('failed', { error: toErrorData(err) });
    throw err;
  }
}
