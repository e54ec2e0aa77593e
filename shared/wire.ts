// What crosses the bridge between the core and any UI (ARCHITECTURE.md, `api/`): plain JSON over IPC
// and HTTP alike. Bytes travel as base64 once; the catalog's live handles stay in the core, which
// converts to these shapes in src-main/core/api/wire.ts. The renderer imports only these types and the
// router's type.
import type { ApprovalRequest, ApprovalResolved } from './approval';
import type { ChatEvent } from './chat';
import type { ConfinementView } from './confinement';
import type { ServerConfig } from './config';
import type { ErrorData } from './errors';
import type { InstallLinkOffer } from './install';
import type { Interaction, InteractionResolved } from './interactions';
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
 * Every live event, declared once (ARCHITECTURE.md, "The path of an event"): its name, the payload the core
 * publishes on its bus (`CoreEvents`, src-main/core/eventBus.ts) and, as the function's result, what crosses
 * the bridge as that `UiEvent`'s fields. The bus's type, the `UiEvent` union and the renderer's handler table
 * (src-renderer/src/api/liveEvents.ts) are derived from this table; a new event is one line here.
 * `coreConverts` marks a payload only the core can convert (bytes to base64: src-main/core/api/eventStream.ts).
 */
export const LIVE_EVENTS = {
  /** A session's state changed; also sent again for every server when a server's icon arrived. */
  status: (status: SessionStatus) => ({ status }),
  tools: (change: ToolsChange) => ({ change }),
  /**
   * One step of one call's lifecycle (shared/toolCall.ts), for every call: the chat's, the playground's,
   * the CLI's and `mooring serve`'s. On (re)connect the stream first replays the latest event of each
   * call in flight or recently ended; `seq` orders them. A conversation's call leaves its result out:
   * the saved step (a `message-complete`) carries it.
   */
  toolCall: coreConverts<ToolCallEvent, { event: WireToolCallEvent }>(),
  log: (line: LogLine) => ({ line }),
  /** mcp_servers.json changed on disk; `ok` is whether it reads now (the Servers screen loads it again). */
  serversFile: (c: { ok: boolean }) => ({ ok: c.ok }),
  approval: (request: ApprovalRequest) => ({ request }),
  approvalResolved: (r: ApprovalResolved): { id: string; outcome?: string; error?: string } => ({
    id: r.request.id,
    ...(r.decision ? { outcome: r.decision.outcome } : {}),
    ...(r.error ? { error: r.error.message } : {}),
  }),
  /** A server asks the user: sampling approval, a form, a link. */
  interaction: (request: Interaction) => ({ request }),
  interactionResolved: (r: InteractionResolved): { id: string; error?: string } => ({
    id: r.request.id,
    ...(r.error ? { error: r.error.message } : {}),
  }),
  /** The chat's stream (text deltas, notes, completed messages), tagged by conversation. */
  chat: (event: ChatEvent) => ({ event }),
  turn: (turn: TurnState) => ({ turn }),
  /** An install link reached the app (a mooring:// link opened it); `install.pending` lists them all. */
  installLink: (offer: InstallLinkOffer) => ({ offer }),
  /** A resource Mooring subscribed to changed on its server (notifications/resources/updated). */
  resourceUpdated: (u: { server: string; uri: string }) => ({ server: u.server, uri: u.uri }),
  /** A server's list of resources or prompts changed: the UI lists it again. */
  listChanged: (c: { server: string; what: 'resources' | 'prompts' }) => ({ server: c.server, what: c.what }),
  /** A schedule changed, a run started or ended, or another process took the schedules over. */
  schedule: (event: ScheduleEvent) => ({ event }),
  /** An MCP App view's resource changed on its server (`resources/updated`): open views load it again. */
  appViewUpdated: (u: { server: string; uri: string }) => ({ server: u.server, uri: u.uri }),
  /**
   * An MCP App view's tool call ended (src-main/core/apps/viewCallTickets.ts): its view takes the outcome by
   * ticket (`apps.takeCall`). The call's request answered at once, so no approval holds a connection.
   */
  appCallDone: (d: { ticket: string; viewId: string }) => ({ ticket: d.ticket, viewId: d.viewId }),
};

/** A live event whose wire form only the core can make; the core's converter is checked against `W`. */
export interface CoreConverted<P, W> {
  readonly coreConverts: true;
  /** Type carriers only. */
  readonly payload?: (p: P) => P;
  readonly wire?: (w: W) => W;
}
function coreConverts<P, W>(): CoreConverted<P, W> {
  return { coreConverts: true };
}

type LiveTable = typeof LIVE_EVENTS;
export type LiveEventName = keyof LiveTable;
/** What the core publishes for each live event (its bus's map: `EventBus<CoreEvents>`). */
export type CoreEvents = {
  [K in LiveEventName]: LiveTable[K] extends (p: infer P) => unknown
    ? P
    : LiveTable[K] extends { payload?: (p: infer P) => unknown }
      ? P
      : never;
};
/** The fields each live event carries across the bridge besides its `type`. */
export type LiveWire = {
  [K in LiveEventName]: LiveTable[K] extends (p: never) => infer W
    ? W
    : LiveTable[K] extends { wire?: (w: infer W) => unknown }
      ? W
      : never;
};

/**
 * The one live stream to the UI (src-main/core/api/eventStream.ts says why one): every live event, and two
 * of the stream's own. `connected` comes first on every stream (it flushes the response headers and tells
 * the UI to fetch again what it missed); `resync` says the UI fell behind and events were dropped: it reads
 * its state again, as after `connected`, and the snapshot that follows (`seq`) brings it up to date.
 */
export type UiEvent =
  | { type: 'connected' }
  | { type: 'resync'; dropped: number }
  | { [K in LiveEventName]: { type: K } & LiveWire[K] }[LiveEventName];
