// The session room's public contract. Everything above the session room (catalog, safety, clientFeatures,
// tasks, apps, agent, api, cli) depends on these types, never on the actor's internals, and never on the
// SDK's client: every request goes through the session's one request handler (requestHandler.ts).
import type {
  CallToolResult,
  CompleteRequest,
  CompleteResult,
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequest,
  ElicitResult,
  GetPromptRequest,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  LoggingLevel,
  ProtocolEra,
  ReadResourceRequest,
  ReadResourceResult,
  Root,
  ServerCapabilities,
  StandardSchemaV1,
  Tool,
} from '@modelcontextprotocol/client';
import type { LogLine, SessionStatus, ToolsChange } from '@shared/session';
import type { Progress } from '@shared/toolCall';

export type { CallToolResult, Progress, Tool, ToolsChange };

/** One request's options: every request Mooring sends a server takes them. */
export interface RequestOptions {
  /** Cancels the request, and the wait for a session that is not ready yet; the server is told. */
  signal?: AbortSignal;
  /** Overrides the request's timeout (tool calls: the server's timeoutSeconds, capped at 600 s). */
  timeoutMs?: number;
}

export interface CallOptions extends RequestOptions {
  onProgress?: (p: Progress) => void;
}

/** A task as a status notification carries it (both eras put the task's fields in `params`). */
export type TaskNotice = Record<string, unknown> & { taskId: string };

/**
 * Every request Mooring sends one server, with the same timeout, abort, redaction, metrics and traffic
 * trace: `SessionActor.requests` (requestHandler.ts). A request made while the session connects or
 * reconnects waits for it within its own timeout; a failed session gets one fresh connect.
 */
export interface ServerRequests {
  readonly server: string;
  /** What the server declared; undefined unless the session is ready. */
  capabilities(): ServerCapabilities | undefined;
  /** 'modern' for a 2026-07-28 session, 'legacy' for the 2025 handshake; undefined unless ready. */
  era(): ProtocolEra | undefined;
  /** Waits until the session is ready, as every request does first. */
  ready(opts?: RequestOptions): Promise<void>;
  callTool(name: string, args: Record<string, unknown>, opts?: CallOptions): Promise<CallToolResult>;
  listPrompts(opts?: RequestOptions): Promise<ListPromptsResult>;
  getPrompt(params: GetPromptRequest['params'], opts?: RequestOptions): Promise<GetPromptResult>;
  listResources(opts?: RequestOptions): Promise<ListResourcesResult>;
  listResourceTemplates(opts?: RequestOptions): Promise<ListResourceTemplatesResult>;
  readResource(params: ReadResourceRequest['params'], opts?: RequestOptions): Promise<ReadResourceResult>;
  subscribeResource(uri: string, opts?: RequestOptions): Promise<void>;
  unsubscribeResource(uri: string, opts?: RequestOptions): Promise<void>;
  complete(params: CompleteRequest['params'], opts?: RequestOptions): Promise<CompleteResult>;
  /** `logging/setLevel` (2025); a 2026-07-28 session takes the level with each request instead. */
  setLoggingLevel(level: LoggingLevel, opts?: RequestOptions): Promise<void>;
  /**
   * A request the SDK does not route itself (the tasks vocabulary: `tasks/get`, `tasks/result`, a
   * task-augmented `tools/call`, …), its result checked by `schema`.
   */
  request<S extends StandardSchemaV1>(
    req: { method: string; params?: Record<string, unknown> },
    schema: S,
    opts?: RequestOptions,
  ): Promise<StandardSchemaV1.InferOutput<S>>;
  /** Progress notifications carrying `token` (a token Mooring chose) go to `fn` until the returned call. */
  routeProgress(token: string, fn: (p: Progress) => void): () => void;
  /** Every task status notification, across reconnects, until the returned function is called. */
  onTaskStatus(fn: (task: TaskNotice) => void): () => void;
  /**
   * Tells the server the roots changed (`notifications/roots/list_changed`); whether the notice went out
   * (false when not connected: it asks for roots itself once initialised). Rejects when sending failed.
   */
  notifyRootsChanged(): Promise<boolean>;
}

/** A session of its own on an earlier Streamable HTTP session (sessionResume.ts); the caller closes it. */
export interface ResumedSession extends ServerRequests {
  close(): Promise<void>;
}

/**
 * What a server may ask of Mooring on a connection (MCP "Client Features"), registered through the session
 * on every new connection (SessionActorOptions.clientHandlers), so they survive reconnects. A 2026-07-28
 * server's input_required rounds reach the same handlers.
 */
export interface ClientHandlers {
  /** `sampling/createMessage`; only with the sampling capability declared. */
  sampling?: (
    params: CreateMessageRequest['params'],
    signal: AbortSignal,
  ) => Promise<CreateMessageResult | CreateMessageResultWithTools>;
  /** `elicitation/create`, form or URL mode. */
  elicitation?: (params: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;
  /** `roots/list`; only with the roots capability declared. */
  roots?: () => Root[];
  /** `notifications/resources/updated`. */
  resourceUpdated?: (uri: string) => void;
  /** `notifications/resources/list_changed` and `notifications/prompts/list_changed`. */
  listChanged?: (what: 'resources' | 'prompts') => void;
  /** `notifications/elicitation/complete`. */
  elicitationComplete?: (elicitationId: string) => void;
}

/**
 * A tool as the session hands it out. The same object lives for the session's lifetime:
 * reconnects and list_changed refreshes update `definition` in place (ARCHITECTURE.md).
 */
export interface ToolHandle {
  readonly server: string;
  readonly name: string;
  /** The latest definition the server gave. */
  readonly definition: Tool;
  /** True once the server stopped listing this tool; calls then fail with not_found. */
  readonly removed: boolean;
  call(args: Record<string, unknown>, opts?: CallOptions): Promise<CallToolResult>;
}

export interface SessionEvents {
  status: (status: SessionStatus) => void;
  tools: (change: ToolsChange) => void;
  log: (line: LogLine) => void;
}
