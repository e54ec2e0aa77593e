// The agent's tool runtime over the real path (ARCHITECTURE.md, "The path of one tool call"):
// per conversation a frozen tool set (direct, or deferred behind tool_search), then every call through
// the tools service's one gated call — catalog → safety → session — and the result shaped for the model.
import { Buffer } from 'node:buffer';
import { isProviderId } from '@shared/providers';
import type { Settings } from '@shared/settings';
import { toModelContent } from '../catalog/normalizeResult';
import { ConversationTools } from '../catalog/conversationTools';
import type { Provider } from '../catalog/adaptSchema';
import { toErrorData } from '../errors';
import type { ToolCallEvent } from '../calls/toolCallRunner';
import type { ToolService } from '../calls/toolService';
import type { AgentToolRuntime, ModelTool, ToolCall, ToolExecutionContext, ToolOutcome } from './toolRuntime';

/** What the runtime needs of the core: the tools service and the settings it reads. */
export interface CoreToolRuntimeDeps {
  tools: Pick<ToolService, 'catalog' | 'call' | 'on' | 'off'>;
  settings: () => Settings;
}

export interface CoreToolRuntimeOptions {
  /** Whose schema rules the model-facing tools follow (ollama, openai, anthropic). */
  provider?: string;
  /** A named tool set (settings.toolSets): the model is offered only those tools. */
  toolSet?: string;
  /** The conversation's project folder, canonical, its sessions started (the workspaces service's `ensure`). */
  workspace?: string;
  /** The model takes native image blocks. */
  vision: boolean;
  /** Cap on what one result may put into the prompt. */
  maxChars?: number;
  /** The CLI's --yes. */
  preApproved?: boolean;
  /** False when nobody can answer an approval (a script without --yes). */
  interactive?: boolean;
  /** Who the calls are for in the audit log (default `conversation:<id>`), e.g. an external MCP client. */
  client?: string;
  approvalTimeoutMs?: number;
}

const REFUSED_CODES = new Set(['refused', 'untrusted_command', 'vulnerable_package', 'ssrf_blocked']);

export class CoreToolRuntime implements AgentToolRuntime {
  private readonly conversations = new Map<string, ConversationTools>();

  constructor(
    private readonly deps: CoreToolRuntimeDeps,
    private readonly opts: CoreToolRuntimeOptions,
  ) {}

  private provider(): Provider {
    const p = this.opts.provider;
    return p && isProviderId(p) ? p : 'anthropic';
  }

  private toolsOf(conversationId: string): ConversationTools {
    let ct = this.conversations.get(conversationId);
    if (!ct) {
      const t = this.deps.settings().deferredToolThreshold;
      ct = new ConversationTools(this.catalog(), { thresholds: { maxTools: t.tools, maxTokens: t.tokens } });
      this.conversations.set(conversationId, ct);
    } else ct.updateCatalog(this.catalog());
    return ct;
  }

  private catalog() {
    return this.deps.tools.catalog({
      provider: this.provider(),
      ...(this.opts.toolSet ? { toolSet: this.opts.toolSet } : {}),
      ...(this.opts.workspace ? { workspace: this.opts.workspace } : {}),
    });
  }

  tools(conversationId: string): ModelTool[] {
    return this.toolsOf(conversationId).modelTools();
  }

  /** The system-prompt paragraph listing deferred tools (empty in direct mode). */
  systemPrompt(conversationId: string): string | undefined {
    const ct = this.toolsOf(conversationId);
    return ct.mode === 'deferred' ? ct.deferredListText() : undefined;
  }

  async execute(call: ToolCall, ctx: ToolExecutionContext): Promise<ToolOutcome> {
    const ct = this.toolsOf(ctx.conversationId);
    if (ct.isToolSearch(call.name)) return { status: 'done', text: ct.runToolSearch(call.arguments).text };
    let modelName: string;
    try {
      modelName = ct.resolveCall(call.name).modelName;
    } catch (err) {
      return {
        status: 'failed',
        text: `tool ${call.name} failed: ${toErrorData(err).message}; answer without it`,
      };
    }
    const onEvent = (e: ToolCallEvent) => {
      if (e.id !== call.id) return;
      if (e.phase === 'awaiting-approval') ctx.emit({ state: 'awaiting-approval' });
      else if (e.phase === 'running')
        ctx.emit({ state: 'running', ...(e.progress ? { progress: e.progress } : {}) });
    };
    this.deps.tools.on('toolCall', onEvent);
    try {
      const outcome = await this.deps.tools.call(modelName, call.arguments, {
        id: call.id,
        client: this.opts.client ?? `conversation:${ctx.conversationId}`,
        conversationId: ctx.conversationId,
        ...(this.opts.approvalTimeoutMs ? { approvalTimeoutMs: this.opts.approvalTimeoutMs } : {}),
        ...(this.opts.workspace ? { workspace: this.opts.workspace } : {}),
        signal: ctx.signal,
        ...(this.opts.preApproved ? { preApproved: true } : {}),
        ...(this.opts.interactive === false ? { interactive: false } : {}),
      });
      const content = toModelContent(outcome.result, {
        vision: this.opts.vision,
        maxChars: this.opts.maxChars ?? 20_000,
      });
      const text = content.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
      const images = content.content.flatMap((c) =>
        c.type === 'image' ? [{ mimeType: c.mimeType, data: Buffer.from(c.bytes).toString('base64') }] : [],
      );
      return {
        status: outcome.result.isError ? 'failed' : 'done',
        text: outcome.result.isError ? `tool ${outcome.entry.friendlyName} failed: ${text}` : text,
        ...(images.length ? { images } : {}),
        ...(outcome.result.structured !== undefined ? { structured: outcome.result.structured } : {}),
      };
    } catch (err) {
      const e = toErrorData(err);
      const refused = REFUSED_CODES.has(e.code);
      return {
        status: refused ? 'refused' : 'failed',
        text: `tool ${call.name} ${refused ? 'was refused' : 'failed'}: ${e.message}; answer without it`,
      };
    } finally {
      this.deps.tools.off('toolCall', onEvent);
    }
  }
}
