// One persistent session per server (docs/sessions.md, "Session actor states"):
// idle → connecting → ready ⇄ reconnecting → failed | closed.
// The actor alone mutates its state. Its parts each do one job: the connection connects and reconnects
// with bounded backoff (sessionConnection.ts), the request handler holds the SDK client and sends every
// request (requestHandler.ts), the keepalive keeps the tool list fresh (keepalive.ts), the log keeps what
// the Logs view shows (sessionLog.ts). Requests run concurrently on a ready session; a break fails the
// requests in flight explicitly; tool handles survive reconnects.
import { EventEmitter } from 'node:events';
import type { LoggingLevel, ProtocolEra } from '@modelcontextprotocol/client';
import type { ServerConfig } from '@shared/config';
import { splitErrorDetails, type ErrorData } from '@shared/errors';
import type { LogLine, SessionState, SessionStatus } from '@shared/session';
import { DisposableStore, listen, timer, toDisposable } from '../disposable';
import { MooringError } from '../errors';
import { Keepalive, KEEPALIVE_MS } from './keepalive';
import { SessionMetrics } from './metrics';
import { MOORING_CLIENT_INFO, RequestHandler } from './requestHandler';
import {
  type ConnectionHost,
  type ConnectionOptions,
  CONNECT_TIMEOUT_MS,
  SessionConnection,
} from './sessionConnection';
import { SessionLog } from './sessionLog';
import { resumeHttpSession } from './sessionResume';
import { ToolRegistry } from './toolRegistry';
import type {
  CallOptions,
  CallToolResult,
  ResumedSession,
  ServerRequests,
  SessionEvents,
  Tool,
  ToolHandle,
} from './types';

export { CONNECT_TIMEOUT_MS, KEEPALIVE_MS, MOORING_CLIENT_INFO };

export interface SessionActorOptions extends ConnectionOptions {
  config: ServerConfig;
  keepaliveMs?: number;
  /**
   * Masks every known secret (SecretRedactor.redact) in what leaves the session: log lines (stderr and the
   * server's own), status errors, and the errors connects and requests throw.
   */
  redact?: (text: string) => string;
}

const stripped = new WeakMap<Tool, Tool>();
/** A definition without its outputSchema, one copy per definition (not one per call). */
function withoutOutputSchema(definition: Tool): Tool {
  let d = stripped.get(definition);
  if (!d) {
    d = { ...definition, outputSchema: undefined };
    stripped.set(definition, d);
  }
  return d;
}

export class SessionActor extends EventEmitter {
  readonly name: string;
  /** The server's config; filter and policy edits replace it in place (reconfigure), nothing else does. */
  config: ServerConfig;
  /** Every request to the server, for the rooms above (tools, prompts, resources, tasks, views, …). */
  readonly requests: ServerRequests;
  readonly metrics = new SessionMetrics();
  private state: SessionState = 'idle';
  private lastError?: ErrorData;
  private readonly handler: RequestHandler;
  private readonly log: SessionLog;
  private readonly keepalive: Keepalive;
  private readonly connection: SessionConnection;
  /** The resources the user subscribed to, for a 2026-07-28 session's change stream. */
  private readonly watched = new Set<string>();
  /** A 2026-07-28 server's log level travels with each request (MCP 2026-07-28, "Logging"). */
  private requestLogLevel?: LoggingLevel;
  private closing?: Promise<void>;
  private connecting?: Promise<void>;
  private readonly registry: ToolRegistry;

  constructor(private readonly opts: SessionActorOptions) {
    super();
    this.config = opts.config;
    this.name = opts.config.name;
    this.log = new SessionLog({ server: this.name, redact: opts.redact, onLine: (l) => this.emit('log', l) });
    this.handler = new RequestHandler({
      server: this.name,
      timeoutMs: () => this.config.timeoutSeconds * 1000,
      isReady: () => this.state === 'ready',
      whenReady: (timeoutMs, signal) => this.whenReady(timeoutMs, signal),
      metrics: this.metrics,
      requestLogLevel: () => this.requestLogLevel,
      // Our own definition (as listed leniently), without outputSchema: the catalog validates
      // structuredContent and reports a mismatch as a note instead of failing the call.
      toolDefinition: (name) => {
        const definition = this.registry.get(name)?.definition;
        return definition && withoutOutputSchema(definition);
      },
      ...(opts.redact ? { redact: opts.redact } : {}),
    });
    this.requests = this.handler;
    this.registry = new ToolRegistry(this.name, (tool, args, o) => this.callTool(tool, args, o));
    this.keepalive = new Keepalive({
      requests: this.handler,
      log: this.log,
      keepaliveMs: opts.keepaliveMs ?? KEEPALIVE_MS,
      listenTimeoutMs: opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      applyTools: (tools) => this.applyTools(tools),
      dropConnection: () => this.connection.drop(),
      watched: () => [...this.watched],
      isReady: () => this.state === 'ready',
    });
    this.connection = new SessionConnection(this.connectionHost(), opts);
  }

  override on<E extends keyof SessionEvents>(event: E, listener: SessionEvents[E]): this {
    return super.on(event, listener);
  }

  /** The session's log (the Logs view). */
  get logs(): SessionLog['lines'] {
    return this.log.lines;
  }

  status(): SessionStatus {
    const s: SessionStatus = {
      name: this.name,
      state: this.state,
      toolCount: this.registry.active().length,
      metrics: this.metrics.snapshot(),
    };
    if (this.state === 'reconnecting') {
      s.attempt = this.connection.attempt;
      s.maxAttempts = this.connection.backoff.maxAttempts;
    }
    if (this.lastError && (this.state === 'failed' || this.state === 'reconnecting'))
      s.error = this.lastError;
    const negotiated = this.handler.negotiated();
    const info = negotiated?.serverInfo;
    // A server may echo a secret it was given in its name or version (redaction: safety/redact.ts).
    if (info) s.serverInfo = { name: this.redact(info.name), version: this.redact(info.version) };
    if (negotiated?.protocolVersion) s.protocolVersion = negotiated.protocolVersion;
    if (this.connection.connectMs !== undefined) s.connectMs = this.connection.connectMs;
    const pid = this.connection.pid;
    if (pid !== undefined) s.pid = pid;
    return s;
  }

  /** Takes a new tool filter or policy without touching the session (the pool checks nothing else changed). */
  reconfigure(config: ServerConfig): void {
    this.config = config;
    this.hostLog('info', 'tool filters or approval policy changed; the session goes on');
    this.emit('status', this.status());
  }

  /** Starts or stops recording the JSON-RPC traffic in the log (secrets masked like every line). */
  setTracing(on: boolean): void {
    this.log.setTracing(on);
  }

  get isTracing(): boolean {
    return this.log.isTracing;
  }

  /** The handles of the tools the server lists now; the same objects across reconnects. */
  tools(): ToolHandle[] {
    return this.registry.active();
  }

  tool(name: string): ToolHandle | undefined {
    return this.registry.get(name);
  }

  /**
   * A Streamable HTTP session's id and protocol version: a task created in it can be followed there
   * after Mooring restarts (resumeHttpSession), since Mooring never ends such a session itself.
   */
  httpSession(): { sessionId: string; protocolVersion: string } | undefined {
    const sessionId = this.connection.httpSessionId;
    const protocolVersion = this.handler.negotiated()?.protocolVersion;
    return sessionId && protocolVersion ? { sessionId, protocolVersion } : undefined;
  }

  /**
   * A session of its own on an earlier Streamable HTTP session of this server (MCP 2025-11-25
   * "Transports", Session Management: a request carrying its `Mcp-Session-Id` reaches that session), with
   * the same handlers, headers, SSRF guard, sign-in and request path as the live one. Tasks of a 2025
   * server may be bound to the session that created them; the caller closes it when done. Throws
   * `not_found` when the server answers that the session is gone.
   */
  resumeHttpSession(sessionId: string, protocolVersion: string): Promise<ResumedSession> {
    return resumeHttpSession({
      config: this.config,
      options: this.opts,
      sessionId,
      protocolVersion,
      log: this.log,
      metrics: this.metrics,
    });
  }

  /** The last stderr lines. */
  stderrTail(lines = 20): string {
    return this.log.stderrTail(lines);
  }

  /** Connects; resolves when ready, rejects with a typed error when the first connect fails. */
  start(): Promise<void> {
    if (this.state === 'closed') return Promise.reject(this.closedError());
    if (this.state === 'ready') return Promise.resolve();
    this.connecting ??= this.connection
      .connect()
      .then(() => {
        this.connection.attempt = 0;
      })
      .catch((err: MooringError) => {
        this.setState('failed', err.toData());
        // The Logs say why too (the card's "see Logs" leads here); the stderr lines are there already.
        const { summary } = splitErrorDetails(err.message);
        this.hostLog('error', `could not start: ${summary}${err.hint ? ` (${err.hint})` : ''}`);
        throw err;
      })
      .finally(() => {
        this.connecting = undefined;
      });
    return this.connecting;
  }

  /** Resolves when the connect under way ends, however it ends; at once when none is. */
  connectSettled(): Promise<void> {
    return (this.connecting ?? Promise.resolve()).then(
      () => undefined,
      () => undefined,
    );
  }

  /** One tool call, through the request handler. */
  callTool(name: string, args: Record<string, unknown>, opts: CallOptions = {}): Promise<CallToolResult> {
    return this.handler.callTool(name, args, opts);
  }

  /** The icons the server listed for itself (untrusted: safety/icons.ts makes them safe to show). */
  serverIcons(): { src: string; mimeType?: string; sizes?: string[] }[] | undefined {
    return this.handler.negotiated()?.serverInfo?.icons;
  }

  /** 'modern' for a 2026-07-28 session, 'legacy' for the 2025 handshake; undefined unless connected. */
  protocolEra(): ProtocolEra | undefined {
    return this.handler.negotiated()?.era;
  }

  /** The level a 2026-07-28 server logs at for Mooring's requests (a 2025 one is told by logging/setLevel). */
  setRequestLogLevel(level: LoggingLevel): void {
    this.requestLogLevel = level;
  }

  /**
   * The resources whose updates a 2026-07-28 session listens for: its change stream is opened again with
   * them (a 2025 session subscribes with resources/subscribe instead). Rejects when the server refuses.
   */
  async watchResources(uris: string[]): Promise<void> {
    this.watched.clear();
    for (const u of uris) this.watched.add(u);
    await this.keepalive.watch();
  }

  /** Re-lists tools now (the UI's Refresh). */
  async refreshTools(): Promise<void> {
    if (this.state !== 'ready') throw this.notReadyError();
    await this.keepalive.listTools();
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      const was = this.state;
      this.setState('closed');
      if (was === 'ready' || was === 'reconnecting') this.hostLog('info', 'closed');
      await this.connection.close();
    })();
    return this.closing;
  }

  /** App exit without time for staged shutdown. */
  killNow(): void {
    this.connection.killNow();
  }

  /** A line from the host about this server (state changes, safety notes), kept in its log. */
  hostLog(level: LogLine['level'], text: string): void {
    this.log.host(level, text);
  }

  // ---- internals -------------------------------------------------------------------------------

  private connectionHost(): ConnectionHost {
    // `config` is read live: a filter edit replaces it in place (reconfigure).
    const config = () => this.config;
    return {
      name: this.name,
      get config() {
        return config();
      },
      requests: this.handler,
      log: this.log,
      keepalive: this.keepalive,
      state: () => this.state,
      tools: () => this.registry.active().map((t) => t.name),
      setState: (state, error) => this.setState(state, error),
      reconnected: () => void this.metrics.reconnects++,
    };
  }

  /** `text` with every known secret masked (the root's SecretRedactor), as it may leave the session. */
  private redact(text: string): string {
    return this.opts.redact ? this.opts.redact(text) : text;
  }

  private applyTools(listed: Tool[]): void {
    // A secret a server echoes in a tool's title or description reaches no screen, terminal or model.
    const tools = listed.map((t) => {
      const title = t.title === undefined ? undefined : this.redact(t.title);
      const description = t.description === undefined ? undefined : this.redact(t.description);
      return title === t.title && description === t.description ? t : { ...t, title, description };
    });
    const change = this.registry.apply(tools);
    if (change.added.length || change.removed.length || change.changed.length) {
      if (this.state === 'ready' || this.state === 'reconnecting')
        this.hostLog(
          'info',
          `tools changed: ${[...change.added.map((t) => `+${t}`), ...change.removed.map((t) => `-${t}`), ...change.changed.map((t) => `~${t}`)].join(' ')}`,
        );
      this.emit('tools', change);
    }
  }

  /** Waits through connecting/reconnecting; a failed session gets one fresh connect on demand. */
  private async whenReady(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.state === 'ready') return;
    if (this.state === 'closed') throw this.closedError();
    if (this.state === 'failed' || this.state === 'idle') {
      this.connection.attempt = 0;
      return this.start();
    }
    return new Promise<void>((resolve, reject) => {
      const wait = new DisposableStore();
      const done = (fn: () => void) => {
        void wait.dispose();
        fn();
      };
      wait.add(
        listen(this, 'status', (s: SessionStatus) => {
          if (s.state === 'ready') done(resolve);
          else if (s.state === 'failed' || s.state === 'closed') done(() => reject(this.notReadyError()));
        }),
      );
      const late = new MooringError(
        'timeout',
        `"${this.name}" did not come back within ${Math.round(timeoutMs / 1000)} s`,
        'Open its Logs to see why it keeps failing.',
      );
      wait.add(timer(setTimeout(() => done(() => reject(late)), timeoutMs)));
      if (!signal) return;
      const onAbort = () =>
        done(() => reject(new MooringError('cancelled', `The call to ${this.name} was cancelled`)));
      signal.addEventListener('abort', onAbort, { once: true });
      wait.add(toDisposable(() => signal.removeEventListener('abort', onAbort)));
    });
  }

  private setState(state: SessionState, error?: ErrorData): void {
    this.state = state;
    if (error) this.lastError = error;
    else if (state === 'ready') this.lastError = undefined;
    if (state === 'closed' || state === 'failed') this.keepalive.end();
    this.emit('status', this.status());
  }

  private closedError(): MooringError {
    return new MooringError('transport_closed', `The session to "${this.name}" is closed`);
  }

  private notReadyError(): MooringError {
    const why = this.lastError?.message;
    return new MooringError(
      this.lastError?.code === 'untrusted_command' ? 'untrusted_command' : 'connect_failed',
      `"${this.name}" is not connected (${this.state})${why ? `: ${why}` : ''}`,
      this.lastError?.hint ?? 'Open the server in Settings > Tools > MCP and press Test to see what fails.',
    );
  }
}
