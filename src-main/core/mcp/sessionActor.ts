// One persistent session per server (ARCHITECTURE.md, "Session actor states"):
// idle → connecting → ready ⇄ reconnecting → failed | closed.
// The actor alone mutates its state. Calls run concurrently on a ready session; a break fails the
// calls in flight explicitly and reconnects with bounded backoff; tool handles survive reconnects.
import { EventEmitter } from 'node:events';
import { z } from 'zod';
import {
  Client,
  type CallToolRequestOptions,
  type ClientCapabilities,
  type Transport,
} from '@modelcontextprotocol/client';
import { describeCommandLine } from '@shared/commandLine';
import type { ServerConfig } from '@shared/config';
import { MAX_TIMEOUT_SECONDS } from '@shared/config';
import type { ErrorData } from '@shared/errors';
import type { LogLine, SessionState, SessionStatus } from '@shared/session';
import { MooringError } from '../errors';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff';
import { SessionMetrics } from './metrics';
import { RingBuffer } from './ringBuffer';
import { callError, connectError } from './sessionErrors';
import { StdioTransport } from './stdioTransport';
import { tracedTransport, traceText } from './trafficTrace';
import { ToolRegistry } from './toolRegistry';
import { createTransport, type TransportFactory, type TransportHooks } from './transportFactory';
import type { CallOptions, CallToolResult, SessionEvents, Tool, ToolHandle } from './types';

const LenientToolsList = z.looseObject({
  tools: z.array(z.looseObject({ name: z.unknown(), inputSchema: z.unknown().optional() })),
  nextCursor: z.string().optional(),
});

export const MOORING_CLIENT_INFO = { name: 'Mooring', version: '0.1.0' };
export const KEEPALIVE_MS = 180_000;
export const CONNECT_TIMEOUT_MS = 30_000;
const HARD_CAP_MS = MAX_TIMEOUT_SECONDS * 1000;
/** A server's text in a log line: one line, at most `max` characters. */
const clip = (text: string, max: number) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
};

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
  private client?: Client;
  private transport?: Transport;
  private generation = 0;
  private attempt = 0;
  private readySince = 0;
  private connectMs?: number;
  /** Record every JSON-RPC message to and from the server in its log (the Logs view's switch). */
  private tracing = false;
  private lastError?: ErrorData;
  private reconnectTimer?: NodeJS.Timeout;
  private keepaliveTimer?: NodeJS.Timeout;
  private refreshTimer?: NodeJS.Timeout;
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

  /** The live SDK client, for prompts, resources and the rest (undefined unless ready). */
  sdkClient(): Client | undefined {
    return this.state === 'ready' ? this.client : undefined;
  }

  /** The last stderr lines, optionally only those written at or after `since` (epoch ms). */
  stderrTail(lines = 20, since = 0): string {
    return this.logs
      .toArray()
      .filter((l) => l.source === 'stderr' && l.at >= since)
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
      const result = (await client.callTool({ name, arguments: args }, options)) as CallToolResult;
      this.metrics.record(performance.now() - started, !result.isError);
      return result;
    } catch (err) {
      this.metrics.record(performance.now() - started, false);
      throw this.redacted(callError(err, { server: this.name, tool: name, timeoutMs, signal: opts.signal }));
    }
  }

  /** Re-lists tools now (the UI's Refresh). */
  async refreshTools(): Promise<void> {
    const client = this.sdkClient();
    if (!client) throw this.notReadyError();
    await this.loadTools(client);
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
    let client: Client | undefined;
    try {
      const prepared = this.opts.prepare
        ? await this.opts.prepare(this.config, { warn: (t) => this.hostLog('warning', t) })
        : this.config;
      const fetch = this.config.transport === 'stdio' ? undefined : this.opts.fetchFor?.(this.config);
      const auth = this.config.transport === 'stdio' ? undefined : this.opts.authProviderFor?.(this.config);
      transport = await (this.opts.transportFactory ?? createTransport)(prepared, {
        onStderr: (t) => this.onStderr(t),
        onGarbage: (g) =>
          this.hostLog(
            'warning',
            g.reason === 'oversized'
              ? `Dropped a ${g.bytes}-byte message from the server: over the 4 MB limit for one line`
              : `The server wrote a line that is not JSON-RPC to stdout (ignored): ${g.sample}`,
          ),
        ...(fetch ? { fetch } : {}),
        ...(auth ? { auth } : {}),
        ...(this.opts.closeStageMs !== undefined ? { closeStageMs: this.opts.closeStageMs } : {}),
      });
      client = new Client(MOORING_CLIENT_INFO, { capabilities: this.opts.capabilities ?? {} });
      client.setNotificationHandler('notifications/tools/list_changed', () => this.scheduleRefresh(gen));
      client.setNotificationHandler('notifications/message', (n) => {
        const p = n.params;
        const text = typeof p.data === 'string' ? p.data : JSON.stringify(p.data);
        this.log({ source: 'server', level: p.level, text: p.logger ? `[${p.logger}] ${text}` : text });
      });
      this.opts.configureClient?.(client, this.name);
      client.onclose = () => this.onBroken(gen);
      client.onerror = (e) => this.hostLog('debug', `transport: ${e.message}`);
      await client.connect(
        tracedTransport(transport, (direction, message) => {
          if (this.tracing)
            this.log({ source: 'rpc', level: 'debug', text: `${direction} ${traceText(message)}` });
        }),
        { timeout: this.opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS },
      );
      if (gen !== this.generation) {
        await client.close().catch(() => undefined);
        throw this.closedError();
      }
      this.client = client;
      this.transport = transport;
      const pid = transport instanceof StdioTransport ? transport.pid : undefined;
      const info = client.getServerVersion();
      this.hostLog(
        'info',
        `handshake done in ${Math.round(performance.now() - started)} ms${pid ? ` (pid ${pid})` : ''}${info ? `: ${info.name} ${info.version}` : ''}, protocol ${client.getNegotiatedProtocolVersion() ?? 'unknown'}`,
      );
      await this.loadTools(client);
      const names = this.registry.active().map((t) => t.name);
      this.hostLog(
        'info',
        `tools listed: ${names.length}${names.length ? ` (${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''})` : ''}`,
      );
      this.connectMs = Math.round(performance.now() - started);
      this.readySince = Date.now();
      this.lastError = undefined;
      this.setState('ready');
      this.startKeepalive(gen);
    } catch (err) {
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

  private async loadTools(client: Client): Promise<void> {
    // Capability negotiation: only list what the server advertises.
    if (!client.getServerCapabilities()?.tools) {
      this.applyTools([]);
      return;
    }
    this.applyTools(await this.listToolsLeniently(client, 30_000));
  }

  /**
   * tools/list without the SDK's all-or-nothing result validation: its strict schema rejects the whole
   * list when one tool's inputSchema lacks `type: "object"`, hiding every tool of the server. Each tool
   * is kept if it has a name; the catalog repairs or excludes a bad schema, with a visible reason.
   */
  private async listToolsLeniently(client: Client, timeout: number): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 64; page++) {
      const res = await client.request(
        { method: 'tools/list', params: cursor ? { cursor } : {} },
        LenientToolsList,
        { timeout },
      );
      for (const [index, raw] of res.tools.entries()) {
        if (typeof raw.name !== 'string' || !raw.name.trim()) {
          // Nothing can call a tool without a name, and a blank one would still get a model-facing name.
          const what = typeof raw.description === 'string' ? `: "${clip(raw.description, 80)}"` : '';
          this.hostLog(
            'warning',
            `refused tool #${index + 1} of tools/list: its name is ${typeof raw.name === 'string' ? 'empty' : 'missing'}, so nothing could call it${what}`,
          );
          continue;
        }
        const schema = raw.inputSchema;
        if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
          this.hostLog(
            'warning',
            `tool "${raw.name}" has no valid inputSchema; treating it as taking no arguments`,
          );
          tools.push({ ...raw, inputSchema: { type: 'object' } } as Tool);
        } else tools.push(raw as Tool);
      }
      cursor = res.nextCursor;
      if (!cursor) break;
    }
    return tools;
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
      this.loadTools(client).catch((e: Error) =>
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
      message: `The connection to "${this.name}" broke${this.stderrTail(3, this.readySince) ? `: ${this.stderrTail(3, this.readySince)}` : ''}`,
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
  private async readyClient(timeoutMs: number, signal?: AbortSignal): Promise<Client> {
    if (this.state === 'ready' && this.client) return this.client;
    if (this.state === 'closed') throw this.closedError();
    if (this.state === 'failed' || this.state === 'idle') {
      this.attempt = 0;
      await this.start();
      return this.client!;
    }
    return new Promise<Client>((resolve, reject) => {
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
      this.listToolsLeniently(client, 15_000)
        .then((tools) => this.applyTools(tools))
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
