// The connection of one session (docs/sessions.md, "Session actor states"): one connect attempt — the
// safety checks and secrets (`prepare`), the transport of the server's kind (a remote one dialled through the
// SSRF guard, transportFactory.ts), the handshake through the request handler with the era probe — and,
// after a break, the reconnect loop with bounded backoff. The session actor owns the state; this decides
// when it changes.
import {
  StreamableHTTPClientTransport,
  type ClientCapabilities,
  type Transport,
} from '@modelcontextprotocol/client';
import { describeCommandLine } from '@shared/commandLine';
import { isRemoteServer, type RemoteServerConfig, type ServerConfig } from '@shared/config';
import { splitErrorDetails, STDERR_TAIL_MARKER, type ErrorData } from '@shared/errors';
import type { SessionState } from '@shared/session';
import { isLocalTransport } from '@shared/transports';
import { MooringError } from '../errors';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff';
import type { Keepalive } from './keepalive';
import { closedDuringProbe, type EraVerdict } from './protocolEra';
import type { RequestHandler } from './requestHandler';
import type { DialGuard } from './serverDial';
import { connectError, networkFailure, redactError } from './sessionErrors';
import type { SessionLog } from './sessionLog';
import { stderrHeadline } from './stderrHeadline';
import { StdioTransport } from './stdioTransport';
import {
  createTransport,
  type TransportAuth,
  type TransportFactory,
  type TransportHooks,
} from './transportFactory';
import type { ClientHandlers, ServerRequests } from './types';

export const CONNECT_TIMEOUT_MS = 30_000;
/** How long a ping may take when a network failure makes the connection suspect. */
const SUSPECT_PING_MS = 5_000;

/** How a session connects (the connection's part of SessionActorOptions). */
export interface ConnectionOptions {
  transportFactory?: TransportFactory;
  /** Runs before every connect: safety checks and secret resolution. Throws a MooringError to refuse. */
  prepare?: (config: ServerConfig, ctx: { warn: (text: string) => void }) => Promise<ServerConfig>;
  /** The SSRF guard a remote server is dialled through (safety's, wired by the root; serverDial.ts). */
  guardFor?: (config: RemoteServerConfig) => DialGuard;
  /** OAuth for a remote server: the auth provider its transport uses, from core/auth. */
  authProviderFor?: (config: ServerConfig) => TransportAuth | undefined;
  capabilities?: ClientCapabilities;
  /** What the server may ask of Mooring, registered on each new connection (so it survives reconnects). */
  clientHandlers?: (server: string, session: ServerRequests) => ClientHandlers;
  connectTimeoutMs?: number;
  /** A stdio server's close stages, shorter for hosts whose user waits on the close (TransportHooks). */
  closeStageMs?: number;
  backoff?: BackoffPolicy;
  /** Masks every known secret in the errors a connect throws (SecretRedactor.redact). */
  redact?: (text: string) => string;
}

/** The session as its connection sees it (SessionActor). */
export interface ConnectionHost {
  readonly name: string;
  readonly config: ServerConfig;
  readonly requests: RequestHandler;
  readonly log: SessionLog;
  readonly keepalive: Keepalive;
  state(): SessionState;
  setState(state: SessionState, error?: ErrorData): void;
  /** The names of the tools listed now. */
  tools(): string[];
  /** A reconnect succeeded. */
  reconnected(): void;
}

export class SessionConnection {
  readonly backoff: BackoffPolicy;
  /** Reconnect attempts since the last stable session. */
  attempt = 0;
  connectMs?: number;
  private generation = 0;
  private readySince = 0;
  private transport?: Transport;
  /** How the last connect found the server's era; reconnects adopt it instead of probing (protocolEra.ts). */
  private verdict?: EraVerdict;
  private reconnectTimer?: NodeJS.Timeout;

  constructor(
    private readonly host: ConnectionHost,
    private readonly opts: ConnectionOptions,
  ) {
    this.backoff = opts.backoff ?? DEFAULT_BACKOFF;
  }

  get timeoutMs(): number {
    return this.opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  }

  /** The process id of a stdio server's child, while connected. */
  get pid(): number | undefined {
    return this.transport instanceof StdioTransport ? this.transport.pid : undefined;
  }

  /** The Streamable HTTP session id, while connected over Streamable HTTP. */
  get httpSessionId(): string | undefined {
    return this.transport instanceof StreamableHTTPClientTransport ? this.transport.sessionId : undefined;
  }

  /** One connect attempt; the session is ready when it resolves. Throws a typed, redacted error. */
  async connect(): Promise<void> {
    const { host } = this;
    const gen = ++this.generation;
    const started = performance.now();
    if (host.state() !== 'reconnecting') host.setState('connecting');
    host.log.host('info', `starting: ${describeCommandLine(host.config)}`);
    host.keepalive.begin();
    let transport: Transport | undefined;
    try {
      const prepared = this.opts.prepare
        ? await this.opts.prepare(host.config, { warn: (t) => host.log.host('warning', t) })
        : host.config;
      const hooks = this.hooks();
      transport = await (this.opts.transportFactory ?? createTransport)(prepared, hooks);
      try {
        await this.handshake(transport, gen);
      } catch (err) {
        if (!(isLocalTransport(host.config.transport) && closedDuringProbe(err)) || gen !== this.generation)
          throw err;
        // A 2025 server that exits on any request before initialize: start it again for the handshake.
        host.log.host(
          'info',
          'the server exited on the protocol probe; starting it again with the 2025 handshake',
        );
        await host.requests.disconnect();
        this.verdict = { kind: 'legacy' };
        transport = await (this.opts.transportFactory ?? createTransport)(prepared, hooks);
        await this.handshake(transport, gen);
      }
      if (gen !== this.generation) {
        await host.requests.disconnect();
        throw new MooringError('transport_closed', `The session to "${host.name}" is closed`);
      }
      this.transport = transport;
      const negotiated = host.requests.negotiated();
      const info = negotiated?.serverInfo;
      const how = `${negotiated?.era === 'modern' ? 'server/discover' : 'initialize handshake'}${this.verdict ? ', as last time' : ''}`;
      const pid = this.pid;
      host.log.host(
        'info',
        `handshake done in ${Math.round(performance.now() - started)} ms${pid ? ` (pid ${pid})` : ''}${info ? `: ${info.name} ${info.version}` : ''}, protocol ${negotiated?.protocolVersion ?? 'unknown'} (${how})`,
      );
      this.verdict = negotiated?.verdict;
      await host.keepalive.listTools();
      const names = host.tools();
      host.log.host(
        'info',
        `tools listed: ${names.length}${names.length ? ` (${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''})` : ''}`,
      );
      this.connectMs = Math.round(performance.now() - started);
      this.readySince = Date.now();
      host.log.markReady();
      host.setState('ready');
      host.keepalive.start({
        remote: isRemoteServer(host.config),
        modern: negotiated?.era === 'modern',
      });
    } catch (err) {
      this.verdict = undefined; // maybe stale (the server changed): the next attempt probes again
      // Whether the process had exited on its own: read before closing, since closing makes it exit.
      const exit = transport instanceof StdioTransport ? transport.exit : undefined;
      if (gen === this.generation) {
        this.transport = undefined;
        // The handshake's connection, failed or not (RequestHandler.connect), closes its transport.
        if (host.requests.connected) await host.requests.disconnect();
        else await transport?.close().catch(() => undefined);
      }
      throw redactError(
        connectError(err, {
          config: host.config,
          stderrTail: host.log.stderrTail(),
          exit,
          timeoutMs: this.timeoutMs,
        }),
        this.opts.redact,
      );
    }
  }

  /** The connection broke (the client's onclose); `gen` is the connection's generation. */
  private broken(gen: number): void {
    const { host } = this;
    if (gen !== this.generation || host.state() === 'closed') return;
    this.stop();
    this.transport = undefined;
    host.requests.forget();
    if (host.state() !== 'ready') return; // a failing connect attempt reports through its own promise
    if (Date.now() - this.readySince >= this.backoff.stableMs) this.attempt = 0; // stable: fresh budget
    const recent = host.log.recentStderr();
    // Only what the server wrote while this session was up: an older line (its start-up banner) is not
    // why it broke.
    // The headline is the line that reads like the reason (a FATAL over a notice, stderrHeadline.ts).
    const headline = stderrHeadline(recent);
    const error: ErrorData = {
      code: 'transport_closed',
      message: `The connection to "${host.name}" broke${headline ? `: ${headline}` : ''}${
        recent.length > 1 ? `${STDERR_TAIL_MARKER}${recent.join('\n')}` : ''
      }`,
    };
    host.log.host('warning', 'connection lost; reconnecting');
    this.reconnectLoop(error);
  }

  private reconnectLoop(error: ErrorData): void {
    const { host } = this;
    if (host.state() === 'closed') return;
    if (this.attempt >= this.backoff.maxAttempts) {
      // The card says it gave up, not only the Logs: the last attempt's error, then that no more follow.
      const gaveUp = `gave up after ${this.backoff.maxAttempts} reconnect attempts`;
      const { summary, details } = splitErrorDetails(error.message);
      const tried = this.backoff.maxAttempts > 0;
      host.setState(
        'failed',
        tried
          ? { ...error, message: `${summary} (${gaveUp})${details ? `${STDERR_TAIL_MARKER}${details}` : ''}` }
          : error,
      );
      if (tried) host.log.host('error', gaveUp);
      return;
    }
    this.attempt++;
    host.setState('reconnecting', error);
    const attempt = () =>
      this.connect().then(
        () => {
          host.reconnected();
          host.log.host('info', `reconnected (attempt ${this.attempt})`);
        },
        (err: MooringError) => {
          if (host.state() === 'closed') return;
          host.log.host('warning', `reconnect attempt ${this.attempt} failed: ${err.message.split('\n')[0]}`);
          this.reconnectLoop(err.toData());
        },
      );
    // The first attempt starts now, not on a timer (backoff.ts): requests wait on this session meanwhile.
    const delay = backoffDelay(this.backoff, this.attempt);
    if (delay === 0) void attempt();
    else this.reconnectTimer = setTimeout(() => void attempt(), delay);
  }

  /** Whether a ping is already checking on the connection of this generation. */
  private suspected = -1;

  /** A network failure was seen: a ping with a short timeout, and a dead connection is dropped (reconnect). */
  private suspect(gen: number): void {
    const { host } = this;
    if (gen !== this.generation || this.suspected === gen || host.state() !== 'ready') return;
    this.suspected = gen;
    host.requests.ping({ timeoutMs: SUSPECT_PING_MS }).then(
      () => {
        if (this.suspected === gen) this.suspected = -1;
      },
      (err: Error) => {
        if (gen !== this.generation || host.state() !== 'ready') return;
        host.log.host(
          'warning',
          `the server stopped answering (${networkFailure(err) ?? err.message}); reconnecting`,
        );
        this.drop();
      },
    );
  }

  /** Ends the current connection's loose ends: a pending reconnect, the keepalive and what it started. */
  stop(): void {
    clearTimeout(this.reconnectTimer);
    this.host.keepalive.end();
  }

  /** The session closes: no connection is current any more, and the one held is closed. */
  async close(): Promise<void> {
    this.stop();
    this.generation++;
    this.transport = undefined;
    await this.host.requests.disconnect();
  }

  /** Closing the transport routes through the client's onclose → the reconnect loop. */
  drop(): void {
    void this.transport?.close();
  }

  /** App exit without time for staged shutdown. */
  killNow(): void {
    if (this.transport instanceof StdioTransport) this.transport.killNow();
  }

  private async handshake(transport: Transport, gen: number): Promise<void> {
    const { host } = this;
    await host.requests.connect({
      transport: host.log.traced(transport),
      capabilities: this.opts.capabilities ?? {},
      stdio: isLocalTransport(host.config.transport),
      timeoutMs: this.timeoutMs,
      ...(this.verdict ? { prior: this.verdict } : {}),
      handlers: this.opts.clientHandlers?.(host.name, host.requests) ?? {},
      onToolsListChanged: () => host.keepalive.scheduleRefresh(),
      onServerLog: (l) => host.log.add({ source: 'server', ...l }),
      onClose: () => this.broken(gen),
      onError: (e) => {
        host.log.host('debug', `transport: ${e.message}`);
        // A remote server that stopped: its event stream breaks, or a request finds nobody there. The
        // SDK keeps retrying the stream quietly; one ping says at once whether the server still answers.
        if (!isLocalTransport(host.config.transport) && networkFailure(e)) this.suspect(gen);
      },
    });
  }

  private hooks(): TransportHooks {
    const { host } = this;
    const config = host.config;
    const remote = isRemoteServer(config);
    const guard = remote ? this.opts.guardFor?.(config) : undefined;
    const auth = remote ? this.opts.authProviderFor?.(config) : undefined;
    return {
      onStderr: (text) => host.log.add({ source: 'stderr', level: 'info', text }),
      onGarbage: (g) =>
        host.log.host(
          'warning',
          g.reason === 'oversized'
            ? `Dropped a ${g.bytes}-byte message from the server: over the ${config.maxMessageMB} MB limit for one line`
            : `The server wrote a line that is not JSON-RPC to stdout (ignored): ${g.sample}`,
        ),
      ...(guard ? { guard } : {}),
      ...(auth ? { auth } : {}),
      ...(this.opts.closeStageMs !== undefined ? { closeStageMs: this.opts.closeStageMs } : {}),
    };
  }
}
