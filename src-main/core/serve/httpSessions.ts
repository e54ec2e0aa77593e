// The open sessions of `mooring serve --http` (MCP spec 2025-11-25, "Transports": Streamable HTTP, session
// management), bounded: each costs a server object with every relayed tool registered, so a client that
// keeps sending `initialize` must not grow Mooring without end. A token may hold `perToken` sessions and the
// server `total`; one more is refused with 503 and a Retry-After (httpServer.ts). A session nobody used for
// `idleMs` — no request, no open stream — is closed and its resources freed; its client gets 404 on its next
// request and, as the spec says, starts a new session.
import { randomUUID } from 'node:crypto';
import { MooringError } from '../errors';
import type { ClientIdentity } from './clientScope';

export interface SessionLimits {
  /** Open sessions one token may hold. */
  perToken: number;
  /** Open sessions in all. */
  total: number;
  /** A session without a request or an open stream for this long is closed. */
  idleMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { perToken: 16, total: 64, idleMs: 10 * 60_000 };

/** One session as the table tracks it; `close` frees its server and transport. */
export interface TrackedSession {
  id: string;
  who: ClientIdentity;
  /** Requests and streams of this session still open. */
  open: number;
  lastActive: number;
  /** False until its `initialize` succeeded: a failed handshake is dropped right after. */
  initialized: boolean;
  /** Set by whoever builds the session's server once it was admitted. */
  close: () => Promise<void>;
}

export type Admission =
  { ok: true; session: TrackedSession } | { ok: false; retryAfterSeconds: number; message: string };

/** Checks `--max-sessions`, `--max-sessions-per-token` and `--session-idle` (seconds) from the command line. */
export function parseSessionLimits(flags: {
  maxSessions?: string | undefined;
  maxSessionsPerToken?: string | undefined;
  sessionIdle?: string | undefined;
}): SessionLimits {
  const whole = (text: string | undefined, flag: string, fallback: number, max: number) => {
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1 || n > max)
      throw new MooringError(
        'usage',
        `${flag} must be a whole number from 1 to ${max}, not "${text}"`,
        `e.g. ${flag} ${fallback}`,
      );
    return n;
  };
  const total = whole(flags.maxSessions, '--max-sessions', DEFAULT_SESSION_LIMITS.total, 10_000);
  const perToken = whole(
    flags.maxSessionsPerToken,
    '--max-sessions-per-token',
    Math.min(DEFAULT_SESSION_LIMITS.perToken, total),
    total,
  );
  const idleSeconds = whole(
    flags.sessionIdle,
    '--session-idle',
    DEFAULT_SESSION_LIMITS.idleMs / 1000,
    24 * 3600,
  );
  return { total, perToken, idleMs: idleSeconds * 1000 };
}

export class HttpSessionTable {
  private readonly sessions = new Map<string, TrackedSession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    readonly limits: SessionLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => void this.sweep(), Math.max(250, Math.min(limits.idleMs / 2, 60_000)));
    this.sweeper.unref();
  }

  get(id: string): TrackedSession | undefined {
    return this.sessions.get(id);
  }

  /** Sessions that finished their handshake, for the UI and tests. */
  list(): TrackedSession[] {
    return [...this.sessions.values()].filter((s) => s.initialized);
  }

  /**
   * Whether `who` may open one more session now (idle ones are closed first). An admitted session holds its
   * place at once, before its server is built, so a burst of `initialize` requests cannot pass the cap
   * together.
   */
  async admit(who: ClientIdentity): Promise<Admission> {
    await this.sweep();
    const all = [...this.sessions.values()];
    const mine = all.filter((s) => s.who === who);
    if (mine.length < this.limits.perToken && all.length < this.limits.total) {
      const session: TrackedSession = {
        id: randomUUID(),
        who,
        open: 0,
        lastActive: this.now(),
        initialized: false,
        close: async () => undefined,
      };
      this.sessions.set(session.id, session);
      return { ok: true, session };
    }
    const perToken = mine.length >= this.limits.perToken;
    const crowd = perToken ? mine : all;
    const idleMinutes = Math.max(1, Math.round(this.limits.idleMs / 60_000));
    return {
      ok: false,
      retryAfterSeconds: this.retryAfter(crowd),
      message: perToken
        ? `Too many open MCP sessions for token "${who.name}": ${mine.length} of ${this.limits.perToken}. Close the sessions you no longer use (an HTTP DELETE with their Mcp-Session-Id; SDK clients send it when they close) or reuse one; a session unused for ${idleMinutes} min closes by itself.`
        : `Mooring has too many open MCP sessions: ${all.length} of ${this.limits.total}. Close the sessions you no longer use (an HTTP DELETE with their Mcp-Session-Id) or reuse one; a session unused for ${idleMinutes} min closes by itself.`,
    };
  }

  /** A request or stream of the session starts; the returned function ends it. */
  enter(session: TrackedSession): () => void {
    session.open++;
    session.lastActive = this.now();
    let left = false;
    return () => {
      if (left) return;
      left = true;
      session.open--;
      session.lastActive = this.now();
    };
  }

  /** Removes the session and frees what it holds. */
  async drop(id: string): Promise<void> {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    await s.close().catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.keys()].map((id) => this.drop(id)));
  }

  /** Closes every session idle for `idleMs` (no open request or stream). */
  private async sweep(): Promise<void> {
    const now = this.now();
    const idle = [...this.sessions.values()].filter(
      (s) => s.initialized && s.open === 0 && now - s.lastActive >= this.limits.idleMs,
    );
    await Promise.all(idle.map((s) => this.drop(s.id)));
  }

  /** Seconds until one of `crowd` can have closed for idleness (a busy one: a full idle period). */
  private retryAfter(crowd: TrackedSession[]): number {
    const now = this.now();
    const soonest = Math.min(
      ...crowd.map((s) =>
        s.open > 0 ? this.limits.idleMs : Math.max(0, s.lastActive + this.limits.idleMs - now),
      ),
    );
    return Math.max(1, Math.ceil(soonest / 1000));
  }
}
