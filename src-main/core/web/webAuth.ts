// Browser mode's gate (ARCHITECTURE.md, "Processes and entry points" and the web/ room): a one-time token
// that becomes an HttpOnly, SameSite=Strict cookie, plus Host and Origin checks on every request, so neither
// another local user's browser tab nor a web page using DNS rebinding can reach the router.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export type GateVerdict =
  | { kind: 'allow' }
  /** The one-time token was presented: set this cookie and redirect to `location`. */
  | { kind: 'login'; setCookie: string; location: string }
  | { kind: 'deny'; status: 401 | 403; reason: string };

/**
 * What a person who is turned away does next. The session cookie lasts as long as the browser, and the
 * link opens one session: another browser, or the same one after a restart, needs a new link, and only a
 * new `mooring web` prints one.
 */
const NEW_LINK =
  'stop Mooring in the terminal that runs it (Ctrl-C) and start it again (`npm start` or `mooring web`): it prints a new link';

const newSecret = () => randomBytes(32).toString('base64url');

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export class WebGate {
  /** Null once used: the token opens exactly one browser session. */
  private token: string | null;
  private readonly sessions = new Set<string>();
  private port = 0;

  constructor(token: string = newSecret()) {
    if (token.length < 16) throw new Error('The browser-mode token must be at least 16 characters.');
    this.token = token;
  }

  /** The port is known only once the server listens. */
  setPort(port: number): void {
    this.port = port;
  }

  /** The URL to print: the only place the token appears. */
  loginUrl(): string {
    if (!this.token) throw new Error('The one-time token was already used.');
    return `http://127.0.0.1:${this.port}/?token=${this.token}`;
  }

  /** Cookies are per host, not per port: a name with the port keeps two instances apart. */
  private get cookieName(): string {
    return `mooring_${this.port}`;
  }

  check(req: IncomingMessage): GateVerdict {
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${this.port}` && host !== `localhost:${this.port}`)
      return { kind: 'deny', status: 403, reason: 'wrong Host header' };
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${host}`)
      return { kind: 'deny', status: 403, reason: 'wrong Origin header' };

    const url = new URL(req.url ?? '/', `http://${host}`);
    const presented = url.searchParams.get('token');
    if (presented !== null) {
      if (!this.token || !sameSecret(presented, this.token))
        return {
          kind: 'deny',
          status: 401,
          reason: `this link was already used (it opens one browser session) or is not valid. To open Mooring here, ${NEW_LINK}`,
        };
      this.token = null;
      const session = newSecret();
      this.sessions.add(session);
      url.searchParams.delete('token');
      return {
        kind: 'login',
        setCookie: `${this.cookieName}=${session}; HttpOnly; SameSite=Strict; Path=/`,
        location: url.pathname + url.search,
      };
    }
    const session = cookieValue(req.headers.cookie, this.cookieName);
    if (session && [...this.sessions].some((s) => sameSecret(s, session))) return { kind: 'allow' };
    return {
      kind: 'deny',
      status: 401,
      reason: `not signed in. Open the link Mooring printed when it started (it works once); if that link was used already, ${NEW_LINK}`,
    };
  }
}
