// The agent runtime `start_session` uses (issue 8): the core's tool runtime (every call through the
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
import type { ServedCore } from './servedCore';
import { scopeAllows, type ClientIdentity } from './clientScope';
import { isInteractiveOnly } from './toolsRelay';

export class ScopedRuntime implements AgentToolRuntime {
  private readonly inner: CoreToolRuntime;

  constructor(
    private readonly core: ServedCore,
    private readonly who: ClientIdentity,
    private readonly opts: { vision: boolean; approvalTimeoutMs: number },
  ) {
    this.inner = new CoreToolRuntime(
      { tools: core.tools, settings: () => core.settings.current() },
      { vision: opts.vision },
    );
  }

  /** Why the client may not use this tool, or undefined when it may (names the catalog does not know pass). */
  private refusal(name: string): string | undefined {
    const r = this.core.tools.catalog().tryResolve(name);
    if (!r.ok) return undefined;
    if (isInteractiveOnly(r.entry)) return `"${r.entry.modelName}" is only for the Mooring window`;
    const v = scopeAllows(this.who.scope, { name: r.entry.modelName, readOnly: r.entry.readOnly });
    return v.ok ? undefined : v.reason;
  }

  tools(conversationId: string): ModelTool[] {
    return this.inner.tools(conversationId).filter((t) => this.refusal(t.name) === undefined);
  }

  systemPrompt(conversationId: string): string | undefined {
    return this.inner.systemPrompt(conversationId);
  }

  async execute(call: ToolCall, ctx: ToolExecutionContext): Promise<ToolOutcome> {
    const why = this.refusal(call.name);
    if (why) return { status: 'refused', text: `tool ${call.name} was refused: ${why}; answer without it` };
    const approval = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const outcome = await this.inner.execute(call, {
      ...ctx,
      signal: AbortSignal.any([ctx.signal, approval.signal]),
      emit: (u) => {
        if (u.state === 'awaiting-approval')
          timer ??= setTimeout(
            () => approval.abort(new Error('nobody answered the approval in time')),
            this.opts.approvalTimeoutMs,
          );
        else clearTimeout(timer);
        ctx.emit(u);
      },
    });
    clearTimeout(timer);
    return approval.signal.aborted && outcome.status !== 'done'
      ? {
          status: 'refused',
          text: `tool ${call.name} was refused: nobody answered the approval within ${Math.round(this.opts.approvalTimeoutMs / 1000)} s; answer without it`,
        }
      : outcome;
  }
}
