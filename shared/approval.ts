// The approval contract: what the safety room asks, what the UI and the CLI prompt answer.
// Pure types and zod: the renderer renders requests and validates its answers with these very schemas.
import { z } from 'zod';
import type { ErrorData } from './errors';

/** The MCP tool annotations (spec 2025-06-18 "Tool annotations"); every field is an untrusted hint. */
export interface ToolAnnotationHints {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * Whether the hints mark a tool read-only. Contradictory hints (`readOnlyHint` and `destructiveHint` both
 * true) count as destructive: every hint comes from a possibly untrusted server (MCP spec, "Tool
 * annotations"), so the cautious reading wins.
 */
export function hintsReadOnly(a: ToolAnnotationHints | undefined): boolean {
  return a?.readOnlyHint === true && a.destructiveHint !== true;
}

/** The policy engine's verdict for one call. */
export type PolicyDecision = 'auto' | 'ask' | 'refuse';

export interface PolicyVerdict {
  decision: PolicyDecision;
  /** One sentence for the user: why this call runs, asks or is refused. */
  reason: string;
}

/** One human-readable difference between the approved tool and the tool the server now lists. */
export interface ToolChange {
  kind: 'identity' | 'title' | 'description' | 'schema' | 'annotation' | 'file';
  /** For schema and annotation changes: a JSON Pointer into the schema, or the annotation name. */
  path?: string;
  change: 'added' | 'removed' | 'changed';
  /** JSON text of the old and new value (absent when added or removed). */
  before?: string;
  after?: string;
  /** One line for the dialog, e.g. `description changed` or `schema /properties/cc added`. */
  summary: string;
}

/** What the approval store knows about a remembered "always allow" for one server + tool. */
export type ApprovalLookup =
  | { status: 'none' }
  | { status: 'allowed'; fingerprint: string; decidedBy: string; at: number }
  /** The tool changed after it was allowed (a "rug pull"): the approval no longer applies. */
  | { status: 'lapsed'; approvedFingerprint: string; currentFingerprint: string; diff: ToolChange[] };

/** What the core hands the broker; the broker adds `id`, `requestedAt` and `expiresAt`. */
export interface ApprovalRequestInput {
  server: string;
  tool: string;
  /** The name shown to the user: the tool's title, or its annotation title, or its name. */
  friendlyName: string;
  annotations: ToolAnnotationHints;
  arguments: Record<string, unknown>;
  fingerprint: string;
  /** Why the policy asks (e.g. "the tool may be destructive"). */
  reason: string;
  /** Present when a remembered approval lapsed or the tool left its pin: what changed. */
  diff?: ToolChange[];
  /**
   * What `diff` compares with: `approved`, the tool as the user chose "always allow" for it (the default);
   * `pinned`, the tool as Mooring first saw it or a person last accepted it (safety/toolPins.ts).
   */
  diffSince?: 'approved' | 'pinned';
  /** Who wants the call (a conversation id, an MCP client's name), for the dialog and the audit log. */
  client?: string;
  /**
   * The conversation asking, when it is one: the dialog names it by its title, and offers "Allow for this
   * conversation".
   */
  conversationId?: string;
  /**
   * The call carries what the conversation read from other servers (shared/dataFlow.ts, docs/trust.md):
   * the sentence that names the flow, its servers, and whether it is strong (untrusted or open-world
   * content into an open-world tool, or into the server that gave it: only the person's yes, or an allowed
   * pair, lets it through).
   */
  flow?: { text: string; from: string[]; to: string; strong: boolean };
  /** The call is one a code-mode program makes (docs/code-mode.md): the program, and which call it is. */
  program?: { code: string; call: number };
  /**
   * The load of a skill whose `allowed-tools` names tools of its server (docs/skills.md): the dialog offers
   * a separate tick, off by default, to let those tools of that server run without asking while the skill is
   * loaded in this conversation (`grantSkillTools` in the answer).
   */
  skillTools?: { server: string; tools: string[] };
}

export interface ApprovalRequest extends ApprovalRequestInput {
  id: string;
  requestedAt: number;
  /** Epoch ms after which the request is refused unanswered. */
  expiresAt: number;
}

/**
 * The answers to an approval request and how long each lasts: `approve` this call only; `conversation`
 * every call of this tool in the same conversation until Mooring restarts (only for a request that names a
 * conversation); `always` every call from now on, until the tool changes or the user revokes it; `deny`.
 */
export const ApprovalOutcomeSchema = z.enum(['approve', 'conversation', 'always', 'deny']);
export type ApprovalOutcome = z.infer<typeof ApprovalOutcomeSchema>;

export const ApprovalDecisionSchema = z
  .object({
    outcome: ApprovalOutcomeSchema,
    /** The arguments as the user edited them; absent means "as requested". */
    arguments: z.record(z.string(), z.unknown()).optional(),
    /** Who answered: `user:ui`, `user:cli`, `policy`, … — written to the audit log. */
    decidedBy: z.string().min(1, 'must say who decided'),
    /** With an approval of a request that names a flow: also allow its pairs of servers from now on. */
    allowFlow: z.boolean().optional(),
    /** With an approval of a skill's load that offers it (`skillTools`): also grant its allowed-tools. */
    grantSkillTools: z.boolean().optional(),
  })
  .strict();
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;

/** How an approval request ended: answered, or unanswered (timeout: `refused`; abort: `cancelled`). */
export interface ApprovalResolved {
  request: ApprovalRequest;
  /** Set when the user answered. */
  decision?: ApprovalDecision;
  /** Set when the request ended unanswered. */
  error?: ErrorData;
}

/**
 * What the audit log records as the decision for one call (or one skill's load or approval; `revoke`: a
 * skill's approval taken back, docs/skills.md).
 */
export type AuditDecision =
  'auto' | 'approve' | 'always' | 'deny' | 'refuse' | 'timeout' | 'cancelled' | 'revoke';
