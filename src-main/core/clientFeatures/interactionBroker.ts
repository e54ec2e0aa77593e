// The interaction broker: where a server's sampling and elicitation requests
// wait for the user. The core calls `request`; the attached UI lists `pending()` and answers by id with an
// answer of the matching kind. An accepted form is validated here (defaults applied, SEP-1034): an invalid
// answer throws `usage` and the request stays open for the user to fix.
import {
  InteractionAnswerSchema,
  type AnswerFor,
  type Interaction,
  type InteractionAnswer,
  type InteractionInput,
  type InteractionKind,
} from '@shared/interactions';
import { MooringError } from '../errors';
import { completeElicitationContent } from './elicitationContent';
import { PendingRequests } from '../safety/pendingRequests';

/** Ten minutes: a form can take a person a while; a server that waits longer has its own timeout. */
export const DEFAULT_INTERACTION_TIMEOUT_MS = 10 * 60_000;

export interface InteractionBrokerOptions {
  timeoutMs?: number;
  now?: () => number;
  newId?: () => string;
}

const NOUN: Record<InteractionKind, string> = {
  sampling: 'sampling request',
  'elicitation-form': 'request for input',
  'elicitation-url': 'request to open a link',
};

function parseAnswer(request: Interaction, raw: unknown): InteractionAnswer {
  const parsed = InteractionAnswerSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MooringError(
      'usage',
      `The answer is not valid (${issue?.path.join('.') || 'answer'}: ${issue?.message ?? 'invalid'}).`,
      `Answer a ${request.kind} request with {kind: "${request.kind}", …} as described in shared/interactions.ts.`,
    );
  }
  const answer = parsed.data;
  if (answer.kind !== request.kind)
    throw new MooringError(
      'usage',
      `Request ${request.id} is a ${NOUN[request.kind]} (${request.kind}), but the answer is for ${answer.kind}.`,
      `Answer it with {kind: "${request.kind}", …}.`,
    );
  if (answer.kind === 'elicitation-form' && request.kind === 'elicitation-form' && answer.action === 'accept')
    return { ...answer, content: completeElicitationContent(request.requestedSchema, answer.content) };
  return answer;
}

export class InteractionBroker extends PendingRequests<Interaction, InteractionAnswer> {
  constructor(opts: InteractionBrokerOptions = {}) {
    super({
      noun: 'request',
      timeoutMs: opts.timeoutMs ?? DEFAULT_INTERACTION_TIMEOUT_MS,
      parse: parseAnswer,
      answerHint: 'Answer requests from servers in the Mooring window while the server waits.',
      ...(opts.now ? { now: opts.now } : {}),
      ...(opts.newId ? { newId: opts.newId } : {}),
    });
  }

  /** Parks a request until the user answers; rejects with `refused` on timeout and `cancelled` on abort. */
  request<I extends InteractionInput>(
    input: I,
    opts: { signal?: AbortSignal | undefined; timeoutMs?: number | undefined } = {},
  ): Promise<AnswerFor<I['kind']>> {
    return this.ask(input as Omit<Interaction, 'id' | 'requestedAt' | 'expiresAt'>, {
      label: `"${input.server}" (${NOUN[input.kind]})`,
      signal: opts.signal,
      timeoutMs: opts.timeoutMs,
    }) as Promise<AnswerFor<I['kind']>>;
  }
}
