// The question a skill's load asks when no approval covers its manifest (docs/skills.md): what the person
// sees (name, origin, files and sizes, the diff when it changed, the `allowed-tools` it requests with a
// separate grant tick, off by default), and what the answer records (ext-skills specification, Security
// Considerations, "Content-bound approval", "No implicit permission grants").
import type { ApprovalDecision, ApprovalRequestInput, AuditDecision, ToolChange } from '@shared/approval';
import type { SkillEntry, SkillView } from '@shared/skills';
import { MooringError } from '../errors';
import { allowedToolsOf, type SkillApprovals } from './skillApprovals';
import { manifestOf, pathIn } from './skillVerify';

/** Who loads a skill, and whether anybody can be asked. */
export interface SkillLoadContext {
  conversationId?: string;
  signal?: AbortSignal;
  /** False when nobody can answer (a script without a terminal, a scheduled run). */
  interactive: boolean;
  /** Who asked, for the dialog (`conversation:<id>`, `cli`). */
  client?: string;
}

/** How a load was let through, and whether it grants the skill's allowed-tools (and how). */
export interface LoadAnswer {
  decision: AuditDecision;
  decidedBy: string;
  grant: 'approval' | 'load' | undefined;
}

export async function askToLoad(
  deps: {
    approvals: Pick<SkillApprovals, 'approve'>;
    ask?:
      | ((input: ApprovalRequestInput, opts: { signal?: AbortSignal }) => Promise<ApprovalDecision>)
      | undefined;
  },
  server: string,
  entry: SkillEntry,
  approval: SkillView['approval'],
  ctx: SkillLoadContext,
): Promise<LoadAnswer> {
  const name = entry.frontmatter.name;
  const why =
    approval.state === 'changed'
      ? `the skill changed since it was approved (${approval.diff!.map((d) => d.summary).join('; ')})`
      : approval.state === 'dynamic'
        ? 'the skill is dynamic (no digests): it asks every time'
        : 'the skill is not approved';
  if (!ctx.interactive || !deps.ask)
    throw new MooringError(
      'refused',
      `Loading skill "${name}" (${entry.uri}) from "${server}" needs your approval: ${why}.`,
      `Look at it and approve it on the Skills screen, or: mooring mcp skill ${server} ${entry.uri} --approve`,
    );
  const tools = allowedToolsOf(entry);
  // A grant is bound to a manifest: a dynamic skill (no digests) is never offered one.
  const offersGrant = tools.length > 0 && entry.resources !== 'dynamic' && !!ctx.conversationId;
  const files = manifestOf(entry).map((f) => `${pathIn(entry.uri, f.uri)} (${f.size} bytes)`);
  const decision = await deps.ask(
    {
      server,
      tool: 'load_skill',
      friendlyName: `skill "${name}" from ${server}`,
      annotations: { readOnlyHint: true },
      arguments: { uri: entry.uri, files: entry.resources === 'dynamic' ? 'dynamic' : files },
      fingerprint: manifestOf(entry)[0]?.digest ?? 'dynamic',
      reason:
        `${why}. Its text is untrusted instructions written by "${server}"` +
        (tools.length
          ? offersGrant
            ? `; it asks for allowed-tools ${tools.join(', ')}, which run without asking only if you also tick the grant`
            : `; it asks for allowed-tools ${tools.join(', ')}, which this answer does not grant`
          : '') +
        '. Mooring never runs its scripts',
      ...(approval.diff ? { diff: approval.diff.map(asToolChange) } : {}),
      ...(ctx.client ? { client: ctx.client } : {}),
      ...(ctx.conversationId ? { conversationId: ctx.conversationId } : {}),
      ...(offersGrant ? { skillTools: { server, tools } } : {}),
    },
    ctx.signal ? { signal: ctx.signal } : {},
  );
  if (decision.outcome === 'deny')
    throw new MooringError('refused', `You declined to load skill "${name}" from "${server}".`);
  const grantTools = offersGrant && decision.grantSkillTools === true;
  const decided = decision.outcome === 'conversation' ? 'approve' : decision.outcome;
  if (entry.resources === 'dynamic' || decision.outcome === 'approve')
    return { decision: decided, decidedBy: decision.decidedBy, grant: grantTools ? 'load' : undefined };
  await deps.approvals.approve({
    server,
    entry,
    scope: decision.outcome === 'always' ? 'always' : 'conversation',
    ...(ctx.conversationId ? { conversationId: ctx.conversationId } : {}),
    grantTools,
    decidedBy: decision.decidedBy,
  });
  return { decision: decided, decidedBy: decision.decidedBy, grant: grantTools ? 'approval' : undefined };
}

const asToolChange = (c: { uri: string; change: ToolChange['change']; summary: string }): ToolChange => ({
  kind: 'file',
  path: c.uri,
  change: c.change,
  summary: c.summary,
});
