// What crosses the bridge between the core and any UI (ARCHITECTURE.md, `api/`): plain JSON over IPC
// and HTTP alike. Bytes travel as base64 once; the catalog's live handles stay in the core, which
// converts to these shapes in src-main/core/api/wire.ts. The renderer imports only these types and the
// router's type.
import type { ApprovalRequest } from './approval';
import type { ChatEvent } from './chat';
import type { ConfinementView } from './confinement';
import type { ServerConfig } from './config';
import type { ErrorData } from './errors';
import type { InstallLinkOffer } from './install';
import type { Interaction } from './interactions';
import type { ProviderId } from './providers';
import type { LogLine, SessionState, SessionStatus, ToolsChange } from './session';
import type { ScheduleEvent } from './schedules';
import type { ToolCallEvent } from './toolCall';
import type { EmbeddedResourcePart, MediaPart, ResourceLinkPart, TextPart, UnknownPart } from './toolResult';

/** A result part as JSON: the bytes of an image, audio clip or embedded blob as base64. */
export type WirePart =
  | TextPart
  | (Omit<MediaPart, 'bytes'> & { base64: string })
  | ResourceLinkPart
  | (Omit<EmbeddedResourcePart, 'bytes'> & { base64?: string })
  | UnknownPart;

export interface WireToolResult {
  isError: boolean;
  parts: WirePart[];
  structured?: unknown;
  /** The structured content only restates the text (shown collapsed). */
  structuredInText?: boolean;
  structuredValidation?: { valid: boolean; error?: string };
}

/** The lifecycle event as it crosses the bridge: bytes as base64. */
export type WireToolCallEvent = ToolCallEvent<WireToolResult>;

export interface WireTool {
  modelName: string;
  server: string;
  tool: string;
  friendlyName: string;
  title?: string;
  description: string;
  /** The server's own schema (refs inlined): what the approval dialog validates edited arguments with. */
  inputSchema: unknown;
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
  enabled: boolean;
  /** Listed differently from its pinned contract: its next call asks, with the diff, until accepted. */
  changed?: boolean;
  excludedReason?: string;
  /** Why a tool is off, as a kind the UI words plainly (never the config's jargon). */
  off?: ToolOffReason;
  tokenCost: number;
  /** Its icon as a `data:` URI of a raster image the core checked (safety/icons.ts); never a server's URL. */
  icon?: string;
  /** What it may touch and what it was refused (docs/confinement.md). */
  confinement?: ConfinementView;
}

/**
 * Why a tool is off. `safe-default`: a destructive tool in the server's excluded list (the default safe
 * set, or the user's own choice); `new-tool`: held back since it appeared after the server was set up;
 * `turned-off`: excluded though not destructive; `not-included`: the server runs only the tools it
 * includes; `server-disabled`; `other`: the catalog's own reason (a schema no model accepts, a tool set).
 */
export interface ToolOffReason {
  kind: 'safe-default' | 'new-tool' | 'turned-off' | 'not-included' | 'server-disabled' | 'other';
  text: string;
}

/** One configured server as the Servers screen lists it. */
export interface ServerRow {
  config: ServerConfig;
  status: SessionStatus | null;
  /** Prompt tokens of this server's enabled tool schemas. */
  tokenCost: number;
  /** The command line as it would run (secrets masked), for the list and for consent. */
  commandLine: string;
  /** Its icon as a `data:` URI of a raster image the core checked (safety/icons.ts); never a server's URL. */
  icon?: string;
  /** What it may touch and what it was refused (docs/confinement.md). */
  confinement?: ConfinementView;
}

/** An MCP client's config found on this machine, with the servers it holds. */
export interface DetectedClient {
  client: string;
  /** The app's name: "Claude Desktop", "Zed", … */
  label: string;
  path: string;
  servers: { name: string; commandLine: string; exists: boolean }[];
  /** Why its servers could not be read (a format Mooring does not read yet, a broken file). */
  error?: string;
}

/** The answer of a connection test (the form's Test, `mooring mcp test`). */
export type ConnectionTestResultView =
  | {
      ok: true;
      tool_count: number;
      tools: string[];
      latency_ms: number;
      server?: { name: string; version: string };
      /** The protocol revision the handshake agreed on, e.g. "2025-11-25". */
      protocol_version?: string;
    }
  | { ok: false; latency_ms: number; error: string; hint?: string; code: ErrorData['code'] };

/** One provider in Settings > Models. */
export interface ProviderView {
  id: ProviderId;
  baseUrl: string | null;
  /** The environment variable that fills an empty base URL, when it is set. */
  envBaseUrl: string | null;
  needsKey: boolean;
  /** A key is stored (its value never leaves the core). */
  keyStored: boolean;
  /** Where: the keychain, the plain-text key file, or an `${env:NAME}` reference (keyEnvRef names it). */
  keySource: 'keychain' | 'file' | 'envRef' | null;
  keyEnvRef: string | null;
  /** The name of the environment variable that supplies a key, when set. */
  keyFromEnv: string | null;
  suggestedModel: string;
}

/** One model a provider listed, for the chat's model picker. */
export interface ModelChoice {
  /** `provider:model`, what the chat sends. */
  spec: string;
  model: string;
  /** Takes tools natively (otherwise the text protocol carries them). */
  tools: boolean;
  /** Takes images as image parts. */
  vision: boolean;
}

/** A configured provider's model list, or why it could not be read. */
export interface ProviderModels {
  provider: ProviderId;
  models: ModelChoice[];
  error?: ErrorData;
}

/** A server's prompt offered as a `/command` in the composer. */
export interface SlashCommandView {
  command: string;
  server: string;
  name: string;
  title?: string;
  description?: string;
  arguments: { name: string; description?: string; required: boolean }[];
  /** Its icon as a `data:` URI of a raster image the core checked (safety/icons.ts); never a server's URL. */
  icon?: string;
  /** What it may touch and what it was refused (docs/confinement.md). */
  confinement?: ConfinementView;
}

/** Whether a conversation's turn is running (the chat's spinner and Cancel). */
export interface TurnState {
  conversationId: string;
  running: boolean;
  /**
   * Increases with every turn that starts or ends, across conversations. `chat.load` and `chat.send`
   * answer with the value as of their answer, so a view keeps whichever of an answer and an event is
   * newer: the two travel apart (a request, the event stream) and may arrive in either order.
   */
  seq: number;
}

/** Diagnostics: one state change of a server's session. */
export interface StateTransition {
  at: number;
  state: SessionState;
  attempt?: number;
  maxAttempts?: number;
  error?: string;
}

/** Diagnostics: the latency figures each time a server's metrics moved. */
export interface MetricsSample {
  at: number;
  calls: number;
  errors: number;
  p50Ms: number | null;
  p95Ms: number | null;
}

export interface ServerHistory {
  transitions: StateTransition[];
  samples: MetricsSample[];
}

/**
 * The one live stream to the UI: session states, tool changes, the tool-call lifecycle, logs, approval
 * and interaction requests, and the chat, merged into a single subscription (see
 * src-main/core/api/eventStream.ts for why one).
 */
export type UiEvent =
  /** First on every stream: it flushes the response headers, and tells the UI to refetch what it missed. */
  | { type: 'connected' }
  | { type: 'status'; status: SessionStatus }
  | { type: 'tools'; change: ToolsChange }
  /**
   * One step of one call's lifecycle (shared/toolCall.ts), for every call: the chat's, the playground's,
   * the CLI's and `mooring serve`'s. On (re)connect the stream first replays the latest event of each
   * call in flight or recently ended; `seq` orders them. A conversation's call leaves its result out:
   * the saved step (a `message-complete`) carries it.
   */
  | { type: 'toolCall'; event: WireToolCallEvent }
  | { type: 'log'; line: LogLine }
  /** mcp_servers.json changed on disk; `ok` is whether it reads now (the Servers screen loads it again). */
  | { type: 'serversFile'; ok: boolean }
  | { type: 'approval'; request: ApprovalRequest }
  | { type: 'approvalResolved'; id: string; outcome?: string; error?: string }
  /** A server asks the user: sampling approval, a form, a link. */
  | { type: 'interaction'; request: Interaction }
  | { type: 'interactionResolved'; id: string; error?: string }
  /** The chat's stream (text deltas, notes, completed messages), tagged by conversation. */
  | { type: 'chat'; event: ChatEvent }
  | { type: 'turn'; turn: TurnState }
  /** An install link reached the app (a mooring:// link opened it); `install.pending` lists them all. */
  | { type: 'installLink'; offer: InstallLinkOffer }
  /** A resource Mooring subscribed to changed on its server (notifications/resources/updated). */
  | { type: 'resourceUpdated'; server: string; uri: string }
  /** A server's list of resources or prompts changed: the UI lists it again. */
  | { type: 'listChanged'; server: string; what: 'resources' | 'prompts' }
  /** A schedule changed, a run started or ended, or another process took the schedules over. */
  | { type: 'schedule'; event: ScheduleEvent }
  /** An MCP App view's resource changed on its server (`resources/updated`): open views load it again. */
  | { type: 'appViewUpdated'; server: string; uri: string };
