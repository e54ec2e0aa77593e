// The agent's tool runtime over the real path (ARCHITECTURE.md, "The path of one tool call"): per
// conversation a frozen tool set (direct, or deferred behind tool_search) in the catalog of the
// conversation's provider, tool set and folder; each call's name resolved once there, then run through
// the tools service's one gated call — safety → session — and the result shaped for the model.
import { isProviderId } from '@shared/providers';
import type { Settings } from '@shared/settings';
import type { CatalogEntry } from '../catalog/catalog';
import type { DeclaredTool } from '../catalog/toolDeclarations';
import { stepContent, toModelContent } from '../catalog/normalizeResult';
import { uiResourceUriOf } from '../catalog/toolVisibility';
import { ConversationTools } from '../catalog/conversationTools';
import type { Provider } from '../catalog/adaptSchema';
import { toErrorData } from '../errors';
import type { ToolService } from '../calls/toolService';
import type { AgentToolRuntime, ModelTool, ToolCall, ToolExecutionContext, ToolOutcome } from './toolRuntime';
import { LOAD_SKILL, loadSkillTool, runLoadSkill, skillsPrompt, type SkillAccess } from './skillTool';
import { unattendedVerdict, type UnattendedPolicy } from './unattendedPolicy';
import { describeFlow, flowDestination, flowOf, type ReadOrigin } from '@shared/dataFlow';

/** What the runtime needs of the core: the tools service and the settings it reads. */
export interface CoreToolRuntimeDeps {
  tools: Pick<ToolService, 'catalog' | 'call' | 'runsWithoutAsking'>;
  settings: () => Settings;
  /** The servers' approved skills and the skill-loading path, for `load_skill` (skillTool.ts). */
  skills?: SkillAccess;
  /**
   * Conversations already told their tools load on demand, shared by every runtime of the process (a turn
   * may get a runtime of its own); without it, this runtime's own.
   */
  announcedDeferred?: Set<string>;
}

export interface CoreToolRuntimeOptions {
  /** Whose schema rules the model-facing tools follow (ollama, openai, anthropic). */
  provider?: string;
  /** A named tool set (settings.toolSets): the model is offered only those tools. */
  toolSet?: string;
  /** The conversation's project folder, canonical, its sessions started (the workspaces service's `ensure`). */
  workspace?: string;
  /** Cap on what one result may put into the prompt. */
  maxChars?: number;
  /** The CLI's --yes. */
  preApproved?: boolean;
  /** False when nobody can answer an approval (a script without --yes). */
  interactive?: boolean;
  /** Who the calls are for in the audit log (default `conversation:<id>`), e.g. an external MCP client. */
  client?: string;
  approvalTimeoutMs?: number;
  /** Why this caller may not use a tool (e.g. an MCP client's scope), or undefined when it may. */
  admit?: (entry: CatalogEntry) => string | undefined;
  /** Nobody is watching (a scheduled run): read-only and allowed tools run, the rest is refused at once. */
  unattended?: UnattendedPolicy;
}

const REFUSED_CODES = new Set(['refused', 'untrusted_command', 'vulnerable_package', 'ssrf_blocked']);

/** Why a call did not run, as the model reads it after "Tool X failed:" (messagesForModel.ts). */
const reason = (err: unknown) => toErrorData(err).message;

/** "write_file is now on", "a, b and 3 more are now off": the tools by their own names, at most four named. */
function said(list: CatalogEntry[], state: 'on' | 'off'): string | undefined {
  if (!list.length) return undefined;
  const names = list.map((e) => e.tool);
  const shown = names.length > 4 ? [...names.slice(0, 3), `${names.length - 3} more`] : names;
  const text = shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)!}`;
  return `${text} ${list.length === 1 ? 'is' : 'are'} now ${state}`;
}

export class CoreToolRuntime implements AgentToolRuntime {
  private readonly conversations = new Map<string, ConversationTools>();
  /** Conversations already told that their tools load on demand (CoreToolRuntimeDeps.announcedDeferred). */
  private readonly announcedDeferred: Set<string>;

  constructor(
    private readonly deps: CoreToolRuntimeDeps,
    private readonly opts: CoreToolRuntimeOptions,
  ) {
    this.announcedDeferred = deps.announcedDeferred ?? new Set();
  }

  private provider(): Provider {
    const p = this.opts.provider;
    return p && isProviderId(p) ? p : 'anthropic';
  }

  /** The conversation's tools over the current catalog: one catalog lookup (cached by the service). */
  private toolsOf(conversationId: string): ConversationTools {
    const catalog = this.deps.tools.catalog({
      provider: this.provider(),
      ...(this.opts.toolSet ? { toolSet: this.opts.toolSet } : {}),
      ...(this.opts.workspace ? { workspace: this.opts.workspace } : {}),
    });
    let ct = this.conversations.get(conversationId);
    if (!ct) {
      const t = this.deps.settings().deferredToolThreshold;
      ct = new ConversationTools(catalog, { thresholds: { maxTools: t.tools, maxTokens: t.tokens } });
      this.conversations.set(conversationId, ct);
    } else ct.updateCatalog(catalog);
    return ct;
  }

  /** Whether this conversation's model is offered `load_skill`: some approved skill, and a person behind it. */
  private offersSkills(conversationId: string): boolean {
    return Boolean(
      this.deps.skills && !this.opts.admit && this.deps.skills.approvedFor(conversationId).length,
    );
  }

  tools(conversationId: string): ModelTool[] {
    const ct = this.toolsOf(conversationId);
    const all = [...ct.modelTools(), ...(this.offersSkills(conversationId) ? [loadSkillTool] : [])];
    const admit = this.opts.admit;
    if (!admit) return all;
    return all.filter((t) => {
      const e = ct.entry(t.name);
      return !e || admit(e) === undefined;
    });
  }

  /** The conversation's server tools with their output schemas, for code mode's typed API. */
  declaredTools(conversationId: string): DeclaredTool[] {
    const ct = this.toolsOf(conversationId);
    return this.tools(conversationId).flatMap((t) => {
      if (ct.isToolSearch(t.name)) return [];
      const outputSchema = ct.entry(t.name)?.handle.definition.outputSchema;
      return [{ ...t, ...(outputSchema ? { outputSchema: outputSchema as Record<string, unknown> } : {}) }];
    });
  }

  beginTurn(conversationId: string): string | undefined {
    const ct = this.toolsOf(conversationId);
    const { on, off } = ct.applySwitches();
    const admitted = (list: CatalogEntry[]) => list.filter((e) => !this.opts.admit?.(e));
    const parts = [said(admitted(on), 'on'), said(admitted(off), 'off')].filter(Boolean);
    const switched = parts.length ? `${parts.join('; ')}.` : undefined;
    // Deferred tools are a choice made for the person: the chat says so once, and where to change it.
    if (ct.mode !== 'deferred' || this.announcedDeferred.has(conversationId)) return switched;
    this.announcedDeferred.add(conversationId);
    const t = this.deps.settings().deferredToolThreshold;
    const deferred =
      `${ct.deferredNames().length} tools load on demand (more than ${t.tools} tools or ${t.tokens} tokens of them): ` +
      'the model finds each with tool_search first. Small local models do better with every tool listed; ' +
      'raise the limit in Settings > Limits, or `mooring settings set deferredToolThreshold.tools N`.';
    return switched ? `${switched} ${deferred}` : deferred;
  }

  /** The system-prompt paragraph listing deferred tools (none in direct mode); frozen per conversation. */
  systemPrompt(conversationId: string): string | undefined {
    const ct = this.toolsOf(conversationId);
    const skills = this.offersSkills(conversationId)
      ? skillsPrompt(this.deps.skills!.approvedFor(conversationId))
      : undefined;
    const parts = [ct.mode === 'deferred' ? ct.deferredListText() : undefined, skills].filter(Boolean);
    return parts.length ? parts.join('\n\n') : undefined;
  }

  viewTarget(conversationId: string, name: string): { server: string; tool: string } | undefined {
    const ct = this.toolsOf(conversationId);
    if (ct.isToolSearch(name)) return undefined;
    let entry: CatalogEntry;
    try {
      entry = ct.resolveCall(name);
    } catch {
      return undefined;
    }
    if (!uiResourceUriOf(entry.handle.definition)) return undefined;
    // Streamed arguments reach a view before the call's gate: only for a call nobody will be asked about.
    if (!this.opts.preApproved && !this.deps.tools.runsWithoutAsking(entry, this.opts.workspace))
      return undefined;
    return { server: entry.server, tool: entry.tool };
  }

  async execute(call: ToolCall, ctx: ToolExecutionContext): Promise<ToolOutcome> {
    const ct = this.toolsOf(ctx.conversationId);
    if (ct.isToolSearch(call.name)) {
      try {
        return { status: 'done', text: ct.runToolSearch(call.arguments).text };
      } catch (err) {
        return { status: 'failed', text: reason(err) };
      }
    }
    if (call.name === LOAD_SKILL && this.offersSkills(ctx.conversationId))
      return runLoadSkill(this.deps.skills!, call.arguments, {
        ...ctx,
        interactive: this.opts.interactive !== false && !this.opts.unattended,
        client: this.opts.client ?? `conversation:${ctx.conversationId}`,
      });
    // The one resolution of this call: exact, bare or suffix name, in this conversation's catalog.
    let entry: CatalogEntry;
    try {
      entry = ct.resolveCall(call.name);
    } catch (err) {
      return { status: 'failed', text: reason(err) };
    }
    const target = { server: entry.server, tool: entry.tool, friendlyName: entry.friendlyName };
    const refusal = this.opts.admit?.(entry);
    if (refusal) return { status: 'refused', text: refusal, target };
    const unattended = this.opts.unattended ? unattendedVerdict(this.opts.unattended, entry) : undefined;
    if (unattended && !unattended.run) return { status: 'refused', text: unattended.reason, target };
    // Nobody watches a schedule: a call that would carry what it read to another server is refused.
    const flow = this.opts.unattended
      ? flowOf(
          ctx.readFrom ?? [],
          flowDestination(entry.server, entry.tool, entry.handle.definition.annotations),
        )
      : undefined;
    if (flow)
      return {
        status: 'refused',
        text: `${this.opts.unattended!.who} runs unattended and this call would move data between servers: ${describeFlow(flow)} Nobody could approve it.`,
        target,
      };
    const annotations = entry.handle.definition.annotations;
    const preApproved = this.opts.preApproved || (unattended?.run && unattended.allowed);
    try {
      const outcome = await this.deps.tools.call(entry, call.arguments, {
        id: call.id,
        client: this.opts.client ?? `conversation:${ctx.conversationId}`,
        conversationId: ctx.conversationId,
        ...(this.opts.approvalTimeoutMs ? { approvalTimeoutMs: this.opts.approvalTimeoutMs } : {}),
        ...(this.opts.workspace ? { workspace: this.opts.workspace } : {}),
        signal: ctx.signal,
        ...(preApproved ? { preApproved: true } : {}),
        ...(unattended?.run && unattended.allowed
          ? { approvedBy: `${this.opts.unattended!.who} (allowed)` }
          : {}),
        ...(this.opts.interactive === false || unattended ? { interactive: false } : {}),
        ...(ctx.onPhase ? { onPhase: ctx.onPhase } : {}),
        ...(ctx.readFrom?.length ? { readFrom: ctx.readFrom } : {}),
        ...(ctx.program ? { program: ctx.program } : {}),
      });
      const result = outcome.result;
      const origin: ReadOrigin = {
        server: entry.server,
        tool: entry.tool,
        openWorld: annotations?.openWorldHint !== false,
        ...(result.trust ?? {}),
      };
      // Images are kept whatever the model takes: the person always sees them (card and gallery); what the
      // model is sent of them is decided per request, for the model of that request (messagesForModel.ts).
      const content = toModelContent(result, {
        vision: true,
        maxChars: this.opts.maxChars ?? 20_000,
      });
      const { text, images, imagesAt, textShown } = stepContent(result, content);
      return {
        status: result.isError ? 'failed' : 'done',
        ...(result.isError ? { resultIsError: true as const } : {}),
        text,
        target,
        ...(images.length ? { images, imagesAt } : {}),
        ...(textShown !== undefined ? { textShown } : {}),
        ...(result.structured !== undefined ? { structured: result.structured } : {}),
        ...(result.structuredInText ? { structuredInText: true } : {}),
        ...(outcome.argsEdited ? { editedArguments: outcome.arguments } : {}),
        ...(outcome.grant ? { grant: outcome.grant } : {}),
        origin,
      };
    } catch (err) {
      const refused = REFUSED_CODES.has(toErrorData(err).code);
      return { status: refused ? 'refused' : 'failed', text: reason(err), target };
    }
  }
}
