// The path of one tool call (ARCHITECTURE.md): the caller has resolved the name to a catalog entry →
// catalog repairs the arguments → safety decides (auto, ask, refuse) → if ask, an approval request
// travels to the UI or CLI and back → the session actor runs it (timeout, cancellation, progress) →
// catalog normalises the result. Every step emits one lifecycle event (shared/toolCall.ts), to the
// call's own `onPhase` and to the tools service's one stream; every decision lands in the audit log.
import { randomUUID } from 'node:crypto';
import type { AuditDecision } from '@shared/approval';
import { trustLabelsOf, type ReadOrigin } from '@shared/dataFlow';
import type { Progress, ToolCallEvent, ToolCallPhase } from '@shared/toolCall';
import type { ToolResult } from '@shared/toolResult';
import { formatFix, type ArgFix } from '../catalog/argRepair';
import { prepareArguments, type CatalogEntry } from '../catalog/catalog';
import { normalizeResult } from '../catalog/normalizeResult';
import { toErrorData, type MooringError } from '../errors';
import { retryAfterDrop } from '../mcp/safeRetry';
import type { CallOptions, CallToolResult } from '../mcp/types';
import type { ApprovalBroker } from '../safety/approvalBroker';
import {
  authorizeAutomatic,
  authorizeCall,
  decideGate,
  type GateCall,
  type GateDecision,
  type GateDeps,
  type GateResult,
} from '../safety/approvalGate';
import type { CallerKind } from '../safety/approvalPolicy';
import type { TaskService } from '../tasks/taskService';
import type { CallTarget } from './callTarget';
import {
  afterUrlElicitationError,
  withUrlElicitation,
  type UrlElicitationOptions,
  type UrlElicitationPort,
} from './urlElicitationRetry';

export type { ToolCallEvent, ToolCallPhase };

/** A lifecycle event before the tools service's stream stamps its `seq`. */
export type UnstampedEvent = Omit<ToolCallEvent, 'seq'>;

export interface CallContext {
  /** Who asks: a conversation id, `cli`, an MCP client's name. Shown in the dialog, written to the audit log. */
  client?: string;
  /**
   * The conversation the call belongs to: on every event, in the approval request, and the scope of its
   * "allow for this conversation" answers.
   */
  conversationId?: string;
  /** MCP Apps: a view asks (labelled in `client`); only such a call may reach a tool for views only. */
  fromApp?: boolean;
  /**
   * Who wants the call (safety/approvalPolicy.ts `CallerKind`): `person` for a call someone asked for
   * themselves (the Playground, `mooring mcp call`, an MCP App view's control), so a tool that is off for
   * models is asked about instead of refused. Default `model`.
   */
  caller?: CallerKind;
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
  /** What the conversation asking has read so far: the gate asks about a flow to another server. */
  readFrom?: readonly ReadOrigin[];
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
  /** Every lifecycle event of this call, as it happens: the call's own view of the stream. */
  onPhase?: (e: ToolCallEvent) => void;
  id?: string;
  /** The code-mode program making the call: its approval shows it (docs/code-mode.md). */
  program?: { code: string; call: number };
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
  /** The standing permission it ran under without a question (safety/approvalGate.ts, GateResult). */
  grant?: string;
}

export interface RunnerDeps {
  gate: GateDeps;
  broker: ApprovalBroker;
  /** The tools service's one stream: stamps `seq`, keeps the latest state, tells every subscriber. */
  publish: (e: UnstampedEvent) => ToolCallEvent;
  /** Runs a call as a task when the server runs it as one (tasks/taskService.ts); absent: plain calls. */
  tasks?: Pick<TaskService, 'callTool'>;
  /** The browser flows a -32042 error asks for (urlElicitationRetry.ts); absent: such a call fails. */
  urlElicitation?: UrlElicitationPort;
}

/** One call's lifecycle events: the identity fields once, each phase a fresh object with them. */
class CallEvents {
  constructor(
    private readonly publish: RunnerDeps['publish'],
    private readonly entry: CatalogEntry,
    private readonly ctx: CallContext,
    readonly id: string,
  ) {}

  emit(phase: ToolCallPhase, extra?: Partial<UnstampedEvent>): void {
    const { entry, ctx } = this;
    const e: UnstampedEvent = {
      id: this.id,
      server: entry.server,
      tool: entry.tool,
      modelName: entry.modelName,
      friendlyName: entry.friendlyName,
      phase,
      at: Date.now(),
    };
    if (ctx.client) e.client = ctx.client;
    if (ctx.conversationId) e.conversationId = ctx.conversationId;
    if (extra) Object.assign(e, extra);
    const stamped = this.publish(e);
    ctx.onPhase?.(stamped);
  }
}

/**
 * Runs one call of a tool, with its target as read now (calls/callTarget.ts). The caller resolved the name
 * in the catalog of its own provider, tool set and folder (an exact name resolves even when the tool is
 * disabled, so the safety step refuses it and audits the refusal).
 */
export async function runToolCall(
  deps: RunnerDeps,
  target: CallTarget,
  modelArgs: unknown,
  ctx: CallContext = {},
): Promise<ToolCallOutcome> {
  const entry = target.entry;
  const events = new CallEvents(deps.publish, entry, ctx, ctx.id ?? randomUUID());

  let prepared: { args: Record<string, unknown>; fixes: ArgFix[] };
  try {
    prepared = prepareArguments(entry, modelArgs);
  } catch (err) {
    events.emit('failed', { error: toErrorData(err) });
    throw err;
  }
  events.emit(
    'requested',
    prepared.fixes.length
      ? { arguments: prepared.args, fixes: prepared.fixes.map(formatFix) }
      : { arguments: prepared.args },
  );

  // The safety step (one function for every host): decide from the inputs as they are now, ask through
  // the broker, remember, audit. A call decided "auto" takes no promise on the way.
  let gate: GateResult;
  try {
    const decision = decideGate(deps.gate, target.subject);
    gate =
      authorizeAutomatic(deps.gate, {
        subject: target.subject,
        decision,
        arguments: prepared.args,
        client: ctx.client,
      }) ?? (await authorizeWithPerson(deps, { target, decision, args: prepared.args, ctx, events }));
    // The audit line is written before the request is sent (docs/data-on-disk.md, "Data on disk").
    if (gate.audited) await gate.audited;
  } catch (err) {
    events.emit('refused', { error: toErrorData(err) });
    throw err;
  }
  const args = gate.arguments;

  events.emit('running', {
    ...(gate.argsEdited ? { editedArguments: args } : {}),
    ...(gate.grant ? { grant: gate.grant } : {}),
  });
  const callOpts: CallOptions = {
    onProgress: (p) => {
      events.emit('running', { progress: p });
      ctx.onProgress?.(p);
    },
  };
  if (ctx.signal) callOpts.signal = ctx.signal;
  const run: CallRun = { deps, target, args, ctx, events, callOpts };
  try {
    let raw: CallToolResult;
    try {
      raw = await sendOnce(run);
    } catch (err) {
      raw = await afterFailure(run, err);
    }
    const result = normalizeResult(raw, { outputSchema: entry.outputSchema });
    // The result's trust labels (`_meta`, io.modelcontextprotocol/trust-annotations): its origin carries them.
    const trust = trustLabelsOf(raw);
    if (trust.untrusted || trust.sensitive) result.trust = trust;
    events.emit(result.isError ? 'failed' : 'done', { result });
    return {
      id: events.id,
      entry,
      result,
      fixes: prepared.fixes,
      decision: gate.decision,
      arguments: args,
      argsEdited: gate.argsEdited,
      ...(gate.grant ? { grant: gate.grant } : {}),
    };
  } catch (err) {
    events.emit('failed', { error: toErrorData(err) });
    throw err;
  }
}

/** One authorised call on its way to the session. */
interface CallRun {
  deps: RunnerDeps;
  target: CallTarget;
  args: Record<string, unknown>;
  ctx: CallContext;
  events: CallEvents;
  callOpts: CallOptions;
}

/** One attempt: as a task when the server and the tool call for it (tasks/taskService.ts), else a plain call. */
function sendOnce(run: CallRun): Promise<CallToolResult> {
  const { deps, target, args, ctx, events, callOpts } = run;
  const { tasks } = deps;
  const { actor, entry } = target;
  if (!tasks || !actor) return entry.handle.call(args, callOpts);
  return tasks.callTool({
    actor,
    handle: entry.handle,
    args,
    call: {
      id: events.id,
      modelName: entry.modelName,
      friendlyName: entry.friendlyName,
      ...(ctx.client ? { client: ctx.client } : {}),
      ...(ctx.conversationId ? { conversationId: ctx.conversationId } : {}),
    },
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    onProgress: callOpts.onProgress!,
    onTask: (task) => events.emit('running', { task }),
  });
}

/**
 * After a first attempt failed (the first is made without any of this, so a call that succeeds makes
 * none of it): a -32042 error starts the browser flows it names and runs the call again once they are
 * complete; a dropped connection is retried once, on the reconnected session, only for read-only or
 * idempotent tools (mcp/safeRetry.ts); anything else fails explicitly and is not run twice.
 */
async function afterFailure(run: CallRun, err: unknown): Promise<CallToolResult> {
  const { deps, target, ctx, events } = run;
  const once = () => sendOnce(run);
  const elicitation: UrlElicitationOptions = {
    server: target.entry.server,
    tool: target.entry.tool,
    port: deps.urlElicitation,
    signal: ctx.signal,
    onWaiting: (waitingFor) => events.emit('running', { waitingFor }),
  };
  try {
    return await afterUrlElicitationError(err, once, elicitation);
  } catch (failed) {
    return retryAfterDrop(failed, {
      call: () => withUrlElicitation(once, elicitation),
      tool: target.retry,
      signal: ctx.signal,
      onRetry: (e: MooringError) => events.emit('running', { retry: { attempt: 2, error: e.toData() } }),
    });
  }
}

/** Everything but an automatic decision: refuse, a pre-approval, or a person asked through the broker. */
function authorizeWithPerson(
  deps: RunnerDeps,
  o: {
    target: CallTarget;
    decision: GateDecision;
    args: Record<string, unknown>;
    ctx: CallContext;
    events: CallEvents;
  },
): Promise<GateResult> {
  const { target, ctx, events } = o;
  // The lifecycle shows the wait with the request's id (the broker parks the request synchronously,
  // so it is the newest pending one here).
  const broker: Pick<ApprovalBroker, 'request'> = {
    request: (input, opts) => {
      const pending = deps.broker.request(input, opts);
      const req = deps.broker.pending().at(-1);
      events.emit('awaiting-approval', req ? { approvalId: req.id } : {});
      return pending;
    },
  };
  const call: GateCall = { ...target.subject, arguments: o.args };
  if (ctx.client) call.client = ctx.client;
  if (ctx.conversationId) call.conversationId = ctx.conversationId;
  if (ctx.program) call.program = ctx.program;
  if (ctx.signal) call.signal = ctx.signal;
  if (ctx.preApproved) call.preApprovedBy = ctx.approvedBy ?? `${ctx.client ?? 'user'} (--yes)`;
  if (ctx.interactive === false) call.interactive = false;
  if (ctx.approvalTimeoutMs) call.timeoutMs = ctx.approvalTimeoutMs;
  return authorizeCall({ ...deps.gate, broker }, call, o.decision);
}
