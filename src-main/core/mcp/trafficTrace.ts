// The JSON-RPC traffic of one session, for the Logs view when the user asks for it: every message the
// client sends and every message it receives, as one line of JSON each. The transport is wrapped, not
// changed: its methods keep their own `this` (transports may hold private fields), and the SDK sees every
// other property as it is (it reads `stderr`, `sessionId`, `setProtocolVersion`, …).
import type { Transport } from '@modelcontextprotocol/client';

/** Longest line kept for one message: a tool result with a large image would flood the log. */
export const MAX_TRACE_CHARS = 4_000;

/** Called for every message; it decides whether to keep it (stringify only then: this is the call path). */
export type TraceTap = (direction: '→' | '←', message: unknown) => void;

/** One message as the log shows it: its JSON, cut at MAX_TRACE_CHARS. */
export function traceText(message: unknown): string {
  const text = JSON.stringify(message) ?? String(message);
  return text.length <= MAX_TRACE_CHARS
    ? text
    : `${text.slice(0, MAX_TRACE_CHARS)}… (${text.length - MAX_TRACE_CHARS} more characters)`;
}

/** `transport` with `tap` called for each message sent and received. */
export function tracedTransport(transport: Transport, tap: TraceTap): Transport {
  return new Proxy(transport, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === 'send')
        return (message: unknown, ...rest: unknown[]) => {
          tap('→', message);
          return (value as (...a: unknown[]) => Promise<void>).call(target, message, ...rest);
        };
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
    set(target, prop, value: unknown) {
      if (prop === 'onmessage' && typeof value === 'function') {
        const handler = value as (message: unknown, ...rest: unknown[]) => void;
        return Reflect.set(
          target,
          prop,
          (message: unknown, ...rest: unknown[]) => {
            tap('←', message);
            handler(message, ...rest);
          },
          target,
        );
      }
      return Reflect.set(target, prop, value, target);
    },
  });
}
