// The tool catalog (ARCHITECTURE.md, `catalog/`): every server's tools under model-safe names, with repaired schemas,
// filters applied, token costs, name resolution and argument preparation. Built from the session
// room's ToolHandles only (src-main/core/mcp/types.ts), never from the actor's internals.

import type { Tool, ToolAnnotations } from '@modelcontextprotocol/client';
import { friendlyName, ToolNameRegistry } from '@shared/toolNames';
import { hintsReadOnly } from '@shared/approval';
import { MooringError } from '../errors';
import type { ToolHandle } from '../mcp/types';
import type { Provider } from './adaptSchema';
import { coerceArgs, stripInternal, type ArgFix } from './argRepair';
import { serverExclusion, toolSetReason, type ServerToolFilter, type ToolSet } from './filters';
import { resolveToolName, type Resolution } from './resolveName';
import { unflattenArgs, type FlattenOptions } from './schemaFlatten';
import { processToolSchema, schemaExclusion, type ProcessedSchema } from './schemaPipeline';
import type { JsonSchema } from './schemaWalk';
import { tokenCostByServer, toolTokenCost } from './tokenCost';
import { isAppOnly } from './toolVisibility';

/** One server's contribution: its name, its tool filters (a ServerConfig fits), its live tools. */
export interface CatalogServerInput {
  server: string;
  config?: ServerToolFilter & { enabled?: boolean };
  tools: readonly ToolHandle[];
  /** New tools the quarantine holds back (safety/toolQuarantine.ts): off, and said so, until turned on. */
  held?: readonly string[];
  /** Tools listed differently from their pinned contract (safety/toolPins.ts), until a person accepts. */
  changed?: readonly string[];
}

export interface CatalogOptions {
  /** The provider whose schema rules the model-facing schemas follow. Default 'anthropic'. */
  provider?: Provider;
  /** A tool set: tools outside it are disabled. */
  toolSet?: ToolSet;
  flatten?: FlattenOptions;
}

export interface CatalogEntry {
  modelName: string;
  server: string;
  tool: string;
  /** What the UI shows (computed on first read). */
  readonly friendlyName: string;
  title: string | undefined;
  description: string;
  /** Model-facing schema (refs inlined, maybe flattened, adapted to the provider). Computed on first read. */
  readonly inputSchema: JsonSchema;
  /** The server's own schema with refs inlined: arguments are coerced against this. Computed on first read. */
  readonly serverSchema: unknown;
  outputSchema: unknown;
  annotations: ToolAnnotations | undefined;
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
  enabled: boolean;
  /** Listed differently from its pinned contract: asks before its next call; scoped clients do not get it. */
  contractChanged: boolean;
  /**
   * MCP Apps: the tool is for its server's views only (`_meta.ui.visibility` without "model"). The model
   * never gets it (`active`, `tryResolve`); a view calls it by its entry (apps/appViews.ts).
   */
  appOnly: boolean;
  /** Why the tool is off (filters, tool set, server disabled, or a schema no model accepts). */
  excludedReason: string | undefined;
  /** What the user can do about it, in one sentence (set with `excludedReason`). */
  excludedHint: string | undefined;
  /** Computed on first read, with `inputSchema`. */
  readonly flattened: boolean;
  /** What schema repair changed (computed on first read, with `inputSchema`). */
  readonly schemaNotes: string[];
  /** Prompt tokens of this tool's definition (computed on first read, then cached). */
  readonly tokenCost: number;
  handle: ToolHandle;
}

/** The CLI's `mcp tools --json` row. */
export interface ToolSummary {
  name: string;
  server: string;
  tool: string;
  description: string;
  readOnly: boolean;
  destructive: boolean;
  /** False for a tool the model does not get; `excludedReason` says why. */
  enabled: boolean;
  excludedReason?: string;
  /** Listed differently from its pinned contract (safety/toolPins.ts): its next call asks. */
  changed?: true;
}

export interface PreparedArguments {
  args: Record<string, unknown>;
  /** Every change made on the way to the server, for the log. */
  fixes: ArgFix[];
}

/**
 * An entry whose processed schema and token cost are computed on first read: tokenizing
 * or fully processing 5,000 schemas costs far more than the rest of a build, and in deferred mode
 * only the tools the model loads are ever read. Whether the schema excludes the tool is decided
 * at build time (`schemaExclusion`, cheap when provable), so `enabled` is exact from the start.
 * The definition is captured now: a later list_changed replaces `handle.definition`, and this
 * entry must keep describing the tool it was built from.
 */
class Entry implements CatalogEntry {
  modelName: string;
  server: string;
  tool: string;
  title: string | undefined;
  description: string;
  outputSchema: unknown;
  annotations: ToolAnnotations | undefined;
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
  enabled = true;
  contractChanged = false;
  appOnly: boolean;
  excludedReason: string | undefined = undefined;
  excludedHint: string | undefined = undefined;
  handle: ToolHandle;
  private readonly def: Tool;
  private readonly provider: Provider;
  private readonly flatten: FlattenOptions | undefined;
  private processedSchema: ProcessedSchema | undefined;
  /** The schema is known not to exclude the tool (proved by the precheck or processed). */
  private schemaFine = false;
  private modelSchema: JsonSchema | undefined;
  private cost: number | undefined;
  private friendly: string | undefined;

  constructor(server: string, modelName: string, handle: ToolHandle, opts: CatalogOptions) {
    const def: Tool = handle.definition;
    // annotationFlags (filters.ts), inline: this runs for every tool of every build.
    const a = def.annotations;
    const readOnly = hintsReadOnly(a);
    this.def = def;
    this.provider = opts.provider ?? 'anthropic';
    this.flatten = opts.flatten;
    this.modelName = modelName;
    this.server = server;
    this.tool = handle.name;
    this.title = def.title ?? a?.title;
    this.description = def.description ?? '';
    this.outputSchema = def.outputSchema;
    this.appOnly = isAppOnly(def);
    this.annotations = a;
    this.readOnly = readOnly;
    this.destructive = !readOnly && a?.destructiveHint !== false;
    this.idempotent = readOnly || a?.idempotentHint === true;
    this.openWorld = a?.openWorldHint !== false;
    this.handle = handle;
  }

  /** Why the schema keeps this tool out, without processing it when that is provably not so. */
  schemaExclusion(): string | undefined {
    if (this.processedSchema) return this.processedSchema.excludedReason;
    if (this.schemaFine) return undefined;
    const reason = schemaExclusion(this.def, this.provider, this.flatten);
    this.schemaFine = reason === undefined;
    return reason;
  }

  /** Take over what an entry of the previous catalog knew about the same definition, so a
   * rebuild over unchanged tools neither reprocesses nor re-checks their schemas. */
  inheritSchema(prev: CatalogEntry | undefined): void {
    if (
      !(prev instanceof Entry) ||
      prev.def !== this.def ||
      prev.provider !== this.provider ||
      prev.flatten?.maxDepth !== this.flatten?.maxDepth ||
      prev.flatten?.maxLeaves !== this.flatten?.maxLeaves
    )
      return;
    this.processedSchema = prev.processedSchema;
    this.schemaFine = prev.schemaFine;
  }

  private get processed(): ProcessedSchema {
    return (this.processedSchema ??= processToolSchema(this.def, this.provider, this.flatten));
  }

  get inputSchema(): JsonSchema {
    // An excluded tool's schema stands in as an empty object (what the UI shows), one per entry.
    return (this.modelSchema ??= this.processed.modelSchema ?? { type: 'object', properties: {} });
  }

  get friendlyName(): string {
    return (this.friendly ??= friendlyName(this.server, this.tool, this.title));
  }

  get serverSchema(): unknown {
    return this.processed.serverSchema;
  }

  get flattened(): boolean {
    return this.processed.flattened;
  }

  get schemaNotes(): string[] {
    return this.processed.notes;
  }

  get tokenCost(): number {
    return (this.cost ??= toolTokenCost({
      name: this.modelName,
      description: this.description,
      inputSchema: this.inputSchema,
    }));
  }
}

export class ToolCatalog {
  readonly provider: Provider;
  readonly entries: readonly CatalogEntry[];
  private readonly byName = new Map<string, CatalogEntry>();

  /** @param previous a catalog whose entries' schema work this one may reuse (see `rebuild`). */
  constructor(
    readonly inputs: readonly CatalogServerInput[],
    readonly options: CatalogOptions = {},
    previous?: ToolCatalog,
  ) {
    this.provider = options.provider ?? 'anthropic';
    const registry = new ToolNameRegistry();
    const entries: CatalogEntry[] = [];
    for (const input of inputs) {
      const filter = input.config ?? {};
      for (const handle of input.tools) {
        if (handle.removed) continue;
        const modelName = registry.add(input.server, handle.name);
        const entry = new Entry(input.server, modelName, handle, options);
        if (previous) entry.inheritSchema(previous.byName.get(modelName));
        entry.contractChanged = input.changed?.includes(handle.name) === true;
        const exclusion = exclusionOf(entry, { ...filter, held: input.held }, options.toolSet);
        if (exclusion) {
          entry.enabled = false;
          entry.excludedReason = exclusion.reason;
          entry.excludedHint = exclusion.hint;
        }
        entries.push(entry);
        this.byName.set(modelName, entry);
      }
    }
    this.entries = entries;
  }

  /** A new catalog over new inputs; unchanged definitions reuse their processed schemas. */
  rebuild(
    inputs: readonly CatalogServerInput[] = this.inputs,
    options: CatalogOptions = this.options,
  ): ToolCatalog {
    return new ToolCatalog(inputs, options, this);
  }

  /** Tools the model may call now: enabled, still listed by their server, and not for views only. */
  active(): CatalogEntry[] {
    return this.entries.filter((e) => e.enabled && !e.handle.removed && !e.appOnly);
  }

  /** Every tool still listed and not for views only, on or off: what a person's switch turns. */
  switchable(): CatalogEntry[] {
    return this.entries.filter((e) => !e.handle.removed && !e.appOnly);
  }

  excluded(): { modelName: string; reason: string; hint: string }[] {
    return this.entries
      .filter((e) => !e.enabled)
      .map((e) => ({ modelName: e.modelName, reason: e.excludedReason ?? '', hint: e.excludedHint ?? '' }));
  }

  get(modelName: string): CatalogEntry | undefined {
    return this.byName.get(modelName);
  }

  /** Resolve a model-supplied name; throws MooringError('not_found') naming candidates when ambiguous. */
  resolve(name: string): CatalogEntry {
    const r = this.tryResolve(name);
    if (!r.ok) throw r.error;
    return r.entry;
  }

  /** Like `resolve`, as a value: `{ok:false, error, candidates}` instead of a throw. */
  tryResolve(name: string): Resolution<CatalogEntry> {
    return resolveToolName(
      name,
      this.byName,
      (e) => e.enabled && !e.handle.removed && !e.appOnly,
      (e) =>
        e.handle.removed
          ? `server "${e.server}" no longer lists it`
          : e.appOnly
            ? 'it is for its server’s app views only'
            : (e.excludedReason ?? 'it is disabled'),
    );
  }

  summaries(opts: { includeDisabled?: boolean } = {}): ToolSummary[] {
    return (opts.includeDisabled ? this.entries.filter((e) => !e.handle.removed) : this.active()).map(
      (e) => ({
        name: e.modelName,
        server: e.server,
        tool: e.tool,
        description: e.description,
        readOnly: e.readOnly,
        destructive: e.destructive,
        enabled: e.enabled,
        ...(e.enabled ? {} : { excludedReason: e.excludedReason ?? 'it is disabled' }),
        ...(e.contractChanged ? { changed: true as const } : {}),
      }),
    );
  }

  tokenCostByServer(opts: { includeDisabled?: boolean } = {}): Record<string, number> {
    return tokenCostByServer(opts.includeDisabled ? this.entries : this.active());
  }

  /** Model arguments → server arguments (see `prepareArguments`). */
  prepareArguments(entry: CatalogEntry, modelArgs: unknown): PreparedArguments {
    return prepareArguments(entry, modelArgs);
  }
}

/**
 * Model arguments → server arguments: internal fields out, dot paths nested, types corrected. Needs only
 * the entry (its server schema), so a caller holding a resolved entry never fetches the catalog again.
 */
export function prepareArguments(entry: CatalogEntry, modelArgs: unknown): PreparedArguments {
  let raw: unknown = modelArgs ?? {};
  if (typeof raw === 'string') {
    try {
      raw = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch {
      throw new MooringError(
        'usage',
        `Arguments for ${entry.modelName} are not valid JSON.`,
        'Send the arguments as one JSON object.',
      );
    }
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new MooringError(
      'usage',
      `Arguments for ${entry.modelName} must be a JSON object.`,
      'Send the arguments as one JSON object, e.g. {"path": "…"}.',
    );
  const stripped = stripInternal(raw as Record<string, unknown>);
  const nested = unflattenArgs(stripped.args, entry.serverSchema);
  const coerced = coerceArgs(nested.args, entry.serverSchema);
  const fixes: ArgFix[] = [
    ...stripped.fixes,
    ...nested.expanded.map((path) => ({ path, kind: 'dot-path→nested' as const })),
    ...coerced.fixes,
  ];
  return { args: coerced.args, fixes };
}

/**
 * Why a tool is off and what to do about it, strongest first. A tool the server's config already turns
 * off needs no schema check at all; a schema no model accepts is the server's to fix, not a filter.
 */
function exclusionOf(
  entry: Entry,
  filter: ServerToolFilter & { enabled?: boolean; held?: readonly string[] | undefined },
  toolSet: ToolSet | undefined,
): { reason: string; hint: string } | undefined {
  // A tool for views only never reaches a model: only a disabled server keeps it from its views (each view's
  // call goes through the gate; docs/mcp-apps.md, "MCP Apps", Act).
  if (entry.appOnly)
    return filter.enabled === false ? serverExclusion(entry.server, entry.tool, filter) : undefined;
  const byServer = serverExclusion(entry.server, entry.tool, filter);
  if (byServer) return byServer;
  const schema = entry.schemaExclusion();
  if (schema)
    return {
      reason: schema.startsWith('its input schema')
        ? schema
        : `its input schema cannot be given to a model: ${schema}`,
      hint: `Server "${entry.server}" would have to simplify the tool's input schema; Mooring keeps it listed as excluded, with this reason.`,
    };
  const outside = toolSetReason(entry.modelName, toolSet);
  if (outside)
    return {
      reason: outside,
      hint: toolSet
        ? `Add it to tool set "${toolSet.name}" (in the app: Tool sets), or at a terminal: mooring toolset add "${toolSet.name}" ${[...toolSet.tools, entry.modelName].join(' ')}`
        : 'Add the tool to the tool set, or use another tool set.',
    };
  return undefined;
}

export function buildCatalog(inputs: readonly CatalogServerInput[], options?: CatalogOptions): ToolCatalog {
  return new ToolCatalog(inputs, options);
}
