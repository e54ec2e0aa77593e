// What the chat's turns run with (docs/chat.md, "A turn in the chat"): a tool runtime per conversation
// over the core's one gated call path, and the limits of one request to a model.
import type { ToolService } from '../calls/toolService';
import type { SettingsService } from '../config/settingsService';
import { CodeModeRuntime } from './codeModeRuntime';
import { CoreToolRuntime, type CoreToolRuntimeOptions } from './coreToolRuntime';
import { resultLimits } from './largeResults';
import type { SkillAccess } from './skillTool';
import type { RequestLimits } from './messagesForModel';
import { PROVIDER_IMAGE_LIMITS } from './modelImages';
import { contextWindow } from './providers/modelCapabilities';
import type { AgentToolRuntime } from './toolRuntime';

export class TurnRuntimes {
  private readonly byConversation = new Map<string, { key: string; runtime: AgentToolRuntime }>();
  /** The conversations told their tools load on demand: once per conversation, whichever runtime runs it. */
  private readonly announcedDeferred = new Set<string>();

  constructor(
    private readonly deps: {
      tools: ToolService;
      settings: SettingsService;
      skills?: SkillAccess | undefined;
    },
  ) {}

  /** A tool runtime over the core's one gated call path (the chat's, and `mooring serve`'s agent). */
  toolRuntime(opts: CoreToolRuntimeOptions): CoreToolRuntime {
    return new CoreToolRuntime(
      {
        tools: this.deps.tools,
        settings: () => this.deps.settings.current(),
        ...(this.deps.skills ? { skills: this.deps.skills } : {}),
        announcedDeferred: this.announcedDeferred,
      },
      opts,
    );
  }

  /** The runtime as the turn runs it: with `run_code` over it in code mode (agent/codeModeRuntime.ts). */
  turnRuntime(opts: CoreToolRuntimeOptions & { codeMode?: boolean }): AgentToolRuntime {
    const { codeMode, ...rest } = opts;
    const runtime = this.toolRuntime(rest);
    return codeMode ? new CodeModeRuntime(runtime) : runtime;
  }

  /**
   * One runtime per conversation, provider, tool set, project folder and code mode: the tool schemas follow
   * the provider's rules, the tools the set and the folder's servers.
   */
  forConversation(
    conversationId: string,
    o: { provider: string; toolSet: string | undefined; workspace: string | undefined; codeMode: boolean },
  ): AgentToolRuntime {
    const key = JSON.stringify([o.provider, o.toolSet ?? null, o.workspace ?? null, o.codeMode]);
    const held = this.byConversation.get(conversationId);
    if (held && held.key === key) return held.runtime;
    const runtime = this.turnRuntime({
      codeMode: o.codeMode,
      provider: o.provider,
      interactive: true,
      maxChars: Infinity,
      ...(o.toolSet ? { toolSet: o.toolSet } : {}),
      ...(o.workspace ? { workspace: o.workspace } : {}),
    });
    this.byConversation.set(conversationId, { key, runtime });
    return runtime;
  }

  /** A deleted conversation's runtime goes. */
  forget(conversationId: string): void {
    this.byConversation.delete(conversationId);
  }

  /**
   * What one request to this model may hold: a tool result is cut at a share of its context window (the
   * rest read with read_result), images are scaled to the provider's limits (docs/chat.md, "Results too
   * large for the model"). The runtimes of these turns keep every result whole for the conversation.
   */
  limitsFor(providerId: string, model: string): RequestLimits {
    const s = this.deps.settings.current().largeResults;
    const images = PROVIDER_IMAGE_LIMITS[providerId];
    return {
      results: resultLimits({
        contextTokens: contextWindow(providerId, model, s.contextWindows),
        share: s.share,
        ...(s.maxChars ? { maxChars: s.maxChars } : {}),
      }),
      ...(images ? { images } : {}),
    };
  }
}
