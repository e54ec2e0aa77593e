// Sampling (spec 2025-11-25 "Sampling"): a server asks the user's model for a completion, maybe offering it
// tools (`tools`, `toolChoice`; the model's calls go back to the server). The user sees the request, may edit
// it, and approves or declines it (human in the loop); an approved request is completed by the injected
// `complete` (agent/samplingCompletion.ts, the user's provider); a per-server hourly token budget caps what a
// server may spend; every request is logged to the server's log and counted. A 2026-07-28 server asks the same
// way inside an input_required round, and reaches this same handler (docs/decisions/006-protocol-eras.md).
import {
  ProtocolError,
  type CreateMessageRequest,
  type CreateMessageResult,
  type CreateMessageResultWithTools,
} from '@modelcontextprotocol/client';
import type { LogLine } from '@shared/session';
import type { SamplingRequestView, SamplingStats } from '@shared/interactions';
import { MooringError } from '../errors';
import type { InteractionBroker } from './interactionBroker';
import { completionTokens, promptTokens, type SamplingBudget } from './samplingBudget';

export type SamplingParams = CreateMessageRequest['params'];

export interface SamplingUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Produces the completion for an approved request; `usage`, when given, is what the budget charges. */
export type SamplingComplete = (
  request: SamplingParams,
  ctx: { server: string; signal: AbortSignal },
) => Promise<(CreateMessageResult | CreateMessageResultWithTools) & { usage?: SamplingUsage }>;

export interface SamplingDeps {
  broker: InteractionBroker;
  budget: SamplingBudget;
  complete: SamplingComplete;
  log: (line: LogLine) => void;
}

/** The spec's code for "the user rejected the sampling request". */
export const USER_REJECTED = -1;

export class SamplingService {
  private readonly counters = new Map<string, Omit<SamplingStats, 'tokensLastHour' | 'limitTokens'>>();

  constructor(private readonly deps: SamplingDeps) {}

  stats(server: string): SamplingStats {
    const c = this.counters.get(server) ?? { requests: 0, approved: 0, declined: 0, refused: 0 };
    return {
      ...c,
      tokensLastHour: this.deps.budget.used(server),
      limitTokens: this.deps.budget.limit(server),
    };
  }

  /** The `sampling/createMessage` handler for one server's client. */
  async handle(
    server: string,
    params: SamplingParams,
    signal: AbortSignal,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools> {
    const count = this.count(server);
    count.requests++;
    const view = toView(params);
    this.log(server, 'info', `sampling request #${count.requests}: ${describe(view)}`);
    try {
      this.checkBudget(server, view);
      const answer = await this.deps.broker.request(
        {
          kind: 'sampling',
          server,
          request: view,
          budget: {
            usedTokens: this.deps.budget.used(server),
            limitTokens: this.deps.budget.limit(server),
            windowMs: this.deps.budget.windowMs,
          },
        },
        { signal },
      );
      if (answer.outcome === 'decline') {
        count.declined++;
        this.log(server, 'info', `sampling request #${count.requests} declined by ${answer.decidedBy}`);
        throw new ProtocolError(USER_REJECTED, 'The user declined the sampling request.');
      }
      const edited: SamplingParams = { ...params, ...answer.edited } as SamplingParams;
      if (answer.edited) this.checkBudget(server, toView(edited));
      const { usage, ...result } = await this.deps.complete(edited, { server, signal });
      const spent = usage
        ? usage.inputTokens + usage.outputTokens
        : promptTokens(toView(edited).messages, edited.systemPrompt) + completionTokens(result.content);
      this.deps.budget.charge(server, spent);
      count.approved++;
      this.log(
        server,
        'info',
        `sampling request #${count.requests} approved by ${answer.decidedBy}${answer.edited ? ' (edited)' : ''}: model ${result.model}, ${spent} tokens (${this.deps.budget.used(server)}/${this.deps.budget.limit(server)} this hour)`,
      );
      return result;
    } catch (err) {
      if (err instanceof ProtocolError) throw err;
      if (err instanceof MooringError && (err.code === 'refused' || err.code === 'cancelled')) {
        count.refused++;
        this.log(
          server,
          'warning',
          `sampling request #${count.requests} not run: ${err.message}${err.hint ? ` ${err.hint}` : ''}`,
        );
        throw new ProtocolError(USER_REJECTED, err.message, err.toData());
      }
      const message = err instanceof Error ? err.message : String(err);
      this.log(server, 'error', `sampling request #${count.requests} failed: ${message}`);
      throw new ProtocolError(-32603, `Mooring could not complete the sampling request: ${message}`);
    }
  }

  private checkBudget(server: string, view: SamplingRequestView): void {
    this.deps.budget.check(server, promptTokens(view.messages, view.systemPrompt) + view.maxTokens);
  }

  private count(server: string) {
    let c = this.counters.get(server);
    if (!c) this.counters.set(server, (c = { requests: 0, approved: 0, declined: 0, refused: 0 }));
    return c;
  }

  private log(server: string, level: LogLine['level'], text: string): void {
    this.deps.log({ server, at: Date.now(), source: 'host', level, text });
  }
}

/** What the dialog shows: the fields a person can judge and edit, nothing protocol-internal. */
export function toView(p: SamplingParams): SamplingRequestView {
  const v: SamplingRequestView = {
    messages: p.messages as SamplingRequestView['messages'],
    maxTokens: p.maxTokens,
  };
  if (p.systemPrompt !== undefined) v.systemPrompt = p.systemPrompt;
  if (p.temperature !== undefined) v.temperature = p.temperature;
  if (p.stopSequences !== undefined) v.stopSequences = p.stopSequences;
  if (p.includeContext !== undefined) v.includeContext = p.includeContext;
  if (p.modelPreferences !== undefined)
    v.modelPreferences = p.modelPreferences as SamplingRequestView['modelPreferences'];
  if (p.tools?.length && p.toolChoice?.mode !== 'none') {
    v.tools = p.tools.map((t) => ({
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
    }));
    v.toolChoice = p.toolChoice?.mode === 'required' ? 'required' : 'auto';
  }
  return v;
}

function describe(v: SamplingRequestView): string {
  const first = v.messages.at(-1);
  const block = first ? (Array.isArray(first.content) ? first.content[0] : first.content) : undefined;
  const preview = typeof block?.text === 'string' ? `: "${block.text.slice(0, 80)}"` : '';
  return `${v.messages.length} message(s), up to ${v.maxTokens} tokens${preview}`;
}
