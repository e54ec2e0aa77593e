// A call plan per tool (ARCHITECTURE.md, "The path of one tool call"): everything about calling a tool
// that does not depend on the call's own arguments — the catalog entry, the session, the server's config,
// the fields its fingerprint covers, the fingerprint and the safety verdict — worked out once and kept
// until something it was made from changes. A call then does no name resolution, no catalog build, no
// fingerprint or approval lookup and no JSON serialisation for any of them.
//
// A plan is current while all of these hold, checked at every call (each check is a comparison):
// - the tools service has not been invalidated since (a session's state or tools, a filter, the new-tool
//   quarantine, the settings, a folder's servers: `CallPlans.invalidate`);
// - the tool's definition is the one the plan fingerprinted (a list_changed replaces it in place);
// - the session's config is the one the plan read (a filter or policy edit replaces it);
// - the YOLO switch and the remembered approvals are as the verdict saw them (`gatePlanIsCurrent`).
import type { ServerConfig } from '@shared/config';
import type { CatalogEntry } from '../catalog/catalog';
import type { SessionActor } from '../mcp/sessionActor';
import type { RetryableTool } from '../mcp/safeRetry';
import type { Tool } from '../mcp/types';
import {
  gatePlanIsCurrent,
  planGate,
  type GateDeps,
  type GatePlan,
  type GateSubject,
} from '../safety/approvalGate';

export interface CallPlan {
  readonly entry: CatalogEntry;
  /** The project folder whose sessions the plan picked from (undefined: the global ones). */
  readonly workspace: string | undefined;
  /** The session the call goes to when it was made (the handle calls through its own). */
  readonly actor: SessionActor | undefined;
  /** The definition the plan was made from (`entry.handle.definition` then). */
  readonly definition: Tool;
  /** What the safety gate reads: the server's config and the tool's fingerprinted fields. */
  readonly subject: GateSubject;
  readonly gate: GatePlan;
  /** What a safe retry needs to know (mcp/safeRetry.ts). */
  readonly retry: RetryableTool;
  readonly generation: number;
}

export interface CallPlanDeps {
  /** The session a call of `server` goes to, for a folder's conversation or globally. */
  actor: (server: string, workspace: string | undefined) => SessionActor | undefined;
  gate: Pick<GateDeps, 'store' | 'yolo'>;
}

const noKey = '\u0000';

export class CallPlans {
  private generation = 0;
  /** Plans by the entry a caller resolved in its own catalog (the chat's, per conversation). */
  private readonly byEntry = new WeakMap<CatalogEntry, CallPlan>();
  /** Plans by the name a caller typed (the CLI, the playground), per folder; dropped on invalidate. */
  private readonly byName = new Map<string, CallPlan>();

  constructor(private readonly deps: CallPlanDeps) {}

  /** Every plan is stale: the next call of each tool makes a new one. */
  invalidate(): void {
    this.generation++;
    this.byName.clear();
  }

  /** The plan for a name; `resolve` finds its entry when there is no current plan. */
  forName(name: string, workspace: string | undefined, resolve: () => CatalogEntry): CallPlan {
    const key = workspace === undefined ? name : `${workspace}${noKey}${name}`;
    const known = this.byName.get(key);
    if (known && this.isCurrent(known, workspace)) return known;
    const plan = this.forEntry(resolve(), workspace);
    this.byName.set(key, plan);
    return plan;
  }

  forEntry(entry: CatalogEntry, workspace: string | undefined): CallPlan {
    const known = this.byEntry.get(entry);
    if (known && this.isCurrent(known, workspace)) return known;
    const plan = this.make(entry, workspace);
    this.byEntry.set(entry, plan);
    return plan;
  }

  private isCurrent(plan: CallPlan, workspace: string | undefined): boolean {
    return (
      plan.generation === this.generation &&
      plan.workspace === workspace &&
      plan.definition === plan.entry.handle.definition &&
      (plan.actor === undefined || plan.actor.config === plan.subject.config) &&
      gatePlanIsCurrent(this.deps.gate, plan.gate)
    );
  }

  private make(entry: CatalogEntry, workspace: string | undefined): CallPlan {
    const actor = this.deps.actor(entry.server, workspace);
    const definition = entry.handle.definition;
    const subject: GateSubject = {
      config: actor?.config ?? fallbackConfig(entry.server),
      tool: fingerprintedFields(definition),
      enabled: entry.enabled,
      disabled: { reason: entry.excludedReason, hint: entry.excludedHint },
    };
    return {
      entry,
      workspace,
      actor,
      definition,
      subject,
      gate: planGate(this.deps.gate, subject),
      retry: { name: `${entry.server}/${entry.tool}`, annotations: definition.annotations },
      generation: this.generation,
    };
  }
}

/** A server with no session here (it was removed): the gate still decides and audits under its name. */
function fallbackConfig(server: string): GateSubject['config'] {
  const config: Pick<ServerConfig, 'name' | 'transport' | 'args' | 'policy'> = {
    name: server,
    transport: 'stdio',
    args: [],
    policy: 'default',
  };
  return config;
}

const fields = new WeakMap<Tool, GateSubject['tool']>();
/**
 * The fields a fingerprint covers, as one object per definition: the fingerprint is cached per object
 * (safety/toolFingerprint.ts), so a plan made again after an unrelated change does not hash the schema again.
 */
function fingerprintedFields(def: Tool): GateSubject['tool'] {
  let f = fields.get(def);
  if (!f) {
    f = {
      name: def.name,
      description: def.description,
      inputSchema: def.inputSchema,
      annotations: def.annotations,
      ...(def.title ? { title: def.title } : {}),
    };
    fields.set(def, f);
  }
  return f;
}
