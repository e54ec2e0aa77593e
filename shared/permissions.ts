// What the Permissions screen lists: every standing permission a person gave, with when it was given and
// what it is pinned to, so each can be seen and taken back (services/permissions.ts in the core).
import type { ServerPolicy } from './config';
import type { SkillPermission } from './skills';

/** "Always allow" for one tool, pinned to the tool's fingerprint: a changed tool asks again. */
export interface ToolPermission {
  server: string;
  tool: string;
  fingerprint: string;
  at: number;
  decidedBy: string;
}

/** A server whose policy lets calls run without asking (per server, not per tool). */
export interface ServerPermission {
  server: string;
  policy: Exclude<ServerPolicy, 'default' | 'always-ask'>;
}

/** "Allow for this conversation": in memory, until Mooring restarts. */
export interface ConversationPermission {
  conversationId: string;
  server: string;
  tool: string;
  fingerprint: string;
  at: number;
}

/** An approved project-folder server, pinned to its entry's content. */
export interface WorkspacePermission {
  workspace: string;
  source: string;
  name: string;
  pin: string;
  commandLine: string;
  approvedAt: number;
  /** The approval also allowed what the project file asks beyond an import (trust, trust-all…). */
  heldBackAllowed: boolean;
}

/** A remote server Mooring is signed in to (OAuth); the tokens are in the keychain and never shown. */
export interface SignInPermission {
  server: string;
  /** The server URL the sign-in is for, and the authorization server that issued it. */
  resource: string;
  issuer?: string;
  scope?: string;
  savedAt?: number;
  expiresAt?: number;
}

/** Data may flow from what a conversation read of `from` into `to`'s tools unasked (docs/trust.md). */
export interface FlowPermission {
  /** `*`: `to` is a trusted destination for every server's data (its read-only, closed-world tools). */
  from: string;
  to: string;
  allowedAt: number;
  decidedBy?: string;
}

export interface PermissionsView {
  tools: ToolPermission[];
  flows: FlowPermission[];
  servers: ServerPermission[];
  conversations: ConversationPermission[];
  workspaces: WorkspacePermission[];
  signIns: SignInPermission[];
  /** Skills approved "always", each bound to its manifest (shared/skills.ts, docs/skills.md). */
  skills: SkillPermission[];
}

/** One permission to take back, or all of them. */
export type Revocation =
  | { kind: 'tool'; server: string; tool?: string }
  | { kind: 'server'; server: string }
  | { kind: 'conversation'; conversationId: string; server?: string; tool?: string }
  | { kind: 'workspace'; workspace: string; source: string; name: string }
  | { kind: 'signIn'; server: string }
  | { kind: 'flow'; from: string; to?: string }
  | { kind: 'skill'; server: string; uri?: string }
  | { kind: 'all' };
