// The connection doctor's words for what a remote server's HTTP or TLS layer answered, and for Mooring's own
// message limit (sessionErrors.ts asks here first): each says what happened, in the user's terms, and names the
// command that fixes it. A page's HTML is never quoted (a 404 or 500 page says nothing a person can use): the
// status line is. A TLS failure is named by its kind: a plain-http port behind https://, an expired or a
// self-signed certificate, a certificate for another name.
import { ProtocolError, SdkHttpError } from '@modelcontextprotocol/client';
import type { ServerConfig } from '@shared/config';
import { MAX_MESSAGE_MB } from '@shared/config';
import { MooringError } from '../errors';

/** What the stdio transport marks its own "message too large" error with (stdioTransport.ts, endDiscard). */
export const MESSAGE_TOO_LARGE = 'mooring/message-too-large';

export interface MessageTooLargeData {
  reason: typeof MESSAGE_TOO_LARGE;
  bytes: number;
  limitBytes: number;
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;

/** A result dropped for being over Mooring's limit: Mooring's limit, said so, never the server's error. */
export function messageTooLarge(
  err: unknown,
  ctx: { server: string; tool: string } | { server: string; what: string },
): MooringError | undefined {
  if (!(err instanceof ProtocolError)) return undefined;
  const data = err.data as Partial<MessageTooLargeData> | undefined;
  if (data?.reason !== MESSAGE_TOO_LARGE || !data.bytes || !data.limitBytes) return undefined;
  const limitMb = Math.round(data.limitBytes / 1048576);
  const raise = Math.min(MAX_MESSAGE_MB, Math.max(limitMb * 2, Math.ceil(data.bytes / 1048576) + 1));
  return new MooringError(
    'protocol_error',
    `${'tool' in ctx ? `The result of ${ctx.server}/${ctx.tool}` : `The answer to ${ctx.what}`} was ${mb(data.bytes)}, over the ${limitMb} MB Mooring accepts in one message from "${ctx.server}" (its maxMessageMB); Mooring dropped it — the server did nothing wrong`,
    limitMb >= MAX_MESSAGE_MB
      ? `${MAX_MESSAGE_MB} MB is the most Mooring accepts; ask the tool for less (a page, a range) if it can.`
      : `Raise the limit for this server (at most ${MAX_MESSAGE_MB} MB), then call again: mooring mcp set ${ctx.server} maxMessageMB ${raise}`,
    { cause: err },
  );
}

const TLS_PLAIN_PORT = ['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'EPROTO'];
const TLS_EXPIRED = ['CERT_HAS_EXPIRED'];
const TLS_SELF_SIGNED = ['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN'];
const TLS_UNKNOWN_ISSUER = ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY'];
const TLS_WRONG_NAME = ['ERR_TLS_CERT_ALTNAME_INVALID'];

/** The codes along an error's cause chain (fetch wraps the socket's error as `cause`). */
function codes(err: unknown): string[] {
  const out: string[] = [];
  for (let e: unknown = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') out.push(code);
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && /wrong version number/i.test(message))
      out.push('ERR_SSL_WRONG_VERSION_NUMBER');
  }
  return out;
}

/** The status an HTTP error carries: the SDK's SdkHttpError, or "(HTTP 404)" in an older message. */
function httpStatus(err: unknown): { status: number; statusText?: string } | undefined {
  if (err instanceof SdkHttpError)
    return { status: err.status, ...(err.statusText ? { statusText: err.statusText } : {}) };
  const m = /\(HTTP (\d{3})\)/.exec(err instanceof Error ? err.message : '');
  return m ? { status: Number(m[1]) } : undefined;
}

function parts(url: string | undefined): { origin: string; host: string; path: string; url: string } {
  try {
    const u = new URL(url!);
    return { origin: u.origin, host: u.host, path: u.pathname, url: `${u.origin}${u.pathname}` };
  } catch {
    return { origin: String(url), host: String(url), path: '', url: String(url) };
  }
}

/** A remote server's HTTP or TLS failure in plain words, or undefined when it is none of those. */
export function diagnoseRemote(err: unknown, config: ServerConfig): MooringError | undefined {
  if (config.transport === 'stdio') return undefined;
  const where = parts(config.url);
  const setUrl = (url: string) => `mooring mcp set ${config.name} url ${url}`;
  const found = codes(err);
  const is = (list: string[]) => found.some((c) => list.includes(c));
  const opts = { cause: err };
  if (is(TLS_PLAIN_PORT) && config.url?.startsWith('https:'))
    return new MooringError(
      'connect_failed',
      `${where.origin} does not answer TLS: this port speaks plain HTTP; use http://`,
      `If the server is meant to be reached without TLS (a local one), use its http:// URL: ${setUrl(`http://${where.host}${where.path}`)}`,
      opts,
    );
  if (is(TLS_EXPIRED))
    return new MooringError(
      'connect_failed',
      `The TLS certificate of ${where.host} has expired, so Mooring does not connect`,
      "The server's operator has to renew it; check your computer's clock if it should still be valid.",
      opts,
    );
  if (is(TLS_SELF_SIGNED) || is(TLS_UNKNOWN_ISSUER))
    return new MooringError(
      'connect_failed',
      `${where.host} presents a ${is(TLS_SELF_SIGNED) ? 'self-signed' : 'TLS'} certificate that no authority this computer trusts has signed, so Mooring does not connect`,
      "If it is your own server, start Mooring with its CA in NODE_EXTRA_CA_CERTS=/path/to/ca.pem; otherwise ask the server's operator for a certificate from a public authority.",
      opts,
    );
  if (is(TLS_WRONG_NAME))
    return new MooringError(
      'connect_failed',
      `The TLS certificate of ${where.host} is for another name, so Mooring does not connect`,
      `Check the host name in the URL (the certificate names the one to use), then: ${setUrl('https://HOST/PATH')}`,
      opts,
    );
  const http = httpStatus(err);
  if (!http) return undefined;
  const statusLine = `HTTP ${http.status}${http.statusText ? ` ${http.statusText}` : ''}`;
  if (http.status === 404 || http.status === 405)
    return new MooringError(
      'connect_failed',
      `Nothing at ${where.url} (${statusLine}): is the URL the server's MCP endpoint (often /mcp or /sse)?`,
      `Fix the URL: ${setUrl(`${where.origin}${config.transport === 'sse' ? '/sse' : '/mcp'}`)}`,
      opts,
    );
  if (http.status === 401) return undefined; // the sign-in's words (auth/authErrors.ts)
  return new MooringError(
    'connect_failed',
    `${where.url} answered ${statusLine} instead of speaking MCP`,
    http.status >= 500
      ? "The server failed; try again later, or open the server's Logs."
      : `Check the URL, and whether the server wants credentials: mooring mcp add ${config.name} --replace --url ${where.url} --secret-header Authorization`,
    opts,
  );
}
