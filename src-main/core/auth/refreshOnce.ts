// One redemption per refresh token. OAuth 2.1 (section 4.3.1) lets an authorization server rotate refresh
// tokens: each refresh returns a new one and the old one is dead. When two requests of one session meet a
// 401 together (a 2026-07-28 session's listen stream and a tool call, say), the SDK refreshes once for each,
// both with the same refresh token; the second is refused (`invalid_grant`), the SDK then forgets the
// tokens and the user is asked to sign in again for nothing. This fetch sends one refresh per refresh token
// and gives every caller the same answer, so both save the same new tokens.
import { createHash } from 'node:crypto';
import type { FetchLike } from '@modelcontextprotocol/client';

/** How long an answer is kept for late callers: a 401 that was on the wire while the refresh ran. */
const KEEP_MS = 60_000;

interface Answer {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
}

/**
 * Answers by refresh token (its hash: no token sits in memory longer than its request needs), for the whole
 * process: every session of a server reads the same stored tokens (the sign-in's, the app's, a project
 * folder's), so any two of them may refresh at once.
 */
const answers = new Map<string, Promise<Answer>>();

/** `inner` with refresh-token grants shared by every caller that sends the same token. */
export function refreshOnce(inner: FetchLike): FetchLike {
  return async (url, init) => {
    const token = refreshTokenOf(init);
    if (!token) return inner(url, init);
    const key = createHash('sha256').update(token).digest('hex');
    let answer = answers.get(key);
    if (!answer) {
      answer = (async () => {
        const r = await inner(url, init);
        return { status: r.status, statusText: r.statusText, headers: [...r.headers], body: await r.text() };
      })();
      answers.set(key, answer);
      const forget = () => void answers.delete(key);
      // A network failure may be retried with the same token; an answer is kept for a minute.
      answer.then(() => setTimeout(forget, KEEP_MS).unref(), forget);
    }
    const a = await answer;
    return new Response(a.body, { status: a.status, statusText: a.statusText, headers: a.headers });
  };
}

/** The refresh token of a token-endpoint request with `grant_type=refresh_token`, else undefined. */
function refreshTokenOf(init: RequestInit | undefined): string | undefined {
  if (init?.method?.toUpperCase() !== 'POST') return undefined;
  const body = init.body;
  const form =
    body instanceof URLSearchParams ? body : typeof body === 'string' ? new URLSearchParams(body) : undefined;
  if (form?.get('grant_type') !== 'refresh_token') return undefined;
  return form.get('refresh_token') ?? undefined;
}
