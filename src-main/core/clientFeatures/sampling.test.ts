// The sampling service without a server: the approve/edit/decline paths, the budget and the log.
import { ProtocolError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { LogLine } from '@shared/session';
import { MooringError } from '../errors';
import { InteractionBroker } from './interactionBroker';
import { SamplingService, USER_REJECTED, type SamplingComplete, type SamplingParams } from './sampling';
import { HOUR_MS, SamplingBudget } from './samplingBudget';

const params = (text: string, maxTokens = 50): SamplingParams => ({
  messages: [{ role: 'user', content: { type: 'text', text } }],
  systemPrompt: 'Be brief.',
  maxTokens,
});

function setup(opts: { limit?: number; now?: () => number } = {}) {
  const broker = new InteractionBroker();
  const logs: LogLine[] = [];
  const calls: SamplingParams[] = [];
  const complete: SamplingComplete = async (req) => {
    calls.push(req);
    const last = req.messages.at(-1)!.content as { text: string };
    return {
      model: 'scripted',
      role: 'assistant',
      content: { type: 'text', text: `echo: ${last.text}` },
      usage: { inputTokens: 10, outputTokens: 5 },
    };
  };
  const budget = new SamplingBudget({
    tokensPerHour: opts.limit ?? 1000,
    ...(opts.now ? { now: opts.now } : {}),
  });
  const svc = new SamplingService({ broker, budget, complete, log: (l) => logs.push(l) });
  return { broker, logs, calls, svc, budget };
}

describe('SamplingService', () => {
  it('asks the user, completes the edited request, charges the budget and logs it', async () => {
    const { broker, logs, calls, svc } = setup();
    broker.on('requested', (r) => {
      expect(r).toMatchObject({
        kind: 'sampling',
        server: 's1',
        request: { systemPrompt: 'Be brief.', maxTokens: 50 },
        budget: { usedTokens: 0, limitTokens: 1000, windowMs: HOUR_MS },
      });
      broker.answer(r.id, {
        kind: 'sampling',
        outcome: 'approve',
        edited: { messages: [{ role: 'user', content: { type: 'text', text: 'edited by the user' } }] },
      });
    });
    const result = await svc.handle('s1', params('original'), new AbortController().signal);
    expect(result).toEqual({
      model: 'scripted',
      role: 'assistant',
      content: { type: 'text', text: 'echo: edited by the user' },
    });
    expect(calls[0]).toMatchObject({ systemPrompt: 'Be brief.', maxTokens: 50 });
    expect(svc.stats('s1')).toEqual({
      requests: 1,
      approved: 1,
      declined: 0,
      refused: 0,
      tokensLastHour: 15,
      limitTokens: 1000,
    });
    expect(logs.map((l) => l.text)).toEqual([
      expect.stringMatching(/^sampling request #1: 1 message\(s\), up to 50 tokens: "original"/),
      expect.stringMatching(
        /approved by user:ui \(edited\): model scripted, 15 tokens \(15\/1000 this hour\)/,
      ),
    ]);
    expect(logs.every((l) => l.server === 's1' && l.source === 'host')).toBe(true);
  });

  it('a decline answers the server with the user-rejected error and runs no model', async () => {
    const { broker, calls, svc } = setup();
    broker.on('requested', (r) => broker.answer(r.id, { kind: 'sampling', outcome: 'decline' }));
    const err = await svc.handle('s1', params('x'), new AbortController().signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).code).toBe(USER_REJECTED);
    expect(calls).toEqual([]);
    expect(svc.stats('s1')).toMatchObject({ requests: 1, declined: 1, approved: 0 });
  });

  it('refuses over budget without asking, with a clear error, and frees the budget after the hour', async () => {
    let now = 0;
    const { broker, svc, budget, logs } = setup({ limit: 200, now: () => now });
    broker.on('requested', (r) => broker.answer(r.id, { kind: 'sampling', outcome: 'approve' }));
    budget.charge('s1', 150);
    now = 10 * 60_000;
    const asked: string[] = [];
    broker.on('requested', (r) => asked.push(r.id));
    const err = (await svc
      .handle('s1', params('hello', 100), new AbortController().signal)
      .catch((e: unknown) => e)) as ProtocolError;
    expect(err).toBeInstanceOf(ProtocolError);
    expect(err.code).toBe(USER_REJECTED);
    expect(err.message).toMatch(
      /"s1" asked for a completion of up to \d+ tokens, but it has used 150 of its 200 sampling tokens this hour/,
    );
    expect(asked).toEqual([]);
    expect(logs.at(-1)?.level).toBe('warning');
    expect(svc.stats('s1')).toMatchObject({ refused: 1, tokensLastHour: 150 });
    // Another server has its own budget; and an hour after the spend, s1 may sample again.
    await expect(svc.handle('s2', params('hello', 100), new AbortController().signal)).resolves.toMatchObject(
      { model: 'scripted' },
    );
    now = HOUR_MS + 1;
    await expect(svc.handle('s1', params('hello', 100), new AbortController().signal)).resolves.toMatchObject(
      { model: 'scripted' },
    );
  });

  it('an edit that raises maxTokens past the budget is refused too', async () => {
    const { broker, svc, calls } = setup({ limit: 300 });
    broker.on('requested', (r) =>
      broker.answer(r.id, { kind: 'sampling', outcome: 'approve', edited: { maxTokens: 5000 } }),
    );
    const err = (await svc
      .handle('s1', params('x', 10), new AbortController().signal)
      .catch((e: unknown) => e)) as ProtocolError;
    expect(err.message).toMatch(/up to \d+ tokens, but it has used 0 of its 300/);
    expect(calls).toEqual([]);
  });

  it('a failing model answers the server with an internal error naming the cause', async () => {
    const broker = new InteractionBroker();
    const logs: LogLine[] = [];
    const svc = new SamplingService({
      broker,
      budget: new SamplingBudget(),
      log: (l) => logs.push(l),
      complete: () => Promise.reject(new MooringError('connect_failed', 'Ollama is not reachable')),
    });
    broker.on('requested', (r) => broker.answer(r.id, { kind: 'sampling', outcome: 'approve' }));
    const err = (await svc
      .handle('s1', params('x'), new AbortController().signal)
      .catch((e: unknown) => e)) as ProtocolError;
    expect(err.code).toBe(-32603);
    expect(err.message).toMatch(/Ollama is not reachable/);
    expect(logs.at(-1)).toMatchObject({ level: 'error' });
  });
});
