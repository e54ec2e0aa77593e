import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InteractionResolved } from '@shared/interactions';
import { MooringError } from '../errors';
import { InteractionBroker } from './interactionBroker';

const form = {
  kind: 'elicitation-form' as const,
  server: 'srv',
  message: 'Who are you?',
  requestedSchema: {
    type: 'object' as const,
    properties: {
      name: { type: 'string' as const, title: 'Name' },
      age: { type: 'integer' as const, minimum: 0, maximum: 150, default: 30 },
      colour: { type: 'string' as const, enum: ['red', 'blue'], default: 'blue' },
      tags: { type: 'array' as const, items: { type: 'string', enum: ['a', 'b'] }, default: ['a'] },
      ok: { type: 'boolean' as const, default: true },
    },
    required: ['name'],
  },
};

async function caught(p: Promise<unknown> | (() => unknown)): Promise<MooringError> {
  let err: unknown;
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(MooringError);
  return err as MooringError;
}

afterEach(() => vi.useRealTimers());

describe('InteractionBroker', () => {
  it('lists a pending request, answers it by id, and emits requested then resolved', async () => {
    const b = new InteractionBroker({ newId: () => 'id-1', now: () => 1000, timeoutMs: 5000 });
    const seen: string[] = [];
    b.on('requested', (r) => seen.push(`requested ${r.id} ${r.kind}`));
    b.on('resolved', (r: InteractionResolved) => seen.push(`resolved ${r.request.id} ${r.answer?.kind}`));
    const p = b.request(form);
    expect(b.pending()).toEqual([
      expect.objectContaining({ id: 'id-1', requestedAt: 1000, expiresAt: 6000 }),
    ]);
    b.answer('id-1', { kind: 'elicitation-form', action: 'accept', content: { name: 'Ada' } });
    const answer = await p;
    // SEP-1034: the omitted fields come back with the schema's defaults.
    expect(answer).toEqual({
      kind: 'elicitation-form',
      action: 'accept',
      decidedBy: 'user:ui',
      content: { name: 'Ada', age: 30, colour: 'blue', tags: ['a'], ok: true },
    });
    expect(seen).toEqual(['requested id-1 elicitation-form', 'resolved id-1 elicitation-form']);
    expect(b.pending()).toEqual([]);
  });

  it('keeps the request open when the answer is invalid, naming each bad field', async () => {
    const b = new InteractionBroker();
    const p = b.request(form);
    const [r] = b.pending();
    const e1 = await caught(() =>
      b.answer(r!.id, { kind: 'elicitation-form', action: 'accept', content: { age: 200, colour: 'green' } }),
    );
    expect(e1.code).toBe('usage');
    expect(e1.message).toMatch(/Name \(name\)/);
    expect(e1.message).toMatch(/age/);
    expect(e1.message).toMatch(/colour/);
    const e2 = await caught(() => b.answer(r!.id, { kind: 'sampling', outcome: 'approve' }));
    expect(e2.message).toMatch(/is a request for input \(elicitation-form\), but the answer is for sampling/);
    const e3 = await caught(() => b.answer(r!.id, { kind: 'elicitation-form', action: 'maybe' }));
    expect(e3.code).toBe('usage');
    expect(b.pending()).toHaveLength(1);
    b.answer(r!.id, { kind: 'elicitation-form', action: 'decline' });
    expect(await p).toMatchObject({ action: 'decline' });
    // A decline carries no content, whatever the schema says.
    expect((await p) as object).not.toHaveProperty('content');
  });

  it('declines with a clear refused error when nobody answers in time', async () => {
    vi.useFakeTimers();
    const b = new InteractionBroker({ timeoutMs: 60_000 });
    const resolved: InteractionResolved[] = [];
    b.on('resolved', (r) => resolved.push(r));
    const p = b.request({ ...form, server: 'slowpoke' });
    const err = caught(p);
    await vi.advanceTimersByTimeAsync(60_000);
    const e = await err;
    expect(e.code).toBe('refused');
    expect(e.message).toMatch(/No answer to the request from "slowpoke" \(request for input\) within 60 s/);
    expect(e.hint).toMatch(/Mooring window/);
    expect(resolved[0]?.error?.code).toBe('refused');
    expect(b.pending()).toEqual([]);
  });

  it('an abort cancels the request; answering it afterwards is not_found; dispose cancels the rest', async () => {
    const b = new InteractionBroker();
    const ac = new AbortController();
    const p = b.request(form, { signal: ac.signal });
    const id = b.pending()[0]!.id;
    ac.abort(new Error('the server cancelled'));
    const e = await caught(p);
    expect(e.code).toBe('cancelled');
    expect(e.message).toMatch(/the server cancelled/);
    expect((await caught(() => b.answer(id, { kind: 'elicitation-form', action: 'cancel' }))).code).toBe(
      'not_found',
    );

    const q = b.request(form);
    b.dispose();
    expect((await caught(q)).message).toMatch(/shutting down/);
    expect((await caught(b.request(form, { signal: AbortSignal.abort() }))).code).toBe('cancelled');
  });
});
