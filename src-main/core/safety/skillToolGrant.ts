// A skill's granted `allowed-tools` in the gate (docs/skills.md; ext-skills specification, Security
// Considerations, "No implicit permission grants"). The skills room keeps which skills a conversation loaded
// with the person's grant (skills/skillToolGrants.ts) and the root hands it in; the gate asks it only for a
// call that would ask, and only where no other rule of the gate stands in the way: a flow between servers
// (docs/trust.md), a tool that changed (pins, a lapsed "always"), a server set to "always ask", a tool that
// is off, a managed policy that allows no standing approvals (docs/managed-policy.md).
import type { ServerConfig } from '@shared/config';
import type { ApprovalLookup, PolicyVerdict } from '@shared/approval';
import type { ApprovalStore } from './approvalStore';
import type { PinLookup } from './toolPins';

/** The skills room's answer, handed in by the root: the loaded skill whose granted tools cover a call. */
export interface SkillToolGrantLookup {
  toolGrant(q: {
    conversationId: string;
    server: string;
    tool: string;
  }): Promise<{ name: string; uri: string; decidedBy: string } | undefined>;
}

export async function skillGrantOf(
  deps: { skillTools?: SkillToolGrantLookup | undefined; store: Pick<ApprovalStore, 'rememberingAllowed'> },
  call: {
    conversationId?: string | undefined;
    enabled: boolean;
    config: Pick<ServerConfig, 'name' | 'policy'>;
    tool: { name: string };
  },
  decided: { flow?: unknown; pin?: PinLookup; remembered: ApprovalLookup; verdict: PolicyVerdict },
): Promise<{ decidedBy: string; reason: string } | undefined> {
  const { flow, pin, remembered, verdict } = decided;
  if (!call.conversationId || !deps.skillTools || flow || !call.enabled) return undefined;
  if (pin?.status === 'changed' || remembered.status === 'lapsed') return undefined;
  if (call.config.policy === 'always-ask' || !deps.store.rememberingAllowed()) return undefined;
  const skill = await deps.skillTools.toolGrant({
    conversationId: call.conversationId,
    server: call.config.name,
    tool: call.tool.name,
  });
  if (!skill) return undefined;
  return {
    decidedBy: `${skill.decidedBy} (allowed-tools of skill "${skill.name}", ${skill.uri})`,
    reason: `the skill's allowed-tools, granted while it is loaded in this conversation; ${verdict.reason}`,
  };
}
