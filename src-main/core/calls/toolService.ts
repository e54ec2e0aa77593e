// The tools service (ARCHITECTURE.md, "The path of one tool call"): the catalog over every live session
// (per provider, tool set and project folder; new tools held back by the quarantine), the one gated
// call, and the one stream of the tool-call lifecycle. Every host calls tools here: the chat, the Tools
// playground, the CLI and `mooring serve`; the UI, the logs and the metrics read the stream.
import { EventEmitter } from 'node:events';
import type { ServerConfig } from '@shared/config';
import { MooringError } from '../errors';
import type { ToolOffReason } from '@shared/wire';
import { callKey, foldCallEvent, isTerminalPhase } from '@shared/toolCall';
import { buildCatalog, type CatalogEntry, type ToolCatalog } from '../catalog/catalog';
import type { Provider } from '../catalog/adaptSchema';
import type { ToolSet } from '../catalog/filters';
import type { SessionActor } from '../mcp/sessionActor';
import type { SessionPool } from '../mcp/sessionPool';
import type { ApprovalBroker } from '../safety/approvalBroker';
import type { GateDeps } from '../safety/approvalGate';
import type { ToolQuarantine } from '../safety/toolQuarantine';
import type { TaskService } from '../tasks/taskService';
import { CallPlans } from './callPlan';
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

export class ToolService extends EventEmitter<ToolServiceEvents> {
  /** One catalog per provider, tool set and folder, rebuilt only after a session changed. */
  private readonly catalogs = new Map<string, ToolCatalog>();
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
  /** Each tool's call plan (calls/callPlan.ts): made on its first call, remade after any change. */
  private readonly plans: CallPlans;

  constructor(private readonly deps: ToolServiceDeps) {
    super();
    this.runner = {
      gate: { ...deps.gate, broker: deps.approvals },
      broker: deps.approvals,
      publish: (e) => this.publish(e),
      ...(deps.tasks ? { tasks: deps.tasks } : {}),
      ...(deps.urlElicitation ? { urlElicitation: deps.urlElicitation } : {}),
    };
    this.plans = new CallPlans({
      actor: (s, workspace) =>
        (workspace === undefined ? undefined : deps.folderSession(workspace, s)) ?? deps.pool.get(s),
      gate: deps.gate,
    });
    deps.pool.on('status', () => this.invalidate());
    deps.pool.on('tools', (t) => {
      this.holdNewTools(t.server);
      this.invalidate();
    });
  }

  /** Drops every cached catalog (a session, a filter, the settings or a folder's servers changed). */
  invalidate(): void {
    this.catalogs.clear();
    this.plans.invalidate();
    this.emit('changed');
  }

  /** The catalog over every live session, its model-facing schemas adapted to one provider's rules. */
  catalog(query: CatalogQuery = {}): ToolCatalog {
    this.followQuarantine();
    const provider = query.provider ?? 'anthropic';
    const key = JSON.stringify([provider, query.toolSet ?? null, query.workspace ?? null]);
    const cached = this.catalogs.get(key);
    if (cached) return cached;
    const toolSet = query.toolSet ? this.deps.toolSet(query.toolSet) : undefined;
    const built = buildCatalog(
      this.deps.sessionsFor(query.workspace, this.deps.pool.list()).map((a) => {
        const held = this.deps.quarantine.quarantined(a.name);
        const config: ServerConfig = held.length
          ? { ...a.config, excludeTools: [...a.config.excludeTools, ...held] }
          : a.config;
        return { server: a.name, config, tools: a.tools(), held };
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
   * its provider's, tool set's and folder's) passes the entry; a name is resolved here, once, in the
   * folder's catalog. Either way the tool's call plan is reused until something it depends on changes.
   * Lifecycle events go to `ctx.onPhase` and to the `toolCall` stream.
   */
  call(target: string | CatalogEntry, args: unknown, ctx: CallContext = {}): Promise<ToolCallOutcome> {
    const workspace = ctx.workspace;
    this.followQuarantine();
    let plan;
    try {
      plan =
        typeof target === 'string'
          ? this.plans.forName(target, workspace, () => this.resolve(target, workspace))
          : this.plans.forEntry(target, workspace);
    } catch (err) {
      return Promise.reject(err);
    }
    // MCP Apps: a tool for its server's views only is never the model's or a client's to call, whatever
    // name reaches here (apps/appViews.ts calls it with `fromApp`).
    if (plan.entry.appOnly && !ctx.fromApp)
      return Promise.reject(
        new MooringError(
          'not_found',
          `"${plan.entry.modelName}" is for the ${plan.entry.server} app's views only.`,
          'Open the tool result that shows the view, and use it there.',
        ),
      );
    return runToolCall(this.runner, plan, args, ctx);
  }

  /**
   * A name as a caller typed it: the exact model name even when the tool is disabled (so the gate refuses
   * and audits it), else a bare name or suffix among the enabled tools (throws `not_found`, naming
   * candidates when ambiguous).
   */
  /**
   * True when a call of this tool runs without asking anyone, as things stand (its call plan's verdict).
   * What is shown of a call before its gate (an MCP App view's streamed arguments) is shown only then:
   * a view may send what it hears to its declared domains, and a call that will ask must not leak its
   * arguments before the person answers.
   */
  runsWithoutAsking(entry: CatalogEntry, workspace?: string): boolean {
    this.followQuarantine();
    try {
      return this.plans.forEntry(entry, workspace).gate.verdict.decision === 'auto';
    } catch {
      return false;
    }
  }

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

  /** The user enabled a tool: a quarantine on it ends. */
  release(server: string, tool: string): void {
    this.deps.quarantine.release(server, tool);
    this.invalidate();
  }

  /**
   * Another process changed the quarantine (the user enabled a held tool in the app, or `mooring serve`
   * held one back): what was built or planned with the old state is made again. One stat when nothing
   * changed (safety/toolQuarantine.ts).
   */
  private followQuarantine(): void {
    if (this.deps.quarantine.refresh()) this.invalidate();
  }

  /** A server listed tools: a new one that is not read-only stays off until the user enables it. */
  private holdNewTools(server: string): void {
    const actor = this.deps.pool.get(server);
    if (!actor) return;
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
