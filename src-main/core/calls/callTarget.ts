// What one tool call goes to, and what its safety verdict reads about the server and the tool, read at the
// call (ARCHITECTURE.md, "The path of one tool call"): the session (a folder's own, else the global one),
// the server's config as that session has it now (its policy, its filters), the tool's definition as the
// server lists it now, and the tools the new-tool quarantine holds back now. Nothing is kept from one call
// to the next but memos of pure functions of one definition object (its fingerprinted fields here, its
// fingerprint in safety/toolFingerprint.ts).
import type { ServerConfig } from '@shared/config';
import type { CatalogEntry } from '../catalog/catalog';
import { serverExclusion } from '../catalog/filters';
import type { RetryableTool } from '../mcp/safeRetry';
import type { SessionActor } from '../mcp/sessionActor';
import type { Tool } from '../mcp/types';
import type { GateSubject } from '../safety/approvalGate';
import type { CallerKind } from '../safety/approvalPolicy';

export interface CallTarget {
  readonly entry: CatalogEntry;
  /** The session the call goes to (the handle calls through its own); undefined when there is none. */
  readonly actor: SessionActor | undefined;
  /** What the safety gate reads about the server and the tool. */
  readonly subject: GateSubject;
  /** What a safe retry needs to know (mcp/safeRetry.ts). */
  readonly retry: RetryableTool;
}

/**
 * The target of a call of `entry` now. The catalog that resolved the entry decided what the model is
 * offered (filters, tool set, schema); the server's filters and the quarantine are read again here, so an
 * entry a caller held across a change is refused all the same.
 * @param actor the session a call of the entry's server goes to now
 * @param held the tools of that server the quarantine holds back now
 * @param caller who wants the call (the gate asks a person about a tool that is off for models)
 */
export function callTarget(
  entry: CatalogEntry,
  actor: SessionActor | undefined,
  held: readonly string[] = [],
  caller: CallerKind = 'model',
): CallTarget {
  const definition = entry.handle.definition;
  const config = actor?.config ?? fallbackConfig(entry.server);
  const filter = actor ? { ...withHeld(actor.config, held), held } : { excludeTools: [...held], held };
  const off = entry.enabled
    ? serverExclusion(entry.server, entry.tool, filter)
    : { reason: entry.excludedReason, hint: entry.excludedHint };
  return {
    entry,
    actor,
    subject: {
      config,
      tool: fingerprintedFields(definition),
      enabled: off === undefined,
      ...(off ? { disabled: off } : {}),
      caller,
    },
    retry: { name: `${entry.server}/${entry.tool}`, annotations: definition.annotations },
  };
}

/** The server's filter with the quarantined tools excluded, as the catalog builds it (calls/toolService.ts). */
export function withHeld(config: ServerConfig, held: readonly string[]): ServerConfig {
  return held.length ? { ...config, excludeTools: [...config.excludeTools, ...held] } : config;
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
 * The fields a fingerprint covers, as one object per definition: the fingerprint is memoised per object
 * (safety/toolFingerprint.ts), so calls of an unchanged tool do not hash its schema again. A list_changed
 * replaces the definition object, so a changed tool is a new object and is fingerprinted anew.
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
