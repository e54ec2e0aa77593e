// The session's request handler (ARCHITECTURE.md, "The path of one tool call"), the only holder of the SDK
// client: every request to the server goes through `send` or `callTool` here, with the same timeout, abort,
// redaction and metrics, on a connection whose transport records the traffic trace; what a server may ask
// of Mooring is registered here from the session's ClientHandlers. One per session, one connection at a
// time; modelled on VS Code's MCP server request handler.
// The client is extended on the seams the SDK documents (`_onnotification`, `_onresponse`) for the task
// messages the v2 SDK does not route (docs/tasks-and-resources.md, "Tasks"): progress for a task's token after its
// CreateTaskResult, task status notifications, and a 2026-07-28 `resultType: "task"` answer (createdTaskOf).
import {
  Client,
  LOG_LEVEL_META_KEY,
  type CallToolRequestOptions,
  type ClientCapabilities,
  type JSONRPCErrorResponse,
  type JSONRPCNotification,
  type JSONRPCResponse,
  type LoggingLevel,
  type McpSubscription,
  type MessageExtraInfo,
  type RequestOptions as SdkRequestOptions,
  type ServerCapabilities,
  type SubscriptionFilter,
  type Transport,
} from '@modelcontextprotocol/client';
import { MAX_TIMEOUT_SECONDS } from '@shared/config';
import type { LogLine } from '@shared/session';
import type { SessionMetrics } from './metrics';
import { clientOptions, verdictOf, type EraVerdict } from './protocolEra';
import type { MooringError } from '../errors';
import { callError, redactError, requestError, TASK_CREATED_CODE, TASK_CREATED_MARK } from './sessionErrors';
import type {
  CallOptions,
  CallToolResult,
  ClientHandlers,
  Progress,
  RequestOptions,
  ServerRequests,
  TaskNotice,
  Tool,
} from './types';

/** Who Mooring says it is in every handshake. */
export const MOORING_CLIENT_INFO = { name: 'Mooring', version: '0.1.0' };
const HARD_CAP_MS = MAX_TIMEOUT_SECONDS * 1000;
/** Requests beyond tool calls and tasks: a person is usually waiting, so at most this long by default. */
export const REQUEST_TIMEOUT_MS = 30_000;

interface WireHooks {
  progress(token: string, p: Progress): boolean;
  taskStatus(task: TaskNotice): void;
}

class MooringClient extends Client {
  constructor(
    options: ConstructorParameters<typeof Client>[1],
    private readonly wire: WireHooks,
  ) {
    super(MOORING_CLIENT_INFO, options);
  }

  protected override _onnotification(n: JSONRPCNotification, extra?: MessageExtraInfo): void {
    const params = (n.params ?? {}) as Record<string, unknown>;
    if (n.method === 'notifications/progress') {
      const token = params.progressToken;
      const p = typeof params.progress === 'number' ? progressOf(params, params.progress) : undefined;
      if (typeof token === 'string' && p && this.wire.progress(token, p)) return;
    }
    if (n.method === 'notifications/tasks/status' || n.method === 'notifications/tasks') {
      if (typeof params.taskId === 'string') this.wire.taskStatus(params as TaskNotice);
      return;
    }
    super._onnotification(n, extra);
  }

  protected override _onresponse(response: JSONRPCResponse | JSONRPCErrorResponse): void {
    const result =
      'result' in response ? (response.result as Record<string, unknown> | undefined) : undefined;
    if (result?.resultType !== 'task') return super._onresponse(response);
    super._onresponse({
      jsonrpc: '2.0',
      id: response.id,
      error: {
        code: TASK_CREATED_CODE,
        message: 'The server runs this request as a task',
        data: { [TASK_CREATED_MARK]: result },
      },
    });
  }
}

const progressOf = (params: Record<string, unknown>, progress: number): Progress => ({
  progress,
  ...(typeof params.total === 'number' ? { total: params.total } : {}),
  ...(typeof params.message === 'string' ? { message: params.message } : {}),
});

export interface RequestHandlerOptions {
  server: string;
  /** The session's timeout for one request (its config's timeoutSeconds), read per request. */
  timeoutMs: () => number;
  /** Whether the session is ready; requests made before wait for it (`whenReady`). */
  isReady: () => boolean;
  /** Waits through connecting and reconnecting; rejects as the session's own errors do. */
  whenReady: (timeoutMs: number, signal?: AbortSignal) => Promise<void>;
  /** Masks every known secret in the errors requests throw. */
  redact?: (text: string) => string;
  metrics?: SessionMetrics;
  /** The level a 2026-07-28 server logs at, sent with each request (MCP 2026-07-28, "Logging"). */
  requestLogLevel?: () => LoggingLevel | undefined;
  /** A tool's definition as the session listed it, for `tools/call` (the SDK validates results with it). */
  toolDefinition?: (name: string) => Tool | undefined;
}

/** One connection's set-up: the transport (already traced), how to negotiate, and who hears what. */
export interface ConnectInput {
  transport: Transport;
  capabilities: ClientCapabilities;
  stdio: boolean;
  timeoutMs: number;
  prior?: EraVerdict;
  /** Attach to the Streamable HTTP session the transport names (sessionResume.ts): no handshake, no probe. */
  attach?: boolean;
  handlers: ClientHandlers;
  onToolsListChanged: () => void;
  onServerLog: (line: Pick<LogLine, 'level' | 'text'>) => void;
  onClose: () => void;
  onError: (e: Error) => void;
}

export class RequestHandler implements ServerRequests {
  readonly server: string;
  private client?: MooringClient;
  private readonly progressRoutes = new Map<string, (p: Progress) => void>();
  private readonly statusListeners = new Set<(task: TaskNotice) => void>();
  private readonly wire: WireHooks = {
    progress: (token, p) => {
      const route = this.progressRoutes.get(token);
      route?.(p);
      return route !== undefined;
    },
    taskStatus: (task) => this.statusListeners.forEach((fn) => fn(task)),
  };

  constructor(private readonly opts: RequestHandlerOptions) {
    this.server = opts.server;
  }

  // ---- the connection -------------------------------------------------------------------------

  /**
   * Opens a connection on `transport` and holds it, failed or not: the caller disconnects a failed one,
   * after reading what closing it would change (whether the server's process had exited by itself).
   */
  async connect(input: ConnectInput): Promise<void> {
    await this.disconnect();
    const options = input.attach
      ? { capabilities: input.capabilities }
      : clientOptions({
          capabilities: input.capabilities,
          stdio: input.stdio,
          connectTimeoutMs: input.timeoutMs,
        });
    const client = new MooringClient(options, this.wire);
    register(client, input);
    this.client = client;
    try {
      await client.connect(input.transport, {
        timeout: input.timeoutMs,
        ...(input.prior ? { prior: input.prior } : {}),
      });
    } catch (err) {
      client.onclose = undefined;
      throw err;
    }
  }

  /** Lets go of the connection (it broke, or the session closes), closing it without a second onClose. */
  async disconnect(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) await closeQuietly(client);
  }

  /** The connection broke by itself: nothing left to close, only to forget. */
  forget(): void {
    this.client = undefined;
  }

  get connected(): boolean {
    return this.client !== undefined;
  }

  /** What the connection negotiated, ready or not (status, log lines, reconnects); undefined without one. */
  negotiated() {
    const c = this.client;
    if (!c) return undefined;
    return {
      serverInfo: c.getServerVersion(),
      protocolVersion: c.getNegotiatedProtocolVersion(),
      era: c.getProtocolEra(),
      capabilities: c.getServerCapabilities(),
      /** What a reconnect adopts instead of probing again (protocolEra.ts). */
      verdict: verdictOf(c.getProtocolEra(), c.getDiscoverResult()),
    };
  }

  // ---- ServerRequests ------------------------------------------------------------------------------

  capabilities(): ServerCapabilities | undefined {
    return this.opts.isReady() ? this.client?.getServerCapabilities() : undefined;
  }

  era(): ReturnType<Client['getProtocolEra']> {
    return this.opts.isReady() ? this.client?.getProtocolEra() : undefined;
  }

  async ready(opts: RequestOptions = {}): Promise<void> {
    await this.clientFor(opts.timeoutMs ?? this.opts.timeoutMs(), opts.signal);
  }

  /** `tools/call` with progress, with the tool's definition as the session listed it. */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    opts: CallOptions = {},
  ): Promise<CallToolResult> {
    const timeoutMs = Math.min(opts.timeoutMs ?? this.opts.timeoutMs(), HARD_CAP_MS);
    const started = performance.now();
    try {
      const client =
        this.opts.isReady() && this.client ? this.client : await this.clientFor(timeoutMs, opts.signal);
      const options: CallToolRequestOptions = {
        timeout: timeoutMs,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: HARD_CAP_MS,
      };
      const definition = this.opts.toolDefinition?.(name);
      if (definition) options.toolDefinition = definition;
      if (opts.signal) options.signal = opts.signal;
      if (opts.onProgress) options.onprogress = opts.onProgress;
      const result = (await client.callTool(
        { name, arguments: args, ...this.meta(client) },
        options,
      )) as CallToolResult;
      this.opts.metrics?.record(performance.now() - started, !result.isError);
      return result;
    } catch (err) {
      this.opts.metrics?.record(performance.now() - started, false);
      throw this.redacted(
        callError(err, { server: this.server, tool: name, timeoutMs, signal: opts.signal }),
      );
    }
  }

  /** `ping`, even while the session is not ready: whether the server still answers at all. */
  ping(opts?: RequestOptions) {
    return this.send('ping', opts, (c, o) => c.ping(o), true);
  }

  listPrompts(opts?: RequestOptions) {
    return this.send('prompts/list', opts, (c, o) => c.listPrompts(undefined, o));
  }

  getPrompt(params: Parameters<Client['getPrompt']>[0], opts?: RequestOptions) {
    return this.send(`prompts/get ${params.name}`, opts, (c, o) => c.getPrompt(params, o));
  }

  listResources(opts?: RequestOptions) {
    return this.send('resources/list', opts, (c, o) => c.listResources(undefined, o));
  }

  listResourceTemplates(opts?: RequestOptions) {
    return this.send('resources/templates/list', opts, (c, o) => c.listResourceTemplates(undefined, o));
  }

  readResource(params: Parameters<Client['readResource']>[0], opts?: RequestOptions) {
    return this.send(`resources/read ${params.uri}`, opts, (c, o) => c.readResource(params, o));
  }

  async subscribeResource(uri: string, opts?: RequestOptions): Promise<void> {
    await this.send(`resources/subscribe ${uri}`, opts, (c, o) => c.subscribeResource({ uri }, o));
  }

  async unsubscribeResource(uri: string, opts?: RequestOptions): Promise<void> {
    await this.send(`resources/unsubscribe ${uri}`, opts, (c, o) => c.unsubscribeResource({ uri }, o));
  }

  complete(params: Parameters<Client['complete']>[0], opts?: RequestOptions) {
    return this.send('completion/complete', opts, (c, o) => c.complete(params, o));
  }

  async setLoggingLevel(level: LoggingLevel, opts?: RequestOptions): Promise<void> {
    await this.send('logging/setLevel', opts, (c, o) => c.setLoggingLevel(level, o));
  }

  request: ServerRequests['request'] = (req, schema, opts) =>
    this.send(req.method, opts, (c, o) => c.request(req, schema, o));

  /** A request of the session itself while it connects (tools/list): no wait for readiness. */
  requestNow: ServerRequests['request'] = (req, schema, opts) =>
    this.send(req.method, opts, (c, o) => c.request(req, schema, o), true);

  /** A 2026-07-28 change stream (changeStream.ts); opened as soon as the connection is. */
  listen(filter: SubscriptionFilter, opts?: RequestOptions): Promise<McpSubscription> {
    return this.send('subscriptions/listen', opts, (c, o) => c.listen(filter, o), true);
  }

  routeProgress(token: string, fn: (p: Progress) => void): () => void {
    this.progressRoutes.set(token, fn);
    return () => void this.progressRoutes.delete(token);
  }

  onTaskStatus(fn: (task: TaskNotice) => void): () => void {
    this.statusListeners.add(fn);
    return () => void this.statusListeners.delete(fn);
  }

  async notifyRootsChanged(): Promise<boolean> {
    // Not connected (yet, or any more): the server asks for roots/list itself once it is initialised.
    const client = this.client;
    if (!client?.transport) return false;
    await client.sendRootsListChanged();
    return true;
  }

  // ---- the one request path -------------------------------------------------------------------------

  private async send<T>(
    what: string,
    opts: RequestOptions = {},
    fn: (c: MooringClient, o: SdkRequestOptions) => Promise<T>,
    now = false,
  ): Promise<T> {
    const timeoutMs = opts.timeoutMs ?? Math.min(this.opts.timeoutMs(), REQUEST_TIMEOUT_MS);
    const method = what.split(' ')[0]!;
    try {
      const client =
        this.client && (now || this.opts.isReady())
          ? this.client
          : await this.clientFor(timeoutMs, opts.signal);
      const result = await fn(client, {
        timeout: timeoutMs,
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      this.opts.metrics?.count(method, true);
      return result;
    } catch (err) {
      this.opts.metrics?.count(method, false);
      throw this.redacted(requestError(err, { server: this.server, what, timeoutMs, signal: opts.signal }));
    }
  }

  private async clientFor(timeoutMs: number, signal?: AbortSignal): Promise<MooringClient> {
    if (!(this.opts.isReady() && this.client)) await this.opts.whenReady(timeoutMs, signal);
    return this.client!;
  }

  /** A 2026-07-28 server's log level travels with each request (MCP 2026-07-28, "Logging"). */
  private meta(client: MooringClient): { _meta?: Record<string, unknown> } {
    const level = this.opts.requestLogLevel?.();
    return level && client.getProtocolEra() === 'modern' ? { _meta: { [LOG_LEVEL_META_KEY]: level } } : {};
  }

  private redacted(err: MooringError): MooringError {
    return redactError(err, this.opts.redact);
  }
}

/** The session's own notifications, then what the session was given to answer (ClientHandlers). */
function register(client: MooringClient, input: ConnectInput): void {
  client.setNotificationHandler('notifications/tools/list_changed', () => input.onToolsListChanged());
  client.setNotificationHandler('notifications/message', (n) => {
    const p = n.params;
    const text = typeof p.data === 'string' ? p.data : JSON.stringify(p.data);
    input.onServerLog({ level: p.level, text: p.logger ? `[${p.logger}] ${text}` : text });
  });
  const { sampling, elicitation, roots, resourceUpdated, listChanged, elicitationComplete } = input.handlers;
  if (sampling)
    client.setRequestHandler('sampling/createMessage', (req, ctx) => sampling(req.params, ctx.mcpReq.signal));
  if (elicitation)
    client.setRequestHandler('elicitation/create', (req, ctx) => elicitation(req.params, ctx.mcpReq.signal));
  if (roots) client.setRequestHandler('roots/list', () => ({ roots: roots() }));
  if (resourceUpdated)
    client.setNotificationHandler('notifications/resources/updated', (n) => resourceUpdated(n.params.uri));
  if (listChanged) {
    client.setNotificationHandler('notifications/resources/list_changed', () => listChanged('resources'));
    client.setNotificationHandler('notifications/prompts/list_changed', () => listChanged('prompts'));
  }
  if (elicitationComplete)
    client.setNotificationHandler('notifications/elicitation/complete', (n) =>
      elicitationComplete(n.params.elicitationId),
    );
  client.onclose = input.onClose;
  client.onerror = input.onError;
}

async function closeQuietly(client: MooringClient): Promise<void> {
  client.onclose = undefined; // closed on purpose: not a break
  await client.close().catch(() => undefined);
}
