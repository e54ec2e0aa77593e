// The safety step of one tool call (ARCHITECTURE.md, "The path of one tool call"): fingerprint the tool,
// look up a remembered approval, decide, ask through the broker when needed, remember "always", and write
// exactly one audit line for whatever happened. The agent loop, the CLI and Mooring's own server all call
// this one function, so no host can skip a step. The decision is made afresh at every call from its inputs
// as they are then (`decideGate`); nothing keeps a verdict from one call to the next.
//
// To add an input to the decision: a field of `GateSubject` (about the server or the tool, read by the tools
// service at each call) or of `GateDeps` (a store or a switch), read in `decideGate`; a store that can change
// without an event (a file another process writes) implements `VerdictSource` and is listed in
// `gateSources` (verdictSources.ts), so the call path's one revision moves with it (calls/callRevision.ts).
import type { ServerConfig } from '@shared/config';
import { describeFlow, flowDestination, flowOf, type DataFlow, type ReadOrigin } from '@shared/dataFlow';
import type { ApprovalLookup, AuditDecision, PolicyVerdict, ToolAnnotationHints } from '@shared/approval';
import { MooringError } from '../errors';
import { decide, type CallerKind } from './approvalPolicy';
import type { ApprovalBroker } from './approvalBroker';
import type { ApprovalStore } from './approvalStore';
import type { AuditInput, AuditLog } from './auditLog';
import type { ConversationGrants } from './conversationGrants';
import type { FlowPermissions } from './flowPermissions';
import { skillGrantOf, type SkillToolGrantLookup } from './skillToolGrant';
import type { PinLookup, ToolPins } from './toolPins';
import type { WaitingQuestions } from './waitingQuestions';
import { withFlow } from './flowVerdict';
import {
  serverIdentity,
  toolFingerprint,
  type FingerprintedTool,
  type ServerIdentity,
} from './toolFingerprint';

export interface GateDeps {
  store: ApprovalStore;
  broker: Pick<ApprovalBroker, 'request'>;
  audit: AuditLog;
  /** The global YOLO switch, read at each call so toggling it applies at once. */
  yolo: () => boolean;
  /** "Allow for this conversation" answers, in memory (safety/conversationGrants.ts). */
  grants?: ConversationGrants;
  /** Each tool's contract as first seen or last accepted (safety/toolPins.ts). */
  pins?: Pick<ToolPins, 'lookup' | 'accept' | 'revision' | 'changed'>;
  /** The pairs of servers data may flow between unasked (safety/flowPermissions.ts, docs/trust.md). */
  flows?: Pick<FlowPermissions, 'allows' | 'allow' | 'revision'>;
  /** The calls waiting for an answer, told when a grant may cover them (safety/waitingQuestions.ts). */
  questions?: WaitingQuestions;
  /** Skills a conversation loaded with their `allowed-tools` granted (skills/skillToolGrants.ts). */
  skillTools?: SkillToolGrantLookup;
}

/** What a call's decision depends on, apart from the call's own arguments and context. */
export interface GateSubject {
  config: Pick<ServerConfig, 'name' | 'transport' | 'command' | 'args' | 'url' | 'policy'>;
  tool: FingerprintedTool & { annotations?: ToolAnnotationHints };
  /** False when the tool filters (or the new-tool quarantine) disable the tool. */
  enabled: boolean;
  /** Why the catalog disabled it and what to do (`CatalogEntry.excludedReason`/`excludedHint`). */
  disabled?: { reason?: string | undefined; hint?: string | undefined };
  /** Who wants the call (approvalPolicy.ts): a person's own call of a tool that is off asks. */
  caller?: CallerKind;
  /**
   * What the conversation asking has read so far (each result's origin, shared/dataFlow.ts): a call that can
   * carry it to another server is a flow, which asks (docs/trust.md). Absent outside a conversation.
   */
  readFrom?: readonly ReadOrigin[];
}

export interface GateCall extends GateSubject {
  arguments: Record<string, unknown>;
  /** Who wants the call (conversation id, MCP client name), for the dialog and the audit log. */
  client?: string;
  /** The conversation asking, so the dialog can name it by its title. */
  conversationId?: string;
  signal?: AbortSignal;
  /**
   * Set when the caller approved up front (the CLI's `--yes`): an `ask` becomes an approval decided by
   * this name. Never turns a `refuse` into a call.
   */
  preApprovedBy?: string;
  /** False when no UI can answer (a CLI without a TTY): an `ask` is refused with a hint instead of waiting. */
  interactive?: boolean;
  timeoutMs?: number;
  /** The code-mode program making the call, shown in the dialog (docs/code-mode.md). */
  program?: { code: string; call: number };
}

export interface GateResult {
  /**
   * The audit line of an automatic decision, when it is still being written (absent when it was written
   * before the gate returned): the caller awaits it before it sends the request, so no call runs that is
   * not in the log (docs/data-on-disk.md, "Data on disk").
   */
  audited?: Promise<unknown>;
  /** The arguments to call with: the user's edits when they edited them. */
  arguments: Record<string, unknown>;
  /** The user edited the arguments in the approval dialog. */
  argsEdited: boolean;
  decision: AuditDecision;
  decidedBy: string;
  verdict: PolicyVerdict;
  fingerprint: string;
  /**
   * The standing permission the call ran under without a question, in the person's words ("Always
   * allow", "Allowed for this conversation", a skill's grant): the call's card shows it.
   */
  grant?: string;
}

/**
 * The decision for one call of a tool from its inputs as they are now: its fingerprint, what is remembered
 * for it, and the policy's verdict under the YOLO switch. Made at every call, never kept.
 */
export interface GateDecision {
  identity: ServerIdentity;
  fingerprint: string;
  remembered: ApprovalLookup;
  /** The tool against its pinned contract (absent without pins). */
  pin?: PinLookup;
  verdict: PolicyVerdict;
  /** The flow the call makes from what the conversation read (docs/trust.md), when it makes one. */
  flow?: DataFlow;
}

export function decideGate(
  deps: Pick<GateDeps, 'store' | 'yolo' | 'pins' | 'flows'>,
  subject: GateSubject,
): GateDecision {
  const { config, tool } = subject;
  const identity = serverIdentity(config);
  const remembered = deps.store.lookup(identity, tool);
  const pin = deps.pins?.lookup(identity, tool);
  const yolo = deps.yolo();
  const verdict = decide({
    contractChanged: pin?.status === 'changed',
    policy: config.policy,
    annotations: tool.annotations,
    enabled: subject.enabled,
    disabledReason: subject.disabled?.reason,
    ...(subject.caller ? { caller: subject.caller } : {}),
    yolo,
    remembered,
  });
  // What the conversation read is an input too: a call that carries it to another server is a flow.
  const flow = subject.readFrom?.length
    ? flowOf(subject.readFrom, flowDestination(config.name, tool.name, tool.annotations), deps.flows)
    : undefined;
  return {
    identity,
    fingerprint: toolFingerprint(identity, tool),
    remembered,
    ...(pin ? { pin } : {}),
    verdict: flow
      ? withFlow(verdict, flow, config.policy === 'trust-all' || yolo || remembered.status === 'allowed')
      : verdict,
    ...(flow ? { flow } : {}),
  };
}

/** One call as the fast path needs it: its tool's subject and decision, its arguments and who asks. */
export interface AutomaticCall {
  subject: GateSubject;
  decision: GateDecision;
  arguments: Record<string, unknown>;
  client?: string | undefined;
}

/**
 * The common case without a promise in between: a call decided "auto" gets its audit line
 * issued now and its result at once (with `audited` when the line is still on its way); anything else
 * (refuse, ask, a pre-approval) is `undefined`, for `authorizeCall`.
 */
export function authorizeAutomatic(
  deps: Pick<GateDeps, 'audit'>,
  call: AutomaticCall,
): GateResult | undefined {
  const { decision: decided } = call;
  if (decided.verdict.decision !== 'auto') return undefined;
  const line: AuditInput = {
    server: call.subject.config.name,
    tool: call.subject.tool.name,
    decision: 'auto',
    decidedBy: 'policy',
    fingerprint: decided.fingerprint,
    client: call.client,
    reason: decided.verdict.reason,
    arguments: call.arguments,
    ...(decided.flow ? { flow: describeFlow(decided.flow) } : {}),
  };
  const result: GateResult = {
    arguments: call.arguments,
    argsEdited: false,
    decision: 'auto',
    decidedBy: 'policy',
    verdict: decided.verdict,
    fingerprint: decided.fingerprint,
    ...(decided.remembered.status === 'allowed' ? { grant: 'Always allow' } : {}),
  };
  // Written now when it can be; else on its way (the tick's one write, or the key's first load), and
  // awaited by the caller before it sends the request.
  const written = deps.audit.recordSoon(line);
  if (!(written instanceof Promise)) return result;
  written.catch(() => undefined); // awaited by the caller; never an unhandled rejection meanwhile
  result.audited = written;
  return result;
}

/** Decides one call (or takes the decision the caller made for it now), asks when needed, audits. */
export async function authorizeCall(
  deps: GateDeps,
  call: GateCall,
  decided: GateDecision = decideGate(deps, call),
): Promise<GateResult> {
  const { config, tool } = call;
  const { identity, fingerprint, remembered, pin, verdict, flow } = decided;
  const flowText = flow ? describeFlow(flow) : undefined;
  /** The servers whose content the call carries, each once. */
  const flowFrom = flow ? [...new Set(flow.from.map((o) => o.server))] : undefined;
  const label = `"${tool.name}" of server "${config.name}"`;
  const audit = (
    decision: AuditDecision,
    decidedBy: string,
    extra: { reason?: string; args?: Record<string, unknown>; edited?: boolean } = {},
  ) =>
    deps.audit.record({
      server: config.name,
      tool: tool.name,
      decision,
      decidedBy,
      fingerprint,
      client: call.client,
      reason: extra.reason ?? verdict.reason,
      arguments: extra.args ?? call.arguments,
      argsEdited: extra.edited,
      ...(flowText ? { flow: flowText } : {}),
    });
  const done = (
    decision: AuditDecision,
    decidedBy: string,
    args = call.arguments,
    argsEdited = false,
  ): GateResult => ({
    arguments: args,
    argsEdited,
    decision,
    decidedBy,
    verdict,
    fingerprint,
  });

  if (verdict.decision === 'refuse') {
    await audit('refuse', 'policy');
    throw new MooringError(
      'refused',
      `Mooring refused to call ${label}: ${verdict.reason}.`,
      call.disabled?.hint ??
        `Turn it on: mooring mcp tools ${config.name} --enable ${tool.name} (in the app: Tools).`,
    );
  }
  const automatic = authorizeAutomatic(deps, {
    subject: call,
    decision: decided,
    arguments: call.arguments,
    client: call.client,
  });
  if (automatic) return automatic;
  const grantKey = call.conversationId
    ? {
        conversationId: call.conversationId,
        server: config.name,
        tool: tool.name,
        fingerprint,
        ...(flowFrom ? { flowFrom } : {}),
      }
    : undefined;
  // A flow is covered only by an "allow for this conversation" given on a question that named it.
  if (grantKey && deps.grants?.allows(grantKey)) {
    const decidedBy = 'user (allowed for this conversation)';
    await audit('approve', decidedBy);
    return { ...done('approve', decidedBy), grant: 'Allowed for this conversation' };
  }
  // A skill's granted allowed-tools, within the gate's other rules (safety/skillToolGrant.ts).
  const bySkill = await skillGrantOf(deps, call, decided);
  if (bySkill) {
    await audit('approve', bySkill.decidedBy, { reason: bySkill.reason });
    return { ...done('approve', bySkill.decidedBy), grant: bySkill.decidedBy };
  }
  // --yes and a schedule's allowed tools never carry untrusted or open-world content into the open world.
  if (call.preApprovedBy && !flow?.strong) {
    await audit('approve', call.preApprovedBy);
    return done('approve', call.preApprovedBy);
  }
  if (call.interactive === false) {
    await audit('refuse', 'policy', { reason: `${verdict.reason}; nobody could be asked` });
    throw new MooringError(
      'refused',
      `Calling ${label} needs your approval: ${verdict.reason}.`,
      flow
        ? `If ${flow.to.server} may receive it, allow the pair: mooring mcp flows allow ${flow.from[0]!.server} ${flow.to.server}`
        : call.enabled
          ? 'Re-run with --yes to approve this call, or set the server’s policy (e.g. trust-all) if you trust it.'
          : `Re-run with --yes to approve this call. To let models use it too: ${call.disabled?.hint ?? `mooring mcp tools ${config.name} --enable ${tool.name} (in the app: Tools).`}`,
    );
  }

  // A grant given on another question while this one waits ("Always allow", "Allow for this conversation")
  // may cover this call too: then it runs as that grant says, and its question goes.
  const asked = new AbortController();
  let covered: GateResult | undefined;
  const stopFollowing = deps.questions?.follow(() => {
    if (covered) return;
    const now = decideGate(deps, call);
    const auto = authorizeAutomatic(deps, {
      subject: call,
      decision: now,
      arguments: call.arguments,
      client: call.client,
    });
    if (auto) covered = auto;
    else if (grantKey && deps.grants?.allows({ ...grantKey, fingerprint: now.fingerprint }))
      covered = done('approve', 'user (allowed for this conversation)');
    if (covered) asked.abort();
  });
  let answer;
  try {
    answer = await deps.broker.request(
      {
        server: config.name,
        tool: tool.name,
        friendlyName: tool.title ?? tool.annotations?.title ?? tool.name,
        annotations: tool.annotations ?? {},
        arguments: call.arguments,
        fingerprint,
        reason: verdict.reason,
        ...(remembered.status === 'lapsed'
          ? { diff: remembered.diff }
          : pin?.status === 'changed'
            ? { diff: pin.diff, diffSince: 'pinned' as const }
            : {}),
        ...(call.client !== undefined ? { client: call.client } : {}),
        ...(call.conversationId !== undefined ? { conversationId: call.conversationId } : {}),
        ...(call.program ? { program: call.program } : {}),
        ...(flow && flowText
          ? {
              flow: {
                text: flowText,
                from: flowFrom!,
                to: flow.to.server,
                strong: flow.strong,
              },
            }
          : {}),
      },
      {
        signal: call.signal ? AbortSignal.any([call.signal, asked.signal]) : asked.signal,
        timeoutMs: call.timeoutMs,
      },
    );
  } catch (err) {
    if (covered && !call.signal?.aborted) {
      if (covered.decision === 'approve') await audit('approve', covered.decidedBy);
      return covered;
    }
    if (err instanceof MooringError)
      await audit(err.code === 'cancelled' ? 'cancelled' : 'timeout', 'broker', { reason: err.message });
    throw err;
  } finally {
    stopFollowing?.();
  }
  const args = answer.arguments ?? call.arguments;
  const edited = answer.arguments !== undefined;
  if (answer.outcome === 'deny') {
    await audit('deny', answer.decidedBy);
    throw new MooringError(
      'refused',
      `You denied the call to ${label}.`,
      'Ask again, or change the request, if you want it to run.',
    );
  }
  if (answer.outcome === 'always') await deps.store.remember({ identity, tool, decidedBy: answer.decidedBy });
  // A person saw the diff and let the call run: the tool as it is now is its contract from here on.
  if (pin?.status === 'changed') await deps.pins?.accept(identity, tool);
  if (flow && answer.allowFlow)
    for (const from of flowFrom!) await deps.flows?.allow(from, flow.to.server, answer.decidedBy);
  // Only a request that named a conversation offers this answer; anything else counts as once.
  if (answer.outcome === 'conversation' && grantKey) deps.grants?.allow(grantKey);
  const audited = answer.outcome === 'conversation' ? 'approve' : answer.outcome;
  // Calls still waiting that this grant covers run now (they check against the grant as given).
  if (answer.outcome === 'always' || (answer.outcome === 'conversation' && grantKey))
    deps.questions?.granted();
  await audit(audited, answer.decidedBy, { args, edited });
  return done(audited, answer.decidedBy, args, edited);
}
