// The agent runtime `start_session` uses (ARCHITECTURE.md, `serve/`): the core's tool runtime (every call through the
// tools service's one gated call), narrowed to the external client's scope — a read-only client must not reach a
// destructive tool by asking Mooring's own agent to call it — and with the same bounded wait for
// approval as a direct call.
import { CoreToolRuntime } from '../agent/coreToolRuntime';
import type {
  AgentToolRuntime,
  ModelTool,
  ToolCall,
  ToolExecutionContext,
  ToolOutcome,
} from '../agent/toolRuntime';
import type { CatalogEntry } from '../catalog/catalog';
import type { ServedCore } from './servedCore';
import { scopeAllows, type ClientIdentity } from './clientScope';
import { isInteractiveOnly } from './toolsRelay';

export class ScopedRuntime implements AgentToolRuntime {
  private readonly inner: CoreToolRuntime;

  constructor(
    core: ServedCore,
    who: ClientIdentity,
    private readonly opts: { vision: boolean; approvalTimeoutMs: number },
  ) {
    // The scope is checked on the entry the runtime resolved, once per call (and per listed tool).
    const admit = (entry: CatalogEntry): string | undefined => {
      if (isInteractiveOnly(entry)) return `"${entry.modelName}" is only for the Mooring window`;
      const v = scopeAllows(who.scope, {
        name: entry.modelName,
        readOnly: entry.readOnly,
        changed: entry.contractChanged,
      });
      return v.ok ? undefined : v.reason;
    };
    this.inner = new CoreToolRuntime(
      { tools: core.tools, settings: () => core.settings.current() },
      { vision: opts.vision, admit },
    );
  }

  tools(conversationId: string): ModelTool[] {
    return this.inner.tools(conversationId);
  }

  systemPrompt(conversationId: string): string | undefined {
    return this.inner.systemPrompt(conversationId);
  }

  async execute(call: ToolCall, ctx: ToolExecutionContext): Promise<ToolOutcome> {
    const approval = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const outcome = await this.inner.execute(call, {
      ...ctx,
      signal: AbortSignal.any([ctx.signal, approval.signal]),
      // The wait for a person is bounded only while it lasts: the call's own lifecycle says when.
      onPhase: (e) => {
        if (e.phase === 'awaiting-approval')
          timer ??= setTimeout(
            () => approval.abort(new Error('nobody answered the approval in time')),
            this.opts.approvalTimeoutMs,
          );
        else if (e.phase !== 'requested') clearTimeout(timer);
        ctx.onPhase?.(e);
      },
    });
    clearTimeout(timer);
    return approval.signal.aborted && outcome.status !== 'done'
      ? {
          ...outcome,
          status: 'refused',
          text: `nobody answered the approval within ${Math.round(this.opts.approvalTimeoutMs / 1000)} s`,
        }
      : outcome;
  }
}
