// Safe retries: which failures are retried, for which tools, and how often. The end-to-end
// proof with a server killed mid-call is in test/integration/workspace.test.ts.
import { describe, expect, it, vi } from 'vitest';
import { MooringError } from '../errors';
import { isSafeToRetry, withSafeRetry } from './safeRetry';

const dropped = () => new MooringError('transport_closed', 'The connection to "x" broke while t was running');

/** A call that fails with each given error in turn, then answers "ok". */
function scripted(...failures: Error[]) {
  const fn = vi.fn(async () => {
    const next = failures.shift();
    if (next) throw next;
    return 'ok';
  });
  return fn;
}

async function rejection(p: Promise<unknown>): Promise<MooringError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MooringError);
  return err as MooringError;
}

describe('withSafeRetry', () => {
  it.each([
    ['readOnlyHint', { readOnlyHint: true }],
    ['idempotentHint', { idempotentHint: true }],
  ])('retries a %s tool once after a dropped connection', async (_label, annotations) => {
    const call = scripted(dropped());
    const onRetry = vi.fn();
    await expect(withSafeRetry(call, { name: 's/t', annotations }, { onRetry })).resolves.toBe('ok');
    expect(call).toHaveBeenCalledTimes(2);
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect(onRetry.mock.calls[0]![0]).toMatchObject({ code: 'transport_closed' });
  });

  it.each([
    ['no annotations', undefined],
    ['destructive', { destructiveHint: true, readOnlyHint: false }],
    ['explicitly not idempotent', { idempotentHint: false }],
  ])('does not retry a tool with %s, and says so', async (_label, annotations) => {
    const call = scripted(dropped());
    const onRetry = vi.fn();
    const err = await rejection(withSafeRetry(call, { name: 's/write', annotations }, { onRetry }));
    expect(call).toHaveBeenCalledTimes(1);
    expect(onRetry).not.toHaveBeenCalled();
    expect(err.code).toBe('transport_closed');
    expect(err.message).toMatch(
      /"s\/write" was interrupted.*not retried.*not marked read-only or idempotent/s,
    );
    expect(err.hint).toMatch(/took effect/);
    expect(err.cause).toBeInstanceOf(MooringError);
  });

  it.each(['timeout', 'tool_error', 'cancelled', 'protocol_error'] as const)(
    'never retries a %s, even for a read-only tool',
    async (code) => {
      const call = scripted(new MooringError(code, code));
      const err = await rejection(withSafeRetry(call, { annotations: { readOnlyHint: true } }));
      expect(err.code).toBe(code);
      expect(call).toHaveBeenCalledTimes(1);
    },
  );

  it('does not retry a call whose caller has cancelled it', async () => {
    const ac = new AbortController();
    ac.abort();
    const call = scripted(dropped());
    await rejection(withSafeRetry(call, { annotations: { readOnlyHint: true } }, { signal: ac.signal }));
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('retries only once: a second drop fails with a message that says it was tried twice', async () => {
    const call = scripted(dropped(), dropped());
    const err = await rejection(withSafeRetry(call, { name: 's/r', annotations: { readOnlyHint: true } }));
    expect(call).toHaveBeenCalledTimes(2);
    expect(err.code).toBe('transport_closed');
    expect(err.message).toMatch(/failed twice/);
  });

  it('passes a different error from the retry through unchanged', async () => {
    const call = scripted(dropped(), new MooringError('timeout', 'too slow'));
    const err = await rejection(withSafeRetry(call, { annotations: { idempotentHint: true } }));
    expect(err.code).toBe('timeout');
    expect(err.message).toBe('too slow');
  });

  it('isSafeToRetry reads only the two hints that promise a repeat is harmless', () => {
    expect(isSafeToRetry({ annotations: { readOnlyHint: true } })).toBe(true);
    expect(isSafeToRetry({ annotations: { idempotentHint: true, destructiveHint: true } })).toBe(true);
    expect(isSafeToRetry({ annotations: { destructiveHint: false } })).toBe(false);
    expect(isSafeToRetry({})).toBe(false);
  });
});
