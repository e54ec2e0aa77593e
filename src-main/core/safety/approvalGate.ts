// The safety step of one tool call (ARCHITECTURE.md, "The path of one tool call"): fingerprint the tool,
// look up a remembered approval, decide, ask through the broker when needed, remember "always", and write
// exactly one audit line for whatever happened. The agent loop, the CLI and Mooring's own server all call
// this one function, so no host can skip a step. What a call's decision depends on besides its arguments
// (the server, the tool's fingerprint, a remembered approval, the YOLO switch) is worked out once per tool
// (`planGate`) and kept in the tool's call plan (calls/callPlan.ts) until one of those changes.
import type { ServerConfig } from '@shared/config';
import type { ApprovalLookup, AuditDecision, PolicyVerdict, ToolAnnotationHints } from '@shared/approval';
import { MooringError } from '../errors';
import { decide } from './approvalPolicy';
import type { ApprovalBroker } from './approvalBroker';
import type { ApprovalStore } from './approvalStore';
import type { AuditInput, AuditLog } from './auditLog';
import type { ConversationGrants } from './conversationGrants';
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
}

/** What a call's decision depends on, apart from the call's own arguments and context. */
export interface GateSubject {
  config: Pick<ServerConfig, 'name' | 'transport' | 'command' | 'args' | 'url' | 'policy'>;
  tool: FingerprintedTool & { annotations?: ToolAnnotationHints };
  /** False when the tool filters (or the new-tool quarantine) disable the tool. */
  enabled: boolean;
  /** Why the catalog disabled it and what to do (`CatalogEntry.excludedReason`/`excludedHint`). */
  disabled?: { reason?: string | undefined; hint?: string | undefined };
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
}

export interface GateResult {
  /**
   * The audit line of an automatic decision, when it is still being written (absent when it was written
   * before the gate returned): the caller awaits it before it sends the request, so no call runs that is
   * not in the log (ARCHITECTURE.md, "Data on disk").
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
}

/**
 * The decision for one tool as things stand: its fingerprint, what is remembered for it, and the policy's
 * verdict under the YOLO switch and the approvals as they are now. Valid while `gatePlanIsCurrent`.
 */
export interface GatePlan {
  identity: ServerIdentity;
  fingerprint: string;
  remembered: ApprovalLookup;
  verdict: PolicyVerdict;
  /** The switch and the approvals' version the verdict was made with. */
  yolo: boolean;
  approvals: number;
}

export function planGate(deps: Pick<GateDeps, 'store' | 'yolo'>, subject: GateSubject): GatePlan {
  const { config, tool } = subject;
  const identity = serverIdentity(config);
  // The revision before the lookup: a change in between makes the plan stale, never a stale plan current.
  const approvals = deps.store.revision();
  const remembered = deps.store.lookup(identity, tool);
  const yolo = deps.yolo();
  return {
    identity,
    fingerprint: toolFingerprint(identity, tool),
    remembered,
    verdict: decide({
      policy: config.policy,
      annotations: tool.annotations,
      enabled: subject.enabled,
      disabledReason: subject.disabled?.reason,
      yolo,
      remembered,
    }),
    yolo,
    approvals,
  };
}

/**
 * False once the YOLO switch flipped or an approval was remembered or forgotten since the plan was made,
 * by this process or another (one stat of approvals.json: safety/approvalStore.ts).
 */
export function gatePlanIsCurrent(deps: Pick<GateDeps, 'store' | 'yolo'>, plan: GatePlan): boolean {
  return plan.yolo === deps.yolo() && plan.approvals === deps.store.revision();
}

/** One call as the fast path needs it: its tool's subject and plan, its arguments and who asks. */
export interface AutomaticCall {
  subject: GateSubject;
  plan: GatePlan;
  arguments: Record<string, unknown>;
  client?: string | undefined;
}

/**
 * The common case without a promise in between: a call the plan runs without asking gets its audit line
 * issued now and its result at once (with `audited` when the line is still on its way); anything else
 * (refuse, ask, a pre-approval) is `undefined`, for `authorizeCall`.
 */
export function authorizeAutomatic(
  deps: Pick<GateDeps, 'audit'>,
  call: AutomaticCall,
): GateResult | undefined {
  const { plan } = call;
  if (plan.verdict.decision !== 'auto') return undefined;
  const line: AuditInput = {
    server: call.subject.config.name,
    tool: call.subject.tool.name,
    decision: 'auto',
    decidedBy: 'policy',
    fingerprint: plan.fingerprint,
    client: call.client,
    reason: plan.verdict.reason,
    arguments: call.arguments,
  };
  const result: GateResult = {
    arguments: call.arguments,
    argsEdited: false,
    decision: 'auto',
    decidedBy: 'policy',
    verdict: plan.verdict,
    fingerprint: plan.fingerprint,
  };
  // Written now when it can be; else on its way (the tick's one write, or the key's first load), and
  // awaited by the caller before it sends the request.
  const written = deps.audit.recordSoon(line);
  if (!(written instanceof Promise)) return result;
  written.catch(() => undefined); // awaited by the caller; never an unhandled rejection meanwhile
  result.audited = written;
  return result;
}

/** Decides one call (with its tool's plan when the caller keeps one), asks when needed, audits. */
export async function authorizeCall(
  deps: GateDeps,
  call: GateCall,
  plan: GatePlan = planGate(deps, call),
): Promise<GateResult> {
  const { config, tool } = call;
  const { identity, fingerprint, remembered, verdict } = plan;
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
    plan,
    arguments: call.arguments,
    client: call.client,
  });
  if (automatic) return automatic;
  const grantKey = call.conversationId
    ? { conversationId: call.conversationId, server: config.name, tool: tool.name, fingerprint }
    : undefined;
  if (grantKey && deps.grants?.allows(grantKey)) {
    const decidedBy = 'user (allowed for this conversation)';
    await audit('approve', decidedBy);
    return done('approve', decidedBy);
  }
  if (call.preApprovedBy) {
    await audit('approve', call.preApprovedBy);
    return done('approve', call.preApprovedBy);
  }
  if (call.interactive === false) {
    await audit('refuse', 'policy', { reason: `${verdict.reason}; nobody could be asked` });
    throw new MooringError(
      'refused',
      `Calling ${label} needs your approval: ${verdict.reason}.`,
      'Re-run with --yes to approve this call, or set the server’s policy (e.g. trust-all) if you trust it.',
    );
  }

  let decision;
  try {
    decision = await deps.broker.request(
      {
        server: config.name,
        tool: tool.name,
        friendlyName: tool.title ?? tool.annotations?.title ?? tool.name,
        annotations: tool.annotations ?? {},
        arguments: call.arguments,
        fingerprint,
        reason: verdict.reason,
        ...(remembered.status === 'lapsed' ? { diff: remembered.diff } : {}),
        ...(call.client !== undefined ? { client: call.client } : {}),
        ...(call.conversationId !== undefined ? { conversationId: call.conversationId } : {}),
      },
      { signal: call.signal, timeoutMs: call.timeoutMs },
    );
  } catch (err) {
    if (err instanceof MooringError)
      await audit(err.code === 'cancelled' ? 'cancelled' : 'timeout', 'broker', { reason: err.message });
    throw err;
  }
  const args = decision.arguments ?? call.arguments;
  const edited = decision.arguments !== undefined;
  if (decision.outcome === 'deny') {
    await audit('deny', decision.decidedBy);
    throw new MooringError(
      'refused',
      `You denied the call to ${label}.`,
      'Ask again, or change the request, if you want it to run.',
    );
  }
  if (decision.outcome === 'always')
    await deps.store.remember({ identity, tool, decidedBy: decision.decidedBy });
  // Only a request that named a conversation offers this answer; anything else counts as once.
  if (decision.outcome === 'conversation' && grantKey) deps.grants?.allow(grantKey);
  const audited = decision.outcome === 'conversation' ? 'approve' : decision.outcome;
  await audit(audited, decision.decidedBy, { args, edited });
  return done(audited, decision.decidedBy, args, edited);
}
