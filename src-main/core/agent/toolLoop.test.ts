// The loop's own rules, over the OpenAI-compatible wire and an in-process runtime for the failures a
// real server cannot be made to produce on demand (ARCHITECTURE.md, `agent/`).
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatEvent, ChatMessage } from '@shared/chat';
import type { ToolCallEvent } from '@shared/toolCall';
import { startOpenAIServer } from '../../../test/fixtures/providers/openaiServer';
import type { FakeProviderServer, ScriptedReply } from '../../../test/fixtures/providers/scriptedServer';
import { MooringError } from '../errors';
import { OpenAIProvider } from './providers/openaiProvider';
import { inProcessRuntime, phaseEvent, type InProcessHandler } from '../../../test/helpers/mcpRuntime';
import { openaiView } from '../../../test/helpers/wireViews';
import type { AgentToolRuntime } from './toolRuntime';
import { frameResult } from './resultFraming';
import { runToolLoop } from './toolLoop';

let server: FakeProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ask: ChatMessage = { id: 'u1', at: 1, role: 'user', content: [{ type: 'text', text: 'go' }] };

async function loop(
  script: ScriptedReply[],
  handlers: Record<string, InProcessHandler>,
  extra: {
    signal?: AbortSignal;
    history?: ChatMessage[];
    viewTarget?: AgentToolRuntime['viewTarget'];
  } = {},
) {
  server = await startOpenAIServer(script);
  const runtime = {
    ...inProcessRuntime(handlers),
    ...(extra.viewTarget ? { viewTarget: extra.viewTarget } : {}),
  };
  const events: ChatEvent[] = [];
  const phases: ToolCallEvent[] = [];
  const stored: ChatMessage[] = [];
  const run = runToolLoop({
    conversationId: 'c1',
    provider: new OpenAIProvider({ baseUrl: `${server.url}/v1`, apiKey: 'k' }),
    model: 'gpt-4o',
    runtime,
    history: extra.history ?? [ask],
    signal: extra.signal,
    onEvent: (e) => events.push(e),
    onPhase: (e) => phases.push(e),
    onStep: async (m) => {
      stored.push(m);
    },
  });
  return { run, events, phases, stored, runtime, server };
}

describe('runToolLoop', () => {
  it('runs the calls of one model turn concurrently and forwards progress', async () => {
    let started = 0;
    let release!: () => void;
    const bothStarted = new Promise<void>((r) => (release = r));
    const slow: InProcessHandler = async (args, ctx) => {
      ctx.onPhase?.(
        phaseEvent(ctx.call, 'running', { progress: { progress: 1, total: 2, message: 'half' } }),
      );
      if (++started === 2) release();
      // Sequential execution would wait here forever; the test timeout would fail it.
      await bothStarted;
      return { status: 'done', text: `ok ${String(args.n)}` };
    };
    const { run, phases, server } = await loop(
      [
        {
          toolCalls: [
            { name: 'slow', arguments: { n: 1 } },
            { name: 'slow', arguments: { n: 2 } },
          ],
        },
        { text: 'both done' },
      ],
      { slow },
    );
    const { final } = await run;
    expect(final.text).toBe('both done');
    expect(
      openaiView
        .toolResults(server.requests[1]!.body)
        .map((r) => r.text)
        .sort(),
    ).toEqual([frameResult('ok 1', { tool: 'slow' }), frameResult('ok 2', { tool: 'slow' })]);
    expect(phases.filter((e) => e.progress?.message === 'half').map((e) => e.id)).toHaveLength(2);
  });

  it('turns a throwing runtime, a refusal, an unknown tool and bad JSON into tool messages', async () => {
    const { run, server, stored } = await loop(
      [
        {
          toolCalls: [
            { name: 'boom', arguments: {} },
            { name: 'guarded', arguments: {} },
            { name: 'ghost', arguments: {} },
            { name: 'boom', arguments: '{"unterminated": ' },
          ],
        },
        { text: 'I could not do it.' },
      ],
      {
        boom: () => {
          throw new Error('disk on fire');
        },
        guarded: () => ({ status: 'refused', text: 'the user declined' }),
      },
    );
    await run;
    const texts = openaiView.toolResults(server.requests[1]!.body).map((r) => r.text);
    expect(texts).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Tool boom failed: disk on fire/),
        expect.stringMatching(/^Tool guarded was refused: the user declined/),
        expect.stringMatching(/^Tool ghost failed: there is no tool named "ghost"/),
        expect.stringMatching(
          /^Tool boom failed: the model sent invalid arguments: arguments are not valid JSON/,
        ),
      ]),
    );
    expect(
      stored.filter((m) => m.role === 'tool').map((m) => (m.role === 'tool' ? m.status : '')),
    ).toHaveLength(4);
  });

  it('aborts running calls on cancel and ends the turn', async () => {
    const controller = new AbortController();
    let sawAbort = false;
    const { run, stored } = await loop(
      [{ toolCalls: [{ name: 'wait', arguments: {} }] }],
      {
        wait: (_args, ctx) =>
          new Promise((resolve) => {
            ctx.signal.addEventListener('abort', () => {
              sawAbort = true;
              resolve({ status: 'failed', text: 'stopped' });
            });
            controller.abort();
          }),
      },
      { signal: controller.signal },
    );
    await expect(run).rejects.toMatchObject({ code: 'cancelled' });
    expect(sawAbort).toBe(true);
    expect(stored.map((m) => m.role)).toEqual(['assistant', 'tool', 'note']);
  });

  it('does not wait for a runtime that ignores the abort signal', async () => {
    const controller = new AbortController();
    const { run } = await loop(
      [{ toolCalls: [{ name: 'stuck', arguments: {} }] }],
      {
        stuck: () => {
          controller.abort();
          return new Promise(() => {});
        },
      },
      { signal: controller.signal },
    );
    const err = await run.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MooringError);
  });

  it('fills in results for tool calls a crash left unanswered, so the provider accepts the history', async () => {
    const history: ChatMessage[] = [
      ask,
      {
        id: 'a1',
        at: 2,
        role: 'assistant',
        text: '',
        toolCalls: [{ id: 'call_lost', name: 'x', arguments: {} }],
      },
      { id: 'u2', at: 3, role: 'user', content: [{ type: 'text', text: 'still there?' }] },
    ];
    const { run, server } = await loop([{ text: 'yes' }], {}, { history });
    await run;
    expect(openaiView.toolResults(server.requests[0]!.body)).toEqual([
      { id: 'call_lost', text: expect.stringContaining('outcome unknown') },
    ]);
  });

  it('gives each call an id of its own when a model repeats one (cards and lifecycles key by it)', async () => {
    const history: ChatMessage[] = [
      ask,
      {
        id: 'a0',
        at: 2,
        role: 'assistant',
        text: '',
        toolCalls: [{ id: 'call_0', name: 'echo', arguments: {} }],
      },
      { id: 't0', at: 3, role: 'tool', toolCallId: 'call_0', name: 'echo', status: 'done', text: 'old' },
      { id: 'u2', at: 4, role: 'user', content: [{ type: 'text', text: 'again' }] },
    ];
    const { run, stored, server } = await loop(
      [
        {
          toolCalls: [
            { id: 'call_0', name: 'echo', arguments: { n: 1 } },
            { id: 'call_0', name: 'echo', arguments: { n: 2 } },
          ],
        },
        { text: 'done' },
      ],
      { echo: (args) => ({ status: 'done', text: `echo ${String(args.n)}` }) },
      { history },
    );
    await run;
    const assistant = stored.find((m) => m.role === 'assistant');
    const ids = assistant?.role === 'assistant' ? assistant.toolCalls.map((c) => c.id) : [];
    expect(new Set([...ids, 'call_0']).size).toBe(3);
    // The model is answered under the ids the conversation kept.
    expect(
      openaiView
        .toolResults(server.requests[1]!.body)
        .slice(1)
        .map((r) => r.id),
    ).toEqual(ids);
  });

  it('announces the partial arguments of a call whose tool has a view, under the id the call keeps', async () => {
    // A call id the conversation already used: the streamed call is renamed once, on its first fragment.
    const history: ChatMessage[] = [
      ask,
      {
        id: 'a0',
        at: 1,
        role: 'assistant',
        text: '',
        toolCalls: [{ id: 'call_1_0', name: 'x', arguments: {} }],
      },
      { id: 't0', at: 1, role: 'tool', toolCallId: 'call_1_0', name: 'x', status: 'done', text: '' },
      { id: 'u2', at: 2, role: 'user', content: [{ type: 'text', text: 'again' }] },
    ];
    const { run, events, stored } = await loop(
      [
        {
          toolCalls: [
            { name: 'show', arguments: { location: 'New York City', units: 'metric', days: 125 } },
            { name: 'plain', arguments: { text: 'no view here' } },
          ],
        },
        { text: 'shown' },
      ],
      { show: () => ({ status: 'done', text: 'ok' }), plain: () => ({ status: 'done', text: 'ok' }) },
      {
        history,
        viewTarget: (cid, name) =>
          cid === 'c1' && name === 'show' ? { server: 'weather', tool: 'show' } : undefined,
      },
    );
    await run;
    const partials = events.flatMap((e) => (e.type === 'tool-input-partial' ? [e] : []));
    const assistant = stored.find((m) => m.role === 'assistant');
    if (assistant?.role !== 'assistant') throw new Error('no assistant message');
    const [show, plain] = assistant.toolCalls;
    expect(show!.id).not.toBe('call_1_0');
    expect(partials.length).toBeGreaterThan(2);
    for (const p of partials) {
      expect(p).toMatchObject({ callId: show!.id, messageId: assistant.id, name: 'show' });
      expect(p.target).toEqual({ server: 'weather', tool: 'show' });
    }
    expect(partials.some((p) => p.callId === plain!.id)).toBe(false);
    // Strings grow as they arrive; a number is left out until it is whole; nothing is announced twice.
    const locations = partials.map((p) => p.arguments.location).filter((l) => l !== undefined);
    expect(locations.at(-1)).toBe('New York City');
    expect(locations.some((l) => typeof l === 'string' && l.length < 'New York City'.length)).toBe(true);
    for (const p of partials) if ('days' in p.arguments) expect(p.arguments.days).toBe(125);
    const seen = partials.map((p) => JSON.stringify(p.arguments));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('reports a provider HTTP error with a hint instead of crashing', async () => {
    const { run } = await loop([{ status: 400, errorMessage: 'context too long' }], {});
    await expect(run).rejects.toMatchObject({
      code: 'protocol_error',
      message: expect.stringContaining('context too long'),
    });
  });
});
