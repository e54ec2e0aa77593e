// The path of one tool call (ARCHITECTURE.md): catalog resolves the name and repairs the arguments →
// safety decides (auto, ask, refuse) → if ask, an approval request travels to the UI or CLI and back →
// the session actor runs it (timeout, cancellation, progress) → catalog normalises the result.
// Every step emits one lifecycle event; every decision lands in the audit log.
import { randomUUID } from 'node:crypto';
import type { ApprovalDecision, ApprovalRequestInput, AuditDecision } from '@shared/approval';
import type { ErrorData } from '@shared/errors';
import type { ToolResult } from '@shared/toolResult';
import type { Settings } from '@shared/settings';
import type { CatalogEntry, ToolCatalog } from './catalog/catalog';
import { normalizeResult } from './catalog/normalizeResult';
import type { ArgFix } from './catalog/argRepair';
import { MooringError, toErrorData } from './errors';
import type { Progress } from './mcp/types';
import type { SessionActor } from './mcp/sessionActor';
import { decide } from './safety/approvalPolicy';
import type { ApprovalStore } from './safety/approvalStore';
import type { AuditLog } from './safety/auditLog';
import { serverIdentity, toolFingerprint } from './safety/toolFingerprint';

export type ToolCallPhase = 'requested' | 'awaiting-approval' | 'running' | 'done' | 'failed' | 'refused';

export interface ToolCallEvent {
  id: string;
  server: string;
  tool: string;
  modelName: string;
  friendlyName: string;
  phase: ToolCallPhase;
  at: number;
  client?: string;
  progress?: Progress;
  error?: ErrorData;
  /** On done (and failed with isError): the normalised result. */
  result?: ToolResult;
  fixes?: ArgFix[];
}

export interface CallContext {
  /** Who asks: a conversation id, `cli`, an MCP client's name. Shown in the dialog, written to the audit log. */
  client?: string;
  /** The CLI's --yes: approve what would be asked (never what is refused). */
  preApproved?: boolean;
  /** Answers an approval request; by default the broker (UI dialog, CLI prompt). */
  approve?: (req: ApprovalRequestInput, signal?: AbortSignal) => Promise<ApprovalDecision>;
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
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
}

export interface RunnerDeps {
  catalog: () => ToolCatalog;
  actor: (server: string) => SessionActor | undefined;
  settings: () => Settings;
  approvals: ApprovalStore;
  audit: AuditLog;
  approve: (req: ApprovalRequestInput, signal?: AbortSignal) => Promise<ApprovalDecision>;
  emit: (e: ToolCallEvent) => void;
}

export async function runToolCall(
  deps: RunnerDeps,
  name: string,
  modelArgs: unknown,
  ctx: CallContext = {},
): Promise<ToolCallOutcome> {
  const entry = deps.catalog().resolve(name);
  const id = ctx.id ?? randomUUID();
  const base = {
    id,
    server: entry.server,
    tool: entry.tool,
    modelName: entry.modelName,
    friendlyName: entry.friendlyName,
    ...(ctx.client ? { client: ctx.client } : {}),
  };
  const emit = (phase: ToolCallPhase, extra: Partial<ToolCallEvent> = {}) =>
    deps.emit({ ...base, phase, at: Date.now(), ...extra });
  emit('requested');

  const actor = deps.actor(entry.server);
  const identity = serverIdentity(actor?.config ?? { name: entry.server, transport: 'stdio', args: [] });
  const def = entry.handle.definition;
  const fingerprinted = {
    name: def.name,
    description: def.description,
    inputSchema: def.inputSchema,
    annotations: def.annotations,
    ...(def.title ? { title: def.title } : {}),
  };
  const fingerprint = toolFingerprint(identity, fingerprinted);
  const audit = (
    decision: AuditDecision,
    decidedBy: string,
    reason: string,
    args?: Record<string, unknown>,
    edited?: boolean,
  ) =>
    deps.audit
      .record({
        server: entry.server,
        tool: entry.tool,
        decision,
        decidedBy,
        fingerprint,
        reason,
        ...(ctx.client ? { client: ctx.client } : {}),
        ...(args ? { arguments: args } : {}),
        ...(edited ? { argsEdited: true } : {}),
      })
      .catch(() => undefined);

  const refuse = async (decision: AuditDecision, decidedBy: string, err: MooringError): Promise<never> => {
    await audit(decision, decidedBy, err.message);
    emit('refused', { error: err.toData() });
    throw err;
  };

  let prepared: { args: Record<string, unknown>; fixes: ArgFix[] };
  try {
    prepared = deps.catalog().prepareArguments(entry, modelArgs);
  } catch (err) {
    emit('failed', { error: toErrorData(err) });
    throw err;
  }

  const remembered = deps.approvals.lookup(identity, fingerprinted);
  const verdict = decide({
    policy: actor?.config.policy ?? 'default',
    annotations: def.annotations,
    enabled: entry.enabled,
    yolo: deps.settings().yolo,
    remembered,
  });

  let args = prepared.args;
  let decision: AuditDecision = 'auto';
  let decidedBy = 'policy';
  if (verdict.decision === 'refuse')
    await refuse(
      'refuse',
      'policy',
      new MooringError(
        'refused',
        `${entry.friendlyName} was refused: ${verdict.reason}.`,
        entry.excludedReason
          ? `Schema problem: ${entry.excludedReason}`
          : 'Enable the tool in Settings > Tools > MCP if you want the model to use it.',
      ),
    );
  if (verdict.decision === 'ask') {
    if (ctx.preApproved) {
      decision = 'approve';
      decidedBy = `${ctx.client ?? 'user'} (--yes)`;
    } else {
      emit('awaiting-approval');
      const request: ApprovalRequestInput = {
        server: entry.server,
        tool: entry.tool,
        friendlyName: entry.friendlyName,
        annotations: def.annotations ?? {},
        arguments: args,
        fingerprint,
        reason: verdict.reason,
        ...(remembered.status === 'lapsed' ? { diff: remembered.diff } : {}),
        ...(ctx.client ? { client: ctx.client } : {}),
      };
      let answer: ApprovalDecision;
      try {
        answer = await (ctx.approve ?? deps.approve)(request, ctx.signal);
      } catch (err) {
        const e = err instanceof MooringError ? err : new MooringError('refused', toErrorData(err).message);
        return refuse(e.code === 'cancelled' ? 'cancelled' : 'timeout', 'nobody', e);
      }
      if (answer.outcome === 'deny')
        await refuse(
          'deny',
          answer.decidedBy,
          new MooringError('refused', `You denied ${entry.friendlyName}.`, 'The tool was not run.'),
        );
      decision = answer.outcome === 'always' ? 'always' : 'approve';
      decidedBy = answer.decidedBy;
      if (answer.arguments) args = answer.arguments;
      if (answer.outcome === 'always')
        await deps.approvals.remember({ identity, tool: fingerprinted, decidedBy: answer.decidedBy });
    }
  }
  await audit(decision, decidedBy, verdict.reason, args, args !== prepared.args);

  emit('running');
  try {
    const raw = await entry.handle.call(args, {
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      onProgress: (p) => {
        emit('running', { progress: p });
        ctx.onProgress?.(p);
      },
    });
    const result = normalizeResult(raw, { outputSchema: entry.outputSchema });
    emit(result.isError ? 'failed' : 'done', { result, fixes: prepared.fixes });
    return { id, entry, result, fixes: prepared.fixes, decision, arguments: args };
  } catch (err) {
    emit('failed', { error: toErrorData(err) });
    throw err;
  }
}
