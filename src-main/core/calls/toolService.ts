// The tools service (ARCHITECTURE.md, "The path of one tool call"): the catalog over every live session
// (per provider, tool set and project folder; new tools held back by the quarantine), the one gated
// call, and the one stream of the tool-call lifecycle. Every host calls tools here: the chat, the Tools
// playground, the CLI and `mooring serve`; the UI, the logs and the metrics read the stream.
import { EventEmitter } from 'node:events';
import { DisposableStore, listen, type Disposable } from '../disposable';
import { MooringError } from '../errors';
import type { ToolOffReason } from '@shared/wire';
import { callKey, foldCallEvent, isTerminalPhase } from '@shared/toolCall';
import { buildCatalog, type CatalogEntry, type ToolCatalog } from '../catalog/catalog';
import type { Provider } from '../catalog/adaptSchema';
import type { ToolSet } from '../catalog/filters';
import type { SessionActor } from '../mcp/sessionActor';
import type { SessionPool } from '../mcp/sessionPool';
import type { ApprovalBroker } from '../safety/approvalBroker';
import { decideGate, type GateDeps } from '../safety/approvalGate';
import { gateSources } from '../safety/verdictSources';
import type { CallerKind } from '../safety/approvalPolicy';
import type { ToolQuarantine } from '../safety/toolQuarantine';
import { serverIdentity } from '../safety/toolFingerprint';
import type { TaskService } from '../tasks/taskService';
import { CallRevision } from './callRevision';
import { callTarget, withHeld, type CallTarget } from './callTarget';
import {
  runToolCall,
  type CallContext,
  type RunnerDeps,
  type ToolCallEvent,
  type ToolCallOutcome,
  type UnstampedEvent,
} from './toolCallRunner';
import type { UrlElicitationPort } from './urlElicitationRetry';

/** Ended calls whose last state the stream's snapshot still replays (the UI keeps about as many cards). */
export const RECENT_CALLS = 32;
/** A call's events kept unfolded until there are this many (a long call's progress does not pile up). */
const FOLD_AFTER = 8;

export interface ToolServiceEvents {
  /** One step of one call's lifecycle: one listener per subscriber, never one per call. */
  toolCall: [ToolCallEvent];
  /** A session's tools or state changed: every catalog handed out before is stale. */
  changed: [];
}

export interface CatalogQuery {
  /** Whose schema rules the model-facing schemas follow (default anthropic). */
  provider?: Provider;
  /** A named tool set from the settings: tools outside it are disabled. */
  toolSet?: string;
  /** A conversation's project folder (canonical): its approved servers join or override the global ones. */
  workspace?: string;
}

export interface ToolServiceDeps {
  pool: SessionPool;
  /** The sessions a folder's conversation sees, and the folder's own session of one server. */
  sessionsFor: (workspace: string | undefined, global: SessionActor[]) => SessionActor[];
  folderSession: (workspace: string | undefined, server: string) => SessionActor | undefined;
  quarantine: ToolQuarantine;
  /** The gate's stores and the switch it reads (safety/approvalGate.ts). */
  gate: Omit<GateDeps, 'broker'>;
  approvals: ApprovalBroker;
  /** A named tool set; throws `not_found` naming the ones there are. */
  toolSet: (name: string) => ToolSet;
  /** Tool calls that run as tasks (tasks/taskService.ts). */
  tasks?: Pick<TaskService, 'callTool'>;
  /** Browser flows a server requires before a call (-32042; calls/urlElicitationRetry.ts). */
  urlElicitation?: UrlElicitationPort;
}

export class ToolService extends EventEmitter<ToolServiceEvents> implements Disposable {
  /** What this service listens to (the pool's changes), ended on `dispose`. */
  private readonly disposables = new DisposableStore();
  /** The one revision of every input of a call's verdict (calls/callRevision.ts). */
  private readonly inputs: CallRevision;
  /** The revision the catalogs and resolved names below were made at: kept for that one only. */
  private madeAt = -1;
  /** One catalog per provider, tool set and folder (the schema preparation). */
  private readonly catalogs = new Map<string, ToolCatalog>();
  /** Names a caller typed (the CLI, the playground), resolved per folder. */
  private readonly names = new Map<string, CatalogEntry>();
  /** The stream's position: the `seq` of the last event. */
  private seq = 0;
  /**
   * Each call's events, by call key: the calls in flight and the last ended. Its state is their fold
   * (`foldCallEvent`), made when a snapshot asks for it: folding each event as it came copied the
   * whole event every time, for a snapshot that a UI asks for when it connects.
   */
  private readonly states = new Map<string, ToolCallEvent[]>();
  /** Keys of ended calls, oldest first. */
  private readonly ended: string[] = [];
  private readonly runner: RunnerDeps;

  constructor(private readonly deps: ToolServiceDeps) {
    super();
    this.runner = {
      gate: { ...deps.gate, broker: deps.approvals },
      broker: deps.approvals,
      publish: (e) => this.publish(e),
      ...(deps.tasks ? { tasks: deps.tasks } : {}),
      ...(deps.urlElicitation ? { urlElicitation: deps.urlElicitation } : {}),
    };
    this.inputs = new CallRevision(gateSources(deps.gate));
    this.disposables.add(listen(deps.pool, 'status', () => this.invalidate()));
    this.disposables.add(
      listen(deps.pool, 'tools', (t: { server: string }) => {
        this.holdNewTools(t.server);
        this.invalidate();
      }),
    );
  }

  /** Stops following the pool (the core's close). */
  dispose(): Promise<void> {
    return this.disposables.dispose();
  }

  /**
   * An input of the verdict changed (a session, a filter or policy, the settings, a folder's servers):
   * the revision moves, and what was made at the old one is made again when next asked for.
   */
  invalidate(): void {
    this.inputs.bump();
    this.emit('changed');
  }

  /**
   * The revision of everything a call's verdict reads, as it is now (calls/callRevision.ts): the quarantine
   * and the gate's stores are checked first (one stat per file). Catalogs and resolved names made at an
   * older revision are dropped here.
   */
  revision(): number {
    // Another process changed the quarantine (the user enabled a held tool in the app, or `mooring serve`
    // held one back): one stat when nothing changed (safety/toolQuarantine.ts).
    if (this.deps.quarantine.refresh()) this.invalidate();
    // A change no event announced (another process accepted a changed tool, revoked an approval): those
    // who follow the catalog (`mooring serve`'s listing) hear of it too.
    const now = this.inputs.current(() => queueMicrotask(() => this.emit('changed')));
    if (now !== this.madeAt) {
      this.catalogs.clear();
      this.names.clear();
      this.madeAt = now;
    }
    return now;
  }

  /** The catalog over every live session, its model-facing schemas adapted to one provider's rules. */
  catalog(query: CatalogQuery = {}): ToolCatalog {
    this.revision();
    const provider = query.provider ?? 'anthropic';
    const key = JSON.stringify([provider, query.toolSet ?? null, query.workspace ?? null]);
    const cached = this.catalogs.get(key);
    if (cached) return cached;
    const toolSet = query.toolSet ? this.deps.toolSet(query.toolSet) : undefined;
    const built = buildCatalog(
      this.deps.sessionsFor(query.workspace, this.deps.pool.list()).map((a) => {
        const held = this.deps.quarantine.quarantined(a.name);
        const tools = a.tools();
        const changed = this.deps.gate.pins?.changed(
          serverIdentity(a.config),
          tools.map((h) => h.definition),
        );
        return {
          server: a.name,
          config: withHeld(a.config, held),
          tools,
          held,
          ...(changed ? { changed } : {}),
        };
      }),
      { provider, ...(toolSet ? { toolSet } : {}) },
    );
    this.catalogs.set(key, built);
    return built;
  }

  /** Every tool the servers list now, enabled or not (the Tools screen), optionally of one server. */
  list(server?: string): CatalogEntry[] {
    return this.catalog().entries.filter((e) => !e.handle.removed && (!server || e.server === server));
  }

  /**
   * Why a tool is off, as a kind the UI can word plainly: the catalog's reason speaks of the config
   * ("listed in excludeTools"), and a tool held back as new looks the same there.
   */
  offReason(entry: CatalogEntry): ToolOffReason | undefined {
    if (entry.enabled) return undefined;
    const text = entry.excludedReason ?? 'it is off';
    const config = this.deps.pool.get(entry.server)?.config;
    if (config?.enabled === false) return { kind: 'server-disabled', text };
    if (this.deps.quarantine.quarantined(entry.server).includes(entry.tool))
      return { kind: 'new-tool', text };
    if (config?.excludeTools.includes(entry.tool))
      return { kind: entry.destructive ? 'safe-default' : 'turned-off', text };
    if (config?.includeTools && !config.includeTools.includes(entry.tool))
      return { kind: 'not-included', text };
    return { kind: 'other', text };
  }

  /** Prompt tokens of each server's enabled tool schemas. */
  tokenCostByServer(): Record<string, number> {
    return this.catalog().tokenCostByServer();
  }

  /**
   * The one way to call a tool: catalog → safety (decide, ask, remember, audit) → session → result
   * (calls/toolCallRunner.ts). A caller that already resolved the name in its own catalog (the chat, in
   * its provider's, tool set's and folder's) passes the entry; a name is resolved here, in the folder's
   * catalog, once per revision. The safety verdict is decided afresh at every call, from its inputs as they
   * are then (`target`, safety/approvalGate.ts `decideGate`). Lifecycle events go to `ctx.onPhase` and to
   * the `toolCall` stream.
   */
  call(target: string | CatalogEntry, args: unknown, ctx: CallContext = {}): Promise<ToolCallOutcome> {
    let call: CallTarget;
    try {
      call = this.target(target, ctx.workspace, ctx.caller);
    } catch (err) {
      return Promise.reject(err);
    }
    // MCP Apps: a tool for its server's views only is never the model's or a client's to call, whatever
    // name reaches here (apps/appViews.ts calls it with `fromApp`).
    if (call.entry.appOnly && !ctx.fromApp)
      return Promise.reject(
        new MooringError(
          'not_found',
          `"${call.entry.modelName}" is for the ${call.entry.server} app's views only.`,
          'Open the tool result that shows the view, and use it there.',
        ),
      );
    // What the conversation read is an input of this call's verdict (docs/trust.md).
    if (ctx.readFrom?.length) call = { ...call, subject: { ...call.subject, readFrom: ctx.readFrom } };
    return runToolCall(this.runner, call, args, ctx);
  }

  /**
   * True when a call of this tool runs without asking anyone, as things stand now (its verdict, decided
   * now). What is shown of a call before its gate (an MCP App view's streamed arguments) is shown only
   * then: a view may send what it hears to its declared domains, and a call that will ask must not leak its
   * arguments before the person answers.
   */
  runsWithoutAsking(entry: CatalogEntry, workspace?: string): boolean {
    try {
      return decideGate(this.deps.gate, this.target(entry, workspace).subject).verdict.decision === 'auto';
    } catch {
      return false;
    }
  }

  /**
   * A name as a caller typed it: the exact model name even when the tool is disabled (so the gate refuses
   * and audits it), else a bare name or suffix among the enabled tools (throws `not_found`, naming
   * candidates when ambiguous).
   */
  resolve(name: string, workspace?: string): CatalogEntry {
    const catalog = this.catalog(workspace ? { workspace } : {});
    return catalog.get(name) ?? catalog.resolve(name);
  }

  /**
   * The latest state of each call in flight and of the last RECENT_CALLS ended, oldest first: what a UI
   * that connects (or reconnects) starts from before the stream's next events.
   */
  snapshot(): ToolCallEvent[] {
    return [...this.states.values()].map(foldEvents).sort((a, b) => a.seq - b.seq);
  }

  /**
   * Stamps the event's place in the stream, folds it into the call's state, and tells the subscribers.
   * The runner's steps come through here, and so do those of a task followed again after a restart
   * (tasks/taskService.ts): the same call's lifecycle, continued.
   */
  publish(e: UnstampedEvent): ToolCallEvent {
    // Stamped in place: the runner builds a fresh object per event and nobody has seen it yet.
    const event = e as ToolCallEvent;
    event.seq = ++this.seq;
    const key = callKey(event);
    const events = this.states.get(key);
    if (!events) this.states.set(key, [event]);
    else if (events.push(event) > FOLD_AFTER) events.splice(0, events.length, foldEvents(events));
    if (isTerminalPhase(event.phase)) {
      this.ended.push(key);
      while (this.ended.length > RECENT_CALLS) {
        const old = this.ended.shift()!;
        if (isTerminalPhase(this.states.get(old)?.at(-1)?.phase ?? 'done')) this.states.delete(old);
      }
    }
    this.emit('toolCall', event);
    return event;
  }

  /**
   * What a call of `target` goes to and what its verdict reads, now: the revision checked first, a name
   * resolved in the folder's catalog (once per revision), the session and its config read from the pool.
   */
  private target(
    target: string | CatalogEntry,
    workspace: string | undefined,
    caller: CallerKind = 'model',
  ): CallTarget {
    this.revision();
    let entry: CatalogEntry;
    if (typeof target !== 'string') entry = target;
    else {
      const key = workspace === undefined ? target : `${workspace}\u0000${target}`;
      const known = this.names.get(key);
      entry = known ?? this.resolve(target, workspace);
      if (!known) this.names.set(key, entry);
    }
    const actor =
      (workspace === undefined ? undefined : this.deps.folderSession(workspace, entry.server)) ??
      this.deps.pool.get(entry.server);
    return callTarget(entry, actor, this.deps.quarantine.quarantined(entry.server), caller);
  }

  /**
   * A person accepted a tool as its server lists it now (the Tools screen's "Accept change"): its pin
   * becomes this contract (safety/toolPins.ts), and it is treated by its annotations again.
   */
  async acceptChange(name: string, workspace?: string): Promise<void> {
    const { subject } = this.target(name, workspace);
    await this.deps.gate.pins?.accept(serverIdentity(subject.config), subject.tool);
    this.invalidate();
  }

  /** The user enabled a tool: a quarantine on it ends. */
  release(server: string, tool: string): void {
    this.deps.quarantine.release(server, tool);
    this.invalidate();
  }

  /** A server listed tools: a new one that is not read-only stays off until the user enables it. */
  private holdNewTools(server: string): void {
    const actor = this.deps.pool.get(server);
    if (!actor) return;
    // First sight pins each tool; a tool listed differently from its pin asks before its next call.
    const changed = this.deps.gate.pins?.changed(
      serverIdentity(actor.config),
      actor.tools().map((h) => h.definition),
    );
    for (const name of changed ?? [])
      actor.hostLog(
        'warning',
        `tool "${name}" changed since Mooring first saw it: its next call asks, with what changed`,
      );
    const held = this.deps.quarantine.observe(
      server,
      actor.tools().map((h) => ({ name: h.name, annotations: h.definition.annotations })),
    );
    for (const name of held)
      actor.hostLog(
        'warning',
        `new tool "${name}" is disabled until you enable it (it is not marked read-only)`,
      );
  }
}

/** A call's state: its events folded in order. */
const foldEvents = (events: ToolCallEvent[]): ToolCallEvent =>
  events.reduce((state, e) => foldCallEvent(state, e));
