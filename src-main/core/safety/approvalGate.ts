// The safety step of one tool call (ARCHITECTURE.md, "The path of one tool call"): fingerprint the tool,
// look up a remembered approval, decide, ask through the broker when needed, remember "always", and write
// exactly one audit line for whatever happened. The agent loop, the CLI and Mooring's own server all call
// this one function, so no host can skip a step.
import type { ServerConfig } from '@shared/config';
import type { AuditDecision, PolicyVerdict, ToolAnnotationHints } from '@shared/approval';
import { MooringError } from '../errors';
import { decide } from './approvalPolicy';
import type { ApprovalBroker } from './approvalBroker';
import type { ApprovalStore } from './approvalStore';
import type { AuditLog } from './auditLog';
import type { ConversationGrants } from './conversationGrants';
import { serverIdentity, toolFingerprint, type FingerprintedTool } from './toolFingerprint';

export interface GateDeps {
  store: ApprovalStore;
  broker: Pick<ApprovalBroker, 'request'>;
  audit: AuditLog;
  /** The global YOLO switch, read at each call so toggling it applies at once. */
  yolo: () => boolean;
  /** "Allow for this conversation" answers, in memory (safety/conversationGrants.ts). */
  grants?: ConversationGrants;
}

export interface GateCall {
  config: Pick<ServerConfig, 'name' | 'transport' | 'command' | 'args' | 'url' | 'policy'>;
  tool: FingerprintedTool & { annotations?: ToolAnnotationHints };
  /** False when the tool filters (or the new-tool quarantine) disable the tool. */
  enabled: boolean;
  /** Why the catalog disabled it and what to do (`CatalogEntry.excludedReason`/`excludedHint`). */
  disabled?: { reason?: string | undefined; hint?: string | undefined };
  arguments: Record<string, unknown>;
  /** Who wants the call (conversation id, MCP client name), for the dialog and the audit log. */
  client?: string;
  /** The conversation asking: the dialog names it by its title, and its "allow for this conversation" answers apply. */
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
   * The audit line of an automatic decision, still being written: the caller runs the tool meanwhile
   * and awaits this before it reports the call done (the append was issued before the call was sent).
   * Writing it first cost more than the tool call itself (README, "Performance").
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

export async function authorizeCall(deps: GateDeps, call: GateCall): Promise<GateResult> {
  const { config, tool } = call;
  const identity = serverIdentity(config);
  const fingerprint = toolFingerprint(identity, tool);
  const remembered = deps.store.lookup(identity, tool);
  const verdict = decide({
    policy: config.policy,
    annotations: tool.annotations,
    enabled: call.enabled,
    disabledReason: call.disabled?.reason,
    yolo: deps.yolo(),
    remembered,
  });
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
        `Enable the tool for server "${config.name}" (its tool list in Settings, or the includeTools/excludeTools of its config).`,
    );
  }
  if (verdict.decision === 'auto') {
    const audited = audit('auto', 'policy');
    audited.catch(() => undefined); // awaited by the caller; never an unhandled rejection meanwhile
    return { ...done('auto', 'policy'), audited };
  }
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
