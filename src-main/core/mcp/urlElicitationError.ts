// The URL Elicitation Required error (MCP 2025-11-25 "Elicitation", error code -32042): a request cannot
// run until the person finished the URL-mode elicitations it lists. The SDK turns the wire error into a
// UrlElicitationRequiredError; a session error wraps it as its cause.
import { ProtocolError, UrlElicitationRequiredError } from '@modelcontextprotocol/client';

export const URL_ELICITATION_REQUIRED = -32042;

/** One elicitation the error lists (each MUST be URL mode with an id). */
export interface RequiredUrlElicitation {
  url: string;
  message: string;
  elicitationId: string;
}

/** The elicitations an error asks for, when it is a -32042 (anywhere in its cause chain); else undefined. */
export function requiredUrlElicitations(err: unknown): RequiredUrlElicitation[] | undefined {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if (e instanceof UrlElicitationRequiredError) return clean(e.elicitations);
    if (e instanceof ProtocolError && e.code === URL_ELICITATION_REQUIRED)
      return clean((e.data as { elicitations?: unknown } | undefined)?.elicitations);
  }
  return undefined;
}

function clean(list: unknown): RequiredUrlElicitation[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((raw) => {
    const e = raw as Record<string, unknown>;
    return typeof e.url === 'string' && typeof e.elicitationId === 'string'
      ? [
          {
            url: e.url,
            elicitationId: e.elicitationId,
            message: typeof e.message === 'string' ? e.message : '',
          },
        ]
      : [];
  });
}
