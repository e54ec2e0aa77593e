// One persistent session per server (ARCHITECTURE.md, "Session actor states"):
// idle → connecting → ready ⇄ reconnecting → failed | closed.
// The actor alone mutates its state. Calls run concurrently on a ready session; a break fails the
// calls in flight explicitly and reconnects with bounded backoff; tool handles survive reconnects.
import { EventEmitter } from 'node:events';
import {
  StreamableHTTPClientTransport,
  LOG_LEVEL_META_KEY,
  type CallToolRequestOptions,
  type Client,
  type ClientCapabilities,
  type LoggingLevel,
  type ProtocolEra,
  type Transport,
} from '@modelcontextprotocol/client';
import { describeCommandLine } from '@shared/commandLine';
import type { ServerConfig } from '@shared/config';
import { MAX_TIMEOUT_SECONDS } from '@shared/config';
import type { ErrorData } from '@shared/errors';
import type { LogLine, SessionState, SessionStatus } from '@shared/session';
import { MooringError } from '../errors';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff';
import { ChangeStream } from './changeStream';
import { SessionMetrics } from './metrics';
import { clientOptions, closedDuringProbe, verdictOf, type EraVerdict } from './protocolEra';
import { RingBuffer } from './ringBuffer';
import { callError, connectError } from './sessionErrors';
import { StdioTransport } from './stdioTransport';
import { resumeHttpSession } from './sessionResume';
import { MOORING_CLIENT_INFO, MooringClient } from './taskClient';
import { tracedTransport, traceText } from './trafficTrace';
import { ToolRegistry } from './toolRegistry';
import { listToolsLeniently } from './toolsList';
import { createTransport, type TransportFactory, type TransportHooks } from './transportFactory';
import type { CallOptions, CallToolResult, SessionEvents, Tool, ToolHandle } from './types';

export { MOORING_CLIENT_INFO };
export const KEEPALIVE_MS = 180_000;
export const CONNECT_TIMEOUT_MS = 30_000;
const HARD_CAP_MS = MAX_TIMEOUT_SECONDS * 1000;

export interface SessionActorOptions {
  config: ServerConfig;
  transportFactory?: TransportFactory;
  /** Runs before every connect: safety checks and secret resolution. Throws a MooringError to refuse. */
  prepare?: (config: ServerConfig, ctx: { warn: (text: string) => void }) => Promise<ServerConfig>;
  /** The fetch a remote transport uses (the SSRF guard's, pinned to the checked addresses). */
  fetchFor?: (config: ServerConfig) => TransportHooks['fetch'];
  /** OAuth for a remote server: the auth provider its transport uses, from core/auth. */
  authProviderFor?: (config: ServerConfig) => TransportHooks['auth'];
  backoff?: BackoffPolicy;
  keepaliveMs?: number;
  connectTimeoutMs?: number;
  capabilities?: ClientCapabilities;
  /** Registers server→client handlers (sampling, elicitation, roots) on each new Client. */
  configureClient?: (client: Client, server: string) => void;
  /**
   * Masks every known secret (SecretRedactor.redact) in what leaves the session: log lines (stderr and the
   * server's own), status errors, and the errors connects and calls throw.
   */
  redact?: (text: string) => string;
  /** A stdio server's close stages, shorter for hosts whose user waits on the close (TransportHooks). */
  closeStageMs?: number;
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
  private state: SessionState = 'idle';
  private client?: MooringClient;
  private transport?: Transport;
  private generation = 0;
  private attempt = 0;
  private readySince = 0;
  /**
   * The last stderr lines written since the session became ready (redacted). Kept by order of arrival,
   * not by timestamp: a start-up banner written in the same millisecond as the handshake's end is not
   * part of a later break's reason.
   */
  private stderrSinceReady: string[] = [];
  private connectMs?: number;
  /** Record every JSON-RPC message to and from the server in its log (the Logs view's switch). */
  private tracing = false;
  private lastError?: ErrorData;
  private reconnectTimer?: NodeJS.Timeout;
  private keepaliveTimer?: NodeJS.Timeout;
  private refreshTimer?: NodeJS.Timeout;
  private ttlTimer?: NodeJS.Timeout;
  /** How the last connect found the server's era; reconnects adopt it instead of probing (protocolEra.ts). */
  private verdict?: EraVerdict;
  private changes?: ChangeStream;
  /** The resources the user subscribed to, for a 2026-07-28 session's change stream. */
  private readonly watched = new Set<string>();
  /** A 2026-07-28 server's log level travels with each request (MCP 2026-07-28, "Logging"). */
  private requestLogLevel?: LoggingLevel;
  private closing?: Promise<void>;
  private connecting?: Promise<void>;
  private readonly registry: ToolRegistry;
  readonly metrics = new SessionMetrics();
  readonly logs = new RingBuffer<LogLine>(1000);
  private readonly backoff: BackoffPolicy;

  constructor(private readonly opts: SessionActorOptions) {
    super();
    this.config = opts.config;
    this.name = opts.config.name;
    this.backoff = opts.backoff ?? DEFAULT_BACKOFF;
    this.registry = new ToolRegistry(this.name, (tool, args, o) => this.callTool(tool, args, o));
  }

  override on<E extends keyof SessionEvents>(event: E, listener: SessionEvents[E]): this {
    return super.on(event, listener);
  }

  status(): SessionStatus {
    const s: SessionStatus = {
      name: this.name,
      state: this.state,
      toolCount: this.registry.active().length,
      metrics: this.metrics.snapshot(),
    };
    if (this.state === 'reconnecting') {
      s.attempt = this.attempt;
      s.maxAttempts = this.backoff.maxAttempts;
    }
    if (this.lastError && (this.state === 'failed' || this.state === 'reconnecting'))
      s.error = this.lastError;
    const info = this.client?.getServerVersion();
    if (info) s.serverInfo = { name: info.name, version: info.version };
    const pv = this.client?.getNegotiatedProtocolVersion();
    if (pv) s.protocolVersion = pv;
    if (this.connectMs !== undefined) s.connectMs = this.connectMs;
    const pid = this.transport instanceof StdioTransport ? this.transport.pid : undefined;
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
    if (on === this.tracing) return;
    this.tracing = on;
    this.hostLog('info', on ? 'recording JSON-RPC traffic' : 'stopped recording JSON-RPC traffic');
  }

  get isTracing(): boolean {
    return this.tracing;
  }

  /** The handles of the tools the server lists now; the same objects across reconnects. */
  tools(): ToolHandle[] {
    return this.registry.active();
  }

  tool(name: string): ToolHandle | undefined {
    return this.registry.get(name);
  }

  /** The live SDK client, for prompts, resources, tasks and the rest (undefined unless ready). */
  sdkClient(): MooringClient | undefined {
    return this.state === 'ready' ? this.client : undefined;
  }

  /**
   * A Streamable HTTP session's id and protocol version: a task created in it can be followed there
   * after Mooring restarts (resumeHttpSession), since Mooring never ends such a session itself.
   */
  httpSession(): { sessionId: string; protocolVersion: string } | undefined {
    const t = this.transport;
    const version = this.client?.getNegotiatedProtocolVersion();
    if (!(t instanceof StreamableHTTPClientTransport) || !t.sessionId || !version) return undefined;
    return { sessionId: t.sessionId, protocolVersion: version };
  }

  /**
   * A second client on an earlier Streamable HTTP session of this server (MCP 2025-11-25 "Transports",
   * Session Management: a request carrying its `Mcp-Session-Id` reaches that session), with the same
   * handlers, headers, SSRF guard and sign-in as the live one. Tasks of a 2025 server may be bound to the
   * session that created them; the caller closes the client when done. Throws `not_found` when the
   * server answers that the session is gone.
   */
  resumeHttpSession(sessionId: string, protocolVersion: string): Promise<MooringClient> {
    return resumeHttpSession({
      config: this.config,
      options: this.opts,
      sessionId,
      protocolVersion,
      log: (level, text) => this.hostLog(level, text),
    });
  }

  /** The last stderr lines. */
  stderrTail(lines = 20): string {
    return this.logs
      .toArray()
      .filter((l) => l.source === 'stderr')
      .slice(-lines)
      .map((l) => l.text)
      .join('\n');
  }

  /** Connects; resolves when ready, rejects with a typed error when the first connect fails. */
  start(): Promise<void> {
    if (this.state === 'closed') return Promise.reject(this.closedError());
    if (this.state === 'ready') return Promise.resolve();
    this.connecting ??= this.connectOnce()
      .then(() => {
        this.attempt = 0;
      })
      .catch((err: MooringError) => {
        this.lastError = err.toData();
        this.setState('failed');
        throw err;
      })
      .finally(() => {
        this.connecting = undefined;
      });
    return this.connecting;
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    opts: CallOptions = {},
  ): Promise<CallToolResult> {
    const timeoutMs = Math.min(opts.timeoutMs ?? this.config.timeoutSeconds * 1000, HARD_CAP_MS);
    const started = performance.now();
    try {
      const client =
        this.state === 'ready' && this.client ? this.client : await this.readyClient(timeoutMs, opts.signal);
      const definition = this.registry.get(name)?.definition;
      const options: CallToolRequestOptions = {
        timeout: timeoutMs,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: HARD_CAP_MS,
      };
      // Our own definition (as listed leniently), without outputSchema: the catalog validates
      // structuredContent and reports a mismatch as a note instead of failing the call.
      if (definition) options.toolDefinition = withoutOutputSchema(definition);
      if (opts.signal) options.signal = opts.signal;
      if (opts.onProgress) options.onprogress = opts.onProgress;
      // A 2026-07-28 server's log level travels with each request (MCP 2026-07-28, "Logging").
      const meta =
        this.requestLogLevel && client.getProtocolEra() === 'modern'
          ? { _meta: { [LOG_LEVEL_META_KEY]: this.requestLogLevel } }
          : {};
      const result = (await client.callTool({ name, arguments: args, ...meta }, options)) as CallToolResult;
      this.metrics.record(performance.now() - started, !result.isError);
      return result;
    } catch (err) {
      this.metrics.record(performance.now() - started, false);
      throw this.redacted(callError(err, { server: this.name, tool: name, timeoutMs, signal: opts.signal }));
    }
  }

  /** The icons the server listed for itself (untrusted: safety/icons.ts makes them safe to show). */
  serverIcons(): { src: string; mimeType?: string; sizes?: string[] }[] | undefined {
    return this.client?.getServerVersion()?.icons;
  }

  /** 'modern' for a 2026-07-28 session, 'legacy' for the 2025 handshake; undefined unless connected. */
  protocolEra(): ProtocolEra | undefined {
    return this.client?.getProtocolEra();
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
    if (this.state === 'ready' && this.changes) await this.changes.open();
  }

  /** Re-lists tools now (the UI's Refresh). */
  async refreshTools(): Promise<void> {
    const client = this.sdkClient();
    if (!client) throw this.notReadyError();
    await this.loadTools(client, this.generation);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      const was = this.state;
      this.setState('closed');
      this.clearTimers();
      if (was === 'ready' || was === 'reconnecting') this.hostLog('info', 'closed');
      const client = this.client;
      this.client = undefined;
      this.transport = undefined;
      this.generation++;
      await client?.close().catch(() => undefined);
    })();
    return this.closing;
  }

  /** App exit without time for staged shutdown. */
  killNow(): void {
    if (this.transport instanceof StdioTransport) this.transport.killNow();
  }

  // ---- internals -------------------------------------------------------------------------------

  private async connectOnce(): Promise<void> {
    const gen = ++this.generation;
    const started = performance.now();
    if (this.state !== 'reconnecting') this.setState('connecting');
    this.hostLog('info', `starting: ${describeCommandLine(this.config)}`);
    let transport: Transport | undefined;
    let client: MooringClient | undefined;
    try {
      const prepared = this.opts.prepare
        ? await this.opts.prepare(this.config, { warn: (t) => this.hostLog('warning', t) })
        : this.config;
      const fetch = this.config.transport === 'stdio' ? undefined : this.opts.fetchFor?.(this.config);
      const auth = this.config.transport === 'stdio' ? undefined : this.opts.authProviderFor?.(this.config);
      const open = async () =>
        (this.opts.transportFactory ?? createTransport)(prepared, {
          onStderr: (t) => this.onStderr(t),
          onGarbage: (g) =>
            this.hostLog(
              'warning',
              g.reason === 'oversized'
                ? `Dropped a ${g.bytes}-byte message from the server: over the ${prepared.maxMessageMB} MB limit for one line`
                : `The server wrote a line that is not JSON-RPC to stdout (ignored): ${g.sample}`,
            ),
          ...(fetch ? { fetch } : {}),
          ...(auth ? { auth } : {}),
          ...(this.opts.closeStageMs !== undefined ? { closeStageMs: this.opts.closeStageMs } : {}),
        });
      transport = await open();
      client = this.newClient(gen);
      try {
        await client.connect(this.traced(transport), this.connectOptions());
      } catch (err) {
        if (!(this.config.transport === 'stdio' && closedDuringProbe(err)) || gen !== this.generation)
          throw err;
        // A 2025 server that exits on any request before initialize: start it again for the handshake.
        this.hostLog(
          'info',
          'the server exited on the protocol probe; starting it again with the 2025 handshake',
        );
        client.onclose = undefined;
        await client.close().catch(() => undefined);
        this.verdict = { kind: 'legacy' };
        transport = await open();
        client = this.newClient(gen);
        await client.connect(this.traced(transport), this.connectOptions());
      }
      if (gen !== this.generation) {
        await client.close().catch(() => undefined);
        throw this.closedError();
      }
      this.client = client;
      this.transport = transport;
      const pid = transport instanceof StdioTransport ? transport.pid : undefined;
      const info = client.getServerVersion();
      const how = `${client.getProtocolEra() === 'modern' ? 'server/discover' : 'initialize handshake'}${this.verdict ? ', as last time' : ''}`;
      this.hostLog(
        'info',
        `handshake done in ${Math.round(performance.now() - started)} ms${pid ? ` (pid ${pid})` : ''}${info ? `: ${info.name} ${info.version}` : ''}, protocol ${client.getNegotiatedProtocolVersion() ?? 'unknown'} (${how})`,
      );
      this.verdict = verdictOf(client);
      await this.loadTools(client, gen);
      const names = this.registry.active().map((t) => t.name);
      this.hostLog(
        'info',
        `tools listed: ${names.length}${names.length ? ` (${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''})` : ''}`,
      );
      this.connectMs = Math.round(performance.now() - started);
      this.readySince = Date.now();
      this.stderrSinceReady = [];
      this.lastError = undefined;
      this.setState('ready');
      this.startKeepalive(gen);
      if (client.getProtocolEra() === 'modern') this.openChangeStream(client, gen);
    } catch (err) {
      this.verdict = undefined; // maybe stale (the server changed): the next attempt probes again
      // Whether the process had exited on its own: read before closing, since closing makes it exit.
      const exit = transport instanceof StdioTransport ? transport.exit : undefined;
      if (client) {
        client.onclose = undefined;
        await client.close().catch(() => undefined);
      } else await transport?.close().catch(() => undefined);
      if (gen === this.generation) this.client = undefined;
      throw this.redacted(
        connectError(err, {
          config: this.config,
          stderrTail: this.stderrTail(),
          exit,
          timeoutMs: this.opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
        }),
      );
    }
  }

  private newClient(gen: number): MooringClient {
    const client = new MooringClient(
      MOORING_CLIENT_INFO,
      clientOptions({
        capabilities: this.opts.capabilities ?? {},
        stdio: this.config.transport === 'stdio',
        connectTimeoutMs: this.opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      }),
    );
    client.setNotificationHandler('notifications/tools/list_changed', () => this.scheduleRefresh(gen));
    client.setNotificationHandler('notifications/message', (n) => {
      const p = n.params;
      const text = typeof p.data === 'string' ? p.data : JSON.stringify(p.data);
      this.log({ source: 'server', level: p.level, text: p.logger ? `[${p.logger}] ${text}` : text });
    });
    this.opts.configureClient?.(client, this.name);
    client.onclose = () => this.onBroken(gen);
    client.onerror = (e) => this.hostLog('debug', `transport: ${e.message}`);
    return client;
  }

  /** The transport, recording its JSON-RPC traffic in the log while the Logs view's switch is on. */
  private traced(transport: Transport): Transport {
    return tracedTransport(transport, (direction, message) => {
      if (this.tracing)
        this.log({ source: 'rpc', level: 'debug', text: `${direction} ${traceText(message)}` });
    });
  }

  private connectOptions() {
    return {
      timeout: this.opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      ...(this.verdict ? { prior: this.verdict } : {}),
    };
  }

  private openChangeStream(client: Client, gen: number): void {
    this.changes?.close();
    const changes = (this.changes = new ChangeStream({
      client,
      resources: () => [...this.watched],
      isCurrent: () => gen === this.generation && this.state === 'ready',
      onReopened: () => this.scheduleRefresh(gen),
      log: (level, text) => this.hostLog(level, text),
      timeoutMs: this.opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    }));
    changes.open().catch((e: Error) => {
      if (gen === this.generation) this.hostLog('warning', `could not listen for changes: ${e.message}`);
    });
  }

  private async loadTools(client: Client, gen: number): Promise<void> {
    // Capability negotiation: only list what the server advertises.
    if (!client.getServerCapabilities()?.tools) {
      this.applyTools([]);
      return;
    }
    const listing = await listToolsLeniently(client, {
      timeout: 30_000,
      warn: (t) => this.hostLog('warning', t),
    });
    this.applyTools(listing.tools);
    // A list that says how long it stays fresh is listed again when that time is up.
    clearTimeout(this.ttlTimer);
    if (listing.ttlMs === undefined) return;
    this.ttlTimer = setTimeout(() => this.scheduleRefresh(gen), listing.ttlMs);
    this.ttlTimer.unref?.();
  }

  private applyTools(tools: Parameters<ToolRegistry['apply']>[0]): void {
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

  private scheduleRefresh(gen: number): void {
    // Coalesce bursts of list_changed; calls in flight are untouched (handles update in place).
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      const client = this.client;
      if (gen !== this.generation || !client) return;
      this.loadTools(client, gen).catch((e: Error) =>
        this.hostLog('warning', `could not refresh tools: ${e.message}`),
      );
    }, 50);
  }

  private onBroken(gen: number): void {
    if (gen !== this.generation || this.state === 'closed') return;
    this.clearTimers();
    this.client = undefined;
    this.transport = undefined;
    const wasReady = this.state === 'ready';
    if (!wasReady) return; // a failing connect attempt reports through its own promise
    if (Date.now() - this.readySince >= this.backoff.stableMs) this.attempt = 0; // stable: fresh budget
    this.lastError = {
      code: 'transport_closed',
      // Only what the server wrote while this session was up: an older line (its start-up banner) is not
      // why it broke.
      message: `The connection to "${this.name}" broke${this.stderrSinceReady.length ? `: ${this.stderrSinceReady.slice(-3).join('\n')}` : ''}`,
    };
    this.hostLog('warning', 'connection lost; reconnecting');
    this.reconnectLoop();
  }

  private reconnectLoop(): void {
    if (this.state === 'closed') return;
    if (this.attempt >= this.backoff.maxAttempts) {
      this.setState('failed');
      this.hostLog('error', `gave up after ${this.backoff.maxAttempts} reconnect attempts`);
      return;
    }
    this.attempt++;
    this.setState('reconnecting');
    const attempt = () =>
      this.connectOnce().then(
        () => {
          this.metrics.reconnects++;
          this.hostLog('info', `reconnected (attempt ${this.attempt})`);
        },
        (err: MooringError) => {
          if (this.state === 'closed') return;
          this.lastError = err.toData();
          this.hostLog('warning', `reconnect attempt ${this.attempt} failed: ${err.message.split('\n')[0]}`);
          this.reconnectLoop();
        },
      );
    // The first attempt starts now, not on a timer (backoff.ts): calls wait on this session meanwhile.
    const delay = backoffDelay(this.backoff, this.attempt);
    if (delay === 0) void attempt();
    else this.reconnectTimer = setTimeout(() => void attempt(), delay);
  }

  /** Waits through connecting/reconnecting; a failed session gets one fresh connect on demand. */
  async readyClient(timeoutMs: number, signal?: AbortSignal): Promise<MooringClient> {
    if (this.state === 'ready' && this.client) return this.client;
    if (this.state === 'closed') throw this.closedError();
    if (this.state === 'failed' || this.state === 'idle') {
      this.attempt = 0;
      await this.start();
      return this.client!;
    }
    return new Promise<MooringClient>((resolve, reject) => {
      const done = (fn: () => void) => {
        clearTimeout(timer);
        this.off('status', onStatus);
        signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const onStatus = (s: SessionStatus) => {
        if (s.state === 'ready' && this.client) done(() => resolve(this.client!));
        else if (s.state === 'failed' || s.state === 'closed') done(() => reject(this.notReadyError()));
      };
      const onAbort = () =>
        done(() => reject(new MooringError('cancelled', `The call to ${this.name} was cancelled`)));
      const timer = setTimeout(
        () =>
          done(() =>
            reject(
              new MooringError(
                'timeout',
                `"${this.name}" did not come back within ${Math.round(timeoutMs / 1000)} s`,
                'Open its Logs to see why it keeps failing.',
              ),
            ),
          ),
        timeoutMs,
      );
      this.on('status', onStatus);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private startKeepalive(gen: number): void {
    // Remote transports only; stdio is never probed (a dead child closes its pipe).
    if (this.config.transport === 'stdio') return;
    const every = this.opts.keepaliveMs ?? KEEPALIVE_MS;
    this.keepaliveTimer = setInterval(() => {
      const client = this.client;
      if (gen !== this.generation || !client) return;
      listToolsLeniently(client, { timeout: 15_000, warn: (t) => this.hostLog('warning', t) })
        .then((listing) => this.applyTools(listing.tools))
        .catch((e: Error) => {
          this.hostLog('warning', `keepalive failed (${e.message}); reconnecting`);
          // Closing the transport routes through onclose → the reconnect loop.
          void this.transport?.close();
        });
    }, every);
    this.keepaliveTimer.unref?.();
  }

  private clearTimers(): void {
    clearTimeout(this.reconnectTimer);
    clearInterval(this.keepaliveTimer);
    clearTimeout(this.refreshTimer);
    clearTimeout(this.ttlTimer);
    this.changes?.close();
    this.changes = undefined;
  }

  private setState(state: SessionState): void {
    this.state = state;
    this.emit('status', this.status());
  }

  private onStderr(line: string): void {
    this.log({ source: 'stderr', level: 'info', text: line });
  }

  /** A line from the host about this server (state changes, safety notes), kept in its log. */
  hostLog(level: LogLine['level'], text: string): void {
    this.log({ source: 'host', level, text });
  }

  private log(l: Omit<LogLine, 'server' | 'at'>): void {
    const text = this.opts.redact ? this.opts.redact(l.text) : l.text;
    const line: LogLine = { server: this.name, at: Date.now(), ...l, text };
    this.logs.push(line);
    if (line.source === 'stderr') {
      this.stderrSinceReady.push(line.text);
      if (this.stderrSinceReady.length > 3) this.stderrSinceReady.shift();
    }
    this.emit('log', line);
  }

  /** The error with every known secret masked; the unmasked original is not kept as its cause. */
  private redacted(err: MooringError): MooringError {
    const redact = this.opts.redact;
    if (!redact) return err;
    const message = redact(err.message);
    const hint = err.hint === undefined ? undefined : redact(err.hint);
    if (message === err.message && hint === err.hint) return err;
    return new MooringError(err.code, message, hint);
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
