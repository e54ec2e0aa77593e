// Sampling and elicitation during a scheduled run (docs/schedules.md, "Schedules"): nobody is watching, so a
// server that asks the user something while only scheduled runs have calls in flight on it is declined at
// once (the spec's decline: MCP spec, "Sampling" and "Elicitation"), never left waiting for a person who is
// not there. A server request does not say which call it belongs to, so a request from a server that also
// has a call of an attended caller in flight (the chat, the playground) is left to the person.
export interface InFlightCall {
  server: string;
  client?: string | undefined;
  phase: string;
}

export interface InteractionRequest {
  id: string;
  server: string;
  kind: 'sampling' | 'elicitation-form' | 'elicitation-url';
}

export interface InteractionDoor {
  on(event: 'requested', listener: (r: InteractionRequest) => void): unknown;
  off(event: 'requested', listener: (r: InteractionRequest) => void): unknown;
  answer(id: string, answer: unknown): unknown;
}

const ENDED = new Set(['done', 'failed', 'refused']);

export const UNATTENDED_CLIENT_PREFIX = 'schedule ';

/** Declines what servers ask while only unattended runs use them; returns the stop. */
export function declineUnattendedInteractions(o: {
  broker: InteractionDoor;
  calls: () => InFlightCall[];
}): () => void {
  const onRequested = (req: InteractionRequest) => {
    const mine = o.calls().filter((c) => c.server === req.server && !ENDED.has(c.phase));
    if (!mine.length || !mine.every((c) => c.client?.startsWith(UNATTENDED_CLIENT_PREFIX))) return;
    const decidedBy = 'policy:unattended';
    // After the broker's own `requested` bookkeeping: the answer settles the parked request.
    queueMicrotask(() => {
      try {
        o.broker.answer(
          req.id,
          req.kind === 'sampling'
            ? { kind: req.kind, outcome: 'decline', decidedBy }
            : { kind: req.kind, action: 'decline', decidedBy },
        );
      } catch {
        // Already ended (the server cancelled it): nothing to decline.
      }
    });
  };
  o.broker.on('requested', onRequested);
  return () => o.broker.off('requested', onRequested);
}
