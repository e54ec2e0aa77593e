// Maps what the SDK, the OS and remote servers throw onto typed MooringErrors with a hint the user can act on.
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { ServerConfig } from '@shared/config';
import { STDERR_TAIL_MARKER } from '@shared/errors';
import { MooringError } from '../errors';
import { isLocalTransport } from '@shared/transports';
import { diagnoseRemote, messageTooLarge } from './connectionDoctor';
import { stderrHeadline } from './stderrHeadline';

interface ConnectContext {
  config: ServerConfig;
  stderrTail: string;
  exit?: { code: number | null; signal: string | null } | undefined;
  /** How long the handshake was given (the actor's connect timeout). */
  timeoutMs?: number;
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/** ": <the stderr line that says why>", or nothing when the server wrote nothing. */
function because(tail: string): string {
  const line = stderrHeadline(tail.split('\n'));
  return line ? `: ${line}` : '';
}

function withTail(message: string, tail: string): string {
  const t = tail.trim();
  return t ? `${message}${STDERR_TAIL_MARKER}${t}` : message;
}

/** Network failures by their errno code, in words (what Node's `fetch failed` hides in its causes). */
const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused (nothing is listening there)',
  ECONNRESET: 'the connection was reset by the server',
  EPIPE: 'the connection was closed by the server',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ENOTFOUND: 'the host name could not be resolved',
  EAI_AGAIN: 'the host name could not be resolved (DNS did not answer)',
  UND_ERR_SOCKET: 'the connection was closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
};

/**
 * Why a request could not reach a remote server, in words, from anywhere in `err`'s cause chain (and an
 * AggregateError's errors); undefined when it is not a network failure.
 */
export function networkFailure(err: unknown): string | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length) {
    const e = queue.shift() as (Error & { code?: unknown; cause?: unknown; errors?: unknown[] }) | undefined;
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const code = typeof e.code === 'string' ? e.code : undefined;
    if (code && NETWORK_CODES[code]) return `${NETWORK_CODES[code]} (${code})`;
    // The Fetch standard's blocked ports (9, 25, 6000, …): Node's fetch never tries to connect to them.
    if (e.message === 'bad port')
      return 'the port is one the Fetch standard blocks, so no connection was tried';
    if (/SSE stream disconnected|other side closed|socket hang up/i.test(e.message ?? ''))
      return 'the connection was closed by the server';
    queue.push(e.cause, ...(Array.isArray(e.errors) ? e.errors : []));
  }
  return undefined;
}

export function connectError(err: unknown, ctx: ConnectContext): MooringError {
  if (err instanceof MooringError) return err;
  // The era probe (server/discover) was the first request, so whatever failed it (a sign-in that is
  // needed, a refused connection) is its cause; the wrapper only says the probe failed.
  if (err instanceof SdkError && err.code === SdkErrorCode.EraNegotiationFailed && err.cause)
    return connectError(err.cause, ctx);
  const { config } = ctx;
  const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = e?.code ?? e?.cause?.code;
  const msg = e instanceof Error ? e.message : String(err);
  const diagnosed = diagnoseRemote(err, config);
  if (diagnosed) return diagnosed;
  // Before the exit check: on a timeout Mooring closes the server's stdin, so a process that was merely
  // silent then exits (often with code 0) — the exit is our doing, not the cause.
  if (err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout)
    return new MooringError(
      'timeout',
      withTail(
        `The server did not finish the MCP handshake within ${ctx.timeoutMs ? seconds(ctx.timeoutMs) : 'the time allowed'}; Mooring stopped waiting and closed it`,
        ctx.stderrTail,
      ),
      isLocalTransport(config.transport)
        ? 'Check that the command starts an MCP server that speaks JSON-RPC on stdout (not a regular program, and not one waiting for input or printing its own logs to stdout): run it in a terminal to see what it does. A first start that downloads packages (npx, uvx) may just need another try.'
        : 'Check that the URL points at an MCP endpoint that answers initialize (Streamable HTTP usually /mcp, SSE /sse), and that nothing in between holds the request.',
      { cause: err },
    );
  if (isLocalTransport(config.transport)) {
    if (code === 'ENOENT')
      return new MooringError(
        'connect_failed',
        `Command "${config.command}" was not found on PATH`,
        `Install it, or give the full path to the executable in the server's command (Mooring searched the PATH of your login shell).`,
        { cause: err },
      );
    if (code === 'EACCES')
      return new MooringError(
        'connect_failed',
        `Command "${config.command}" is not executable`,
        'Check the file permissions (chmod +x) or run it through its runtime, e.g. node or python3.',
        { cause: err },
      );
    if (ctx.exit)
      return new MooringError(
        'connect_failed',
        withTail(
          `The server process exited (${ctx.exit.signal ? `signal ${ctx.exit.signal}` : `code ${ctx.exit.code}`}) before the MCP handshake finished${because(ctx.stderrTail)}`,
          ctx.stderrTail,
        ),
        'Run the command in a terminal to see why it stops; check its arguments and environment.',
        { cause: err },
      );
  } else {
    if (code === 'ECONNREFUSED')
      return new MooringError(
        'connect_failed',
        `Nothing is listening at ${safeOrigin(config.url)}`,
        'Check that the server is running and the URL and port are right.',
        { cause: err },
      );
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return new MooringError(
        'connect_failed',
        `The host of ${safeOrigin(config.url)} could not be resolved`,
        'Check the URL for typos and your network connection.',
        { cause: err },
      );
    if (/\b401\b|unauthori[sz]ed/i.test(msg))
      return new MooringError(
        'auth_required',
        `${safeOrigin(config.url)} asks for authentication (401)`,
        'Sign in to this server, or add an Authorization header.',
        { cause: err },
      );
    if (/\b404\b/.test(msg))
      return new MooringError(
        'connect_failed',
        `No MCP endpoint at ${safeOrigin(config.url)}${pathOf(config.url)} (404)`,
        `Check the path: Streamable HTTP servers usually serve /mcp, legacy SSE servers /sse (transport "${config.transport}").`,
        { cause: err },
      );
  }
  const network = isLocalTransport(config.transport) ? undefined : networkFailure(err);
  if (network)
    return new MooringError(
      'connect_failed',
      `Could not connect to ${safeOrigin(config.url)}: ${network}`,
      'Check that the server is running and the URL and port are right.',
      { cause: err },
    );
  return new MooringError(
    'connect_failed',
    withTail(`Could not connect: ${msg}`, ctx.stderrTail),
    "Open the server's Logs for details, fix the configuration, then Test again.",
    { cause: err },
  );
}

export function callError(
  err: unknown,
  ctx: { server: string; tool: string; timeoutMs: number; signal?: AbortSignal | undefined },
): MooringError {
  if (err instanceof MooringError) return err;
  const where = `${ctx.server}/${ctx.tool}`;
  // The SDK reports a caller's abort as a RequestTimeout; the signal tells them apart.
  if (ctx.signal?.aborted)
    return new MooringError('cancelled', `${where} was cancelled`, undefined, { cause: err });
  if (err instanceof SdkError) {
    // MCP 2026-07-28, "Multi-round-trip requests": the server kept answering input_required.
    if (err.code === SdkErrorCode.InputRequiredRoundsExceeded)
      return new MooringError(
        'protocol_error',
        `${where} still asked for more input after ${String((err.data as { rounds?: number } | undefined)?.rounds ?? 'several')} rounds of questions; Mooring stopped the call`,
        'Each round is a question for you; a tool that keeps asking is probably stuck. Try the call again, or report it to the server’s author.',
        { cause: err },
      );
    if (err.code === SdkErrorCode.CapabilityNotSupported && /input request/.test(err.message))
      return new MooringError(
        'usage',
        `${where} needs something Mooring does not offer here: ${err.message}`,
        'Sampling needs a model set up in Mooring; roots need a project folder.',
        { cause: err },
      );
    if (err.code === SdkErrorCode.RequestTimeout)
      return new MooringError(
        'timeout',
        `${where} did not answer within ${Math.round(ctx.timeoutMs / 1000)} s; the call was cancelled`,
        "Raise the server's timeout in its settings if this tool needs longer.",
        { cause: err },
      );
    if (
      err.code === SdkErrorCode.ConnectionClosed ||
      err.code === SdkErrorCode.NotConnected ||
      err.code === SdkErrorCode.SendFailed
    )
      return new MooringError(
        'transport_closed',
        `The connection to "${ctx.server}" broke while ${ctx.tool} was running; the call was not retried, since the tool may not be safe to run twice`,
        'Mooring is reconnecting; try the call again.',
        { cause: err },
      );
  }
  const tooLarge = messageTooLarge(err, ctx);
  if (tooLarge) return tooLarge;
  const network = networkFailure(err);
  if (network)
    return new MooringError(
      'transport_closed',
      `${where} could not reach the server "${ctx.server}": ${network}`,
      'The server may have stopped: Mooring is reconnecting to it (its card and Logs say how that goes). Start it again, then retry the call.',
      { cause: err },
    );
  if (err instanceof ProtocolError)
    return new MooringError(
      'protocol_error',
      `${where}: the server answered with error ${err.code}: ${err.message}`,
      undefined,
      { cause: err },
    );
  const e = err as Error;
  if (e?.name === 'AbortError' || /aborted/i.test(e?.message ?? ''))
    return new MooringError('cancelled', `${where} was cancelled`, undefined, { cause: err });
  return new MooringError('internal', `${where} failed: ${e?.message ?? String(err)}`, undefined, {
    cause: err,
  });
}

/** `err` with every known secret masked; the unmasked original is not kept as its cause. */
export function redactError(err: MooringError, redact?: (text: string) => string): MooringError {
  if (!redact) return err;
  const message = redact(err.message);
  const hint = err.hint === undefined ? undefined : redact(err.hint);
  if (message === err.message && hint === err.hint) return err;
  return new MooringError(err.code, message, hint);
}

/**
 * A failed request other than a tool call, as a MooringError: a feature the server does not offer
 * (`usage`), the server's own JSON-RPC error (`protocol_error`, the wire error kept as the cause), else
 * what callError says about timeouts, cancellation and broken connections.
 */
export function requestError(
  err: unknown,
  ctx: { server: string; what: string; timeoutMs: number; signal?: AbortSignal | undefined },
): MooringError {
  if (err instanceof MooringError) return err;
  if (
    !ctx.signal?.aborted &&
    err instanceof SdkError &&
    err.code === SdkErrorCode.CapabilityNotSupported &&
    !/input request/.test(err.message)
  )
    return new MooringError(
      'usage',
      `"${ctx.server}" does not support ${ctx.what}.`,
      'This server does not offer it; nothing to do in Mooring.',
      { cause: err },
    );
  // Over Mooring's own limit (a view's resource, a large read): said as Mooring's, with the setting. A view's
  // resource is held to the limit like any answer (docs/decisions/011-view-resource-size.md).
  const tooLarge = messageTooLarge(err, ctx);
  if (tooLarge) return tooLarge;
  if (!ctx.signal?.aborted && err instanceof ProtocolError)
    return new MooringError(
      'protocol_error',
      `${ctx.server}: ${ctx.what} failed with error ${err.code}: ${err.message}`,
      'Check the name and arguments; the server rejected them.',
      { cause: err },
    );
  return callError(err, { ...ctx, tool: ctx.what });
}

/** The server's JSON-RPC error behind `err` (itself, or anywhere in its cause chain), if there is one. */
export function wireErrorOf(err: unknown): ProtocolError | undefined {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause)
    if (e instanceof ProtocolError) return e;
  return undefined;
}

/** Never sent on the wire: marks a request the server answered with a task (2026-07-28; requestHandler.ts). */
export const TASK_CREATED_CODE = -32099;
export const TASK_CREATED_MARK = 'mooring:taskCreated';

/** The task a 2026-07-28 server answered a request with, when `err` says so (requestHandler.ts). */
export function createdTaskOf(err: unknown): Record<string, unknown> | undefined {
  const e = wireErrorOf(err);
  if (e?.code !== TASK_CREATED_CODE) return undefined;
  const task = (e.data as Record<string, unknown> | undefined)?.[TASK_CREATED_MARK];
  return task && typeof task === 'object' ? (task as Record<string, unknown>) : undefined;
}

function safeOrigin(url: string | undefined): string {
  try {
    return new URL(url!).origin;
  } catch {
    return String(url);
  }
}
function pathOf(url: string | undefined): string {
  try {
    return new URL(url!).pathname;
  } catch {
    return '';
  }
}
