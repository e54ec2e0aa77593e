// The agent's tool loop (ARCHITECTURE.md, `agent/`): ask the model, stream its text and tool calls,
// run the calls concurrently through the injected runtime, feed the outcomes back, repeat — until
// the model answers without tools, the iteration cap is reached, or the turn is cancelled.
// Every completed step goes to `onStep` (the store appends and fsyncs it) before it counts as done.
// A call's lifecycle is the runtime's to report (`onPhase`); the loop records each call's outcome.
import { randomUUID } from 'node:crypto';
import type {
  AssistantChatMessage,
  ChatEvent,
  ChatMessage,
  ToolCallRequest,
  ToolChatMessage,
  TokenUsage,
} from '@shared/chat';
import type { ToolCallEvent } from '@shared/toolCall';
import { MooringError, toErrorData } from '../errors';
import { needsReadResult, READ_RESULT, readResult, readResultTool } from './largeResults';
import { messagesForModel, type RequestLimits } from './messagesForModel';
import type { ChatProvider, ModelCapabilities } from './providers/types';
import {
  correctiveMessage,
  parseTextToolCall,
  ProtocolLineFilter,
  TEXT_PROTOCOL_PREFIX,
  textProtocolSystemPrompt,
} from './textToolProtocol';
import { PartialInputs } from './partialInputs';
import { RESULTS_ARE_DATA } from './resultFraming';
import type { ReadOrigin } from '@shared/dataFlow';
import type { AgentToolRuntime, ToolOutcome } from './toolRuntime';

export const DEFAULT_MAX_TOOL_ITERATIONS = 25;

export interface ToolLoopOptions {
  conversationId: string;
  provider: ChatProvider;
  model: string;
  runtime: AgentToolRuntime;
  /** The conversation so far, ending with the new user message. */
  history: ChatMessage[];
  signal?: AbortSignal;
  onEvent?: (event: ChatEvent) => void;
  /** Each lifecycle event of each call of this turn (handed to the runtime with the call). */
  onPhase?: (e: ToolCallEvent) => void;
  /** Persists one completed step (and announces it); awaited before the loop goes on. */
  onStep?: (message: ChatMessage) => Promise<void>;
  /** Rounds of tool calls per turn (a setting, default 25). */
  maxToolIterations?: number;
  /** Defaults to the provider's table for the model. */
  capabilities?: ModelCapabilities;
  /** What one request may hold: tool results past the limit are cut and read on with `read_result`. */
  limits?: RequestLimits;
  system?: string;
}

export interface ToolLoopResult {
  /** The last assistant message of the turn. */
  final: AssistantChatMessage;
  /** Every step this turn added, in the order it was recorded. */
  steps: ChatMessage[];
}

interface PendingCall {
  call: ToolCallRequest;
  invalid?: string;
}

const cancelled = () => new MooringError('cancelled', 'The turn was cancelled');

export async function runToolLoop(opts: ToolLoopOptions): Promise<ToolLoopResult> {
  const { conversationId: cid, provider, model, runtime, signal } = opts;
  const caps = opts.capabilities ?? provider.capabilities(model);
  const maxIterations = opts.maxToolIterations ?? DEFAULT_MAX_TOOL_ITERATIONS;
  const emit = (e: ChatEvent) => opts.onEvent?.(e);
  const history = [...opts.history];
  const steps: ChatMessage[] = [];

  // Call ids are unique within a conversation: a view keys each call's card and lifecycle by it, and
  // some local servers number every reply's calls from zero.
  const callIds = new Set<string>();
  for (const m of history) if (m.role === 'assistant') for (const c of m.toolCalls) callIds.add(c.id);
  const uniqueCall = (call: ToolCallRequest): ToolCallRequest => {
    const id = !call.id || callIds.has(call.id) ? `call_${randomUUID()}` : call.id;
    callIds.add(id);
    return id === call.id ? call : { ...call, id };
  };

  // Steps are appended one at a time, in completion order, even when tool calls finish together.
  let queue = Promise.resolve();
  const record = (m: ChatMessage): Promise<void> => {
    queue = queue.then(async () => {
      history.push(m);
      steps.push(m);
      await opts.onStep?.(m);
      if (m.role === 'note') emit({ type: 'note', conversationId: cid, level: m.level, text: m.text });
    });
    return queue;
  };
  const note = (level: 'info' | 'warning', text: string) =>
    record({ id: randomUUID(), at: Date.now(), role: 'note', level, text });

  // The person's tool switches since the last turn reach the model from this turn on, said in the chat.
  const switched = runtime.beginTurn?.(cid);
  if (switched) await note('info', switched);

  let iterations = 0;
  let corrected = false;
  for (;;) {
    if (signal?.aborted) throw cancelled();
    // read_result joins the tools once the conversation holds a result the model cannot get whole.
    const resultLimits = opts.limits?.results;
    const reading = resultLimits !== undefined && needsReadResult(history, resultLimits);
    const tools = reading ? [...runtime.tools(cid), readResultTool(resultLimits)] : runtime.tools(cid);
    const names = tools.map((t) => t.name);
    const textMode = !caps.tools && tools.length > 0;
    // The stable parts first (the caller's, then the deferred tool list), so a provider's prompt cache
    // keeps its prefix across turns; the text protocol's list grows as tools are loaded.
    const system = [
      opts.system,
      tools.length ? RESULTS_ARE_DATA : undefined,
      runtime.systemPrompt?.(cid),
      textMode ? textProtocolSystemPrompt(tools) : undefined,
    ]
      .filter(Boolean)
      .join('\n\n');

    const messageId = randomUUID();
    const delta = (text: string) => emit({ type: 'text-delta', conversationId: cid, messageId, text });
    const filter = textMode ? new ProtocolLineFilter(delta) : null;
    const partials = new PartialInputs({
      unique: (id) => uniqueCall({ id, name: '', arguments: {} }).id,
      viewTarget: (name) => runtime.viewTarget?.(cid, name),
      emit: (p) => emit({ type: 'tool-input-partial', conversationId: cid, messageId, ...p }),
    });
    let text = '';
    let calls: PendingCall[] = [];
    let stopReason: string | undefined;
    let usage: TokenUsage | undefined;
    try {
      for await (const ev of provider.stream({
        model,
        ...(system ? { system } : {}),
        messages: messagesForModel(history, caps, opts.limits),
        tools: caps.tools ? tools : [],
        signal,
      })) {
        if (ev.type === 'text') {
          text += ev.text;
          if (filter) filter.push(ev.text);
          else delta(ev.text);
        } else if (ev.type === 'tool-call-delta') {
          partials.push(ev);
        } else if (ev.type === 'tool-call') {
          // A call whose arguments streamed keeps the id its partial input was announced with.
          const call = partials.idOf(ev.call) ?? uniqueCall(ev.call);
          calls.push({ call, ...(ev.invalidArguments ? { invalid: ev.invalidArguments } : {}) });
        } else {
          stopReason = ev.stopReason;
          usage = ev.usage;
        }
      }
      filter?.end();
    } catch (err) {
      const e = err instanceof MooringError ? err : new MooringError('internal', toErrorData(err).message);
      if (e.code === 'cancelled' || signal?.aborted) {
        if (text) {
          await record({
            id: messageId,
            at: Date.now(),
            role: 'assistant',
            text,
            toolCalls: [],
            model,
            cancelled: true,
          });
        }
        await note('info', 'Cancelled.');
        throw cancelled();
      }
      throw e;
    }

    const base = {
      id: messageId,
      at: Date.now(),
      role: 'assistant' as const,
      model,
      ...(stopReason ? { stopReason } : {}),
      ...(usage ? { usage } : {}),
    };
    if (textMode) {
      const parse = parseTextToolCall(text, names);
      if (parse.kind === 'malformed') {
        const assistant: AssistantChatMessage = { ...base, text, toolCalls: [] };
        await record(assistant);
        if (corrected) {
          await note(
            'warning',
            `The model's tool call was malformed again (${parse.reason}); this turn ends here.`,
          );
          return { final: assistant, steps };
        }
        corrected = true;
        await record({
          id: randomUUID(),
          at: Date.now(),
          role: 'user',
          origin: 'protocol',
          content: [{ type: 'text', text: correctiveMessage(parse) }],
        });
        continue;
      }
      text = text
        .split('\n')
        .filter((l) => !l.trim().startsWith(TEXT_PROTOCOL_PREFIX))
        .join('\n')
        .trim();
      if (parse.kind === 'call')
        calls = [{ call: uniqueCall({ id: '', name: parse.name, arguments: parse.arguments }) }];
    }

    const assistant: AssistantChatMessage = { ...base, text, toolCalls: calls.map((c) => c.call) };
    await record(assistant);
    if (!calls.length) return { final: assistant, steps };

    if (iterations >= maxIterations) {
      for (const { call } of calls) {
        await finish(call, {
          status: 'refused',
          text: `not run: the limit of ${maxIterations} tool iterations for one turn was reached`,
        });
      }
      await note(
        'warning',
        `Stopped after ${maxIterations} tool iterations in this turn (the limit). Ask again to continue, or raise the limit in Settings > Limits (mooring settings set maxToolIterations N).`,
      );
      return { final: assistant, steps };
    }
    iterations++;
    await Promise.all(calls.map((c) => runCall(c, reading)));
    if (signal?.aborted) {
      await note('info', 'Cancelled.');
      throw cancelled();
    }
  }

  function abortText(): string {
    const why: unknown = signal?.reason;
    return why instanceof MooringError ? `cancelled: ${why.message}` : 'cancelled';
  }

  async function runCall({ call, invalid }: PendingCall, reading: boolean): Promise<void> {
    if (invalid)
      return finish(call, { status: 'failed', text: `the model sent invalid arguments: ${invalid}` });
    // Answered from the conversation itself: no server is involved.
    if (reading && call.name === READ_RESULT && opts.limits?.results)
      return finish(call, readResult(history, call.arguments, opts.limits.results));
    // The name is the runtime's to resolve (bare and suffix names included), once.
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    // A runtime that ignores the signal must not hold the turn: cancel settles the call at once, with
    // why (the person cancelled; Mooring closed while it ran) for the model to read.
    const aborted = new Promise<ToolOutcome>((resolve) =>
      controller.signal.addEventListener('abort', () => resolve({ status: 'failed', text: abortText() }), {
        once: true,
      }),
    );
    if (signal?.aborted) controller.abort(signal.reason);
    let outcome: ToolOutcome;
    try {
      outcome = await Promise.race([
        aborted,
        runtime.execute(call, {
          conversationId: cid,
          signal: controller.signal,
          readFrom: readSoFar(history),
          ...(opts.onPhase ? { onPhase: opts.onPhase } : {}),
        }),
      ]);
    } catch (err) {
      outcome = {
        status: 'failed',
        text: controller.signal.aborted ? abortText() : toErrorData(err).message,
      };
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    return finish(call, outcome);
  }

  async function finish(call: ToolCallRequest, outcome: ToolOutcome): Promise<void> {
    const message: ToolChatMessage = {
      id: randomUUID(),
      at: Date.now(),
      role: 'tool',
      toolCallId: call.id,
      name: call.name,
      status: outcome.status,
      text: outcome.text,
      ...(outcome.images?.length ? { images: outcome.images } : {}),
      ...(outcome.imagesAt?.length ? { imagesAt: outcome.imagesAt } : {}),
      ...(outcome.textShown !== undefined ? { textShown: outcome.textShown } : {}),
      ...(outcome.structured !== undefined ? { structured: outcome.structured } : {}),
      ...(outcome.structuredInText ? { structuredInText: true } : {}),
      ...(outcome.target ? { target: outcome.target } : {}),
      ...(outcome.editedArguments ? { editedArguments: outcome.editedArguments } : {}),
      ...(outcome.grant ? { grant: outcome.grant } : {}),
      ...(outcome.resultIsError ? { resultIsError: true } : {}),
      ...(outcome.origin ? { origin: outcome.origin } : {}),
      ...(outcome.program ? { program: outcome.program } : {}),
    };
    await record(message);
  }
}

/** What the conversation has read: the origin of every result the model got (docs/trust.md). */
function readSoFar(history: readonly ChatMessage[]): ReadOrigin[] {
  const out: ReadOrigin[] = [];
  for (const m of history) {
    if (m.role !== 'tool') continue;
    if (m.origin && m.status !== 'refused') out.push(m.origin);
    // A code-mode step read what its calls returned (agent/codeModeRuntime.ts).
    for (const c of m.program?.calls ?? []) if (c.origin && c.status !== 'refused') out.push(c.origin);
  }
  return out;
}
