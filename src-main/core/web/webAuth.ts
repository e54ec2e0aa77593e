// Browser mode's gate (ARCHITECTURE.md, "Processes and entry points" and the web/ room): a one-time token
// that becomes an HttpOnly, SameSite=Strict cookie lasting `webSessionHours`, plus Host and Origin checks on
// every request, so neither another local user's browser tab nor a web page using DNS rebinding can reach
// the router. A running instance hands out a new one-time link to `mooring web --link`, which proves it can
// read the user's Mooring home (the key in run/web-<pid>.json, 0600 in a 0700 folder; web/webInstance.ts).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export type GateVerdict =
  | { kind: 'allow' }
  /** A one-time token was presented: set this cookie and redirect to `location`. */
  | { kind: 'login'; setCookie: string; location: string }
  /** `mooring web --link` proved it can read this home's run/ folder: answer with a new one-time link. */
  | { kind: 'newLink'; url: string }
  | { kind: 'deny'; status: 401 | 403; reason: string };

/** Where `mooring web --link` asks a running instance for a new link (POST, with the link key). */
export const NEW_LINK_PATH = '/_mooring/link';
export const LINK_KEY_HEADER = 'x-mooring-link-key';

/** What a person who is turned away does next. */
const NEW_LINK =
  'run `mooring web --link` in a terminal: the running Mooring prints a new link, and its servers keep running';

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

export interface WebGateOptions {
  /** The first one-time token; default a fresh random one. */
  token?: string | undefined;
  /** How long a sign-in lasts (the cookie's Max-Age and the server's own expiry), read at each sign-in. */
  sessionMs: () => number;
  now?: () => number;
}

/** Links not used yet; past this many, the oldest stops working (a script asking in a loop stays bounded). */
const MAX_OPEN_LINKS = 8;

export class WebGate {
  /** One-time tokens not used yet, oldest first: each opens exactly one browser session. */
  private readonly tokens: string[] = [];
  private readonly first: string;
  /** Session id → when it ends. */
  private readonly sessions = new Map<string, number>();
  /** Proves a request for a new link comes from someone who can read this home (run/web-<pid>.json). */
  readonly linkKey = newSecret();
  private port = 0;
  private readonly now: () => number;

  constructor(private readonly opts: WebGateOptions) {
    const token = opts.token ?? newSecret();
    if (token.length < 16) throw new Error('The browser-mode token must be at least 16 characters.');
    this.first = token;
    this.tokens.push(token);
    this.now = opts.now ?? Date.now;
  }

  /** The port is known only once the server listens. */
  setPort(port: number): void {
    this.port = port;
  }

  /** The URL to print at start: its token works once. */
  loginUrl(): string {
    return this.urlWith(this.first);
  }

  /** A new one-time link, for a person who has the home's link key (`mooring web --link`). */
  newLink(): string {
    const token = newSecret();
    this.tokens.push(token);
    if (this.tokens.length > MAX_OPEN_LINKS) this.tokens.shift();
    return this.urlWith(token);
  }

  private urlWith(token: string): string {
    return `http://127.0.0.1:${this.port}/?token=${token}`;
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
    // Asked by a command of this home, never by a page: no Origin at all, and the key from the home's run/
    // folder (web/webInstance.ts), with the method each path takes.
    const fromCommand = (method: string) => {
      const key = req.headers[LINK_KEY_HEADER];
      return (
        req.method === method &&
        origin === undefined &&
        typeof key === 'string' &&
        sameSecret(key, this.linkKey)
      );
    };
    if (url.pathname === NEW_LINK_PATH)
      return fromCommand('POST')
        ? { kind: 'newLink', url: this.newLink() }
        : { kind: 'deny', status: 403, reason: 'a new link is given to `mooring web --link` only' };
    const presented = url.searchParams.get('token');
    if (presented !== null) {
      const at = this.tokens.findIndex((t) => sameSecret(presented, t));
      if (at < 0)
        return {
          kind: 'deny',
          status: 401,
          reason: `this link was already used (it opens one browser session) or is not valid. To open Mooring here, ${NEW_LINK}`,
        };
      this.tokens.splice(at, 1);
      const session = newSecret();
      const lasts = this.opts.sessionMs();
      this.sessions.set(session, this.now() + lasts);
      url.searchParams.delete('token');
      return {
        kind: 'login',
        setCookie: `${this.cookieName}=${session}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${Math.floor(lasts / 1000)}`,
        location: url.pathname + url.search,
      };
    }
    const session = cookieValue(req.headers.cookie, this.cookieName);
    const now = this.now();
    for (const [id, ends] of this.sessions) if (ends <= now) this.sessions.delete(id);
    if (session && [...this.sessions.keys()].some((s) => sameSecret(s, session))) return { kind: 'allow' };
    return {
      kind: 'deny',
      status: 401,
      reason: `not signed in, or the sign-in ended. Open the link Mooring printed when it started (it works once); if that link was used already, ${NEW_LINK}`,
    };
  }
}
