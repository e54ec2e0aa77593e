// The tool set of one conversation (ARCHITECTURE.md, `catalog/`: deferred loading). Frozen when the conversation
// starts so prompt caches stay warm: a list_changed refresh (`updateCatalog`) changes what runs
// behind a model name, never the tool list already in the prompt. A removed tool fails explicitly
// when called. A tool the person switched on or off, or a new one that is on, joins or leaves the list at
// the next turn's start (`applySwitches`), and only then. Above the thresholds, schemas leave the
// prompt: the model sees a compact list of names plus `tool_search`, and what it activates stays.

import { MooringError } from '../errors';
import type { CatalogEntry, ToolCatalog } from './catalog';
import type { JsonSchema } from './schemaWalk';
import {
  parseSelect,
  parseToolSearchInput,
  TOOL_SEARCH_NAME,
  toolSearchDefinition,
  ToolSearchIndex,
} from './toolSearch';

export interface DeferThresholds {
  /** Defer when more tools than this are active. Default 40. */
  maxTools?: number;
  /** Defer when the active tools' schemas cost more tokens than this. Default 8,000. */
  maxTokens?: number;
}

export const DEFAULT_DEFER_THRESHOLDS: Required<DeferThresholds> = { maxTools: 40, maxTokens: 8000 };

/** A tool definition as it goes into a provider request. */
export interface ModelToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

export interface ToolSearchOutcome {
  /** What goes back to the model as the tool result. */
  text: string;
  /** Newly activated model names (their definitions join `modelTools()` from the next request). */
  activated: string[];
  alreadyActive: string[];
  notFound: string[];
}

export interface ConversationToolsState {
  mode: 'direct' | 'deferred';
  /** Model names frozen into the prompt at the start (direct) or listed as deferred. */
  frozen: string[];
  activated: string[];
}

export interface ConversationToolsOptions {
  thresholds?: DeferThresholds;
  /** Restore a stored conversation's tool state instead of deciding afresh. */
  restore?: ConversationToolsState;
  /** Offer tool_search in direct mode too, so tools added after the start can be loaded. Default false. */
  alwaysOfferToolSearch?: boolean;
}

function definitionOf(e: CatalogEntry): ModelToolDefinition {
  return { name: e.modelName, description: e.description, inputSchema: e.inputSchema };
}

/** Whether a catalog's active tools exceed the thresholds. */
export function shouldDefer(active: readonly CatalogEntry[], t: DeferThresholds = {}): boolean {
  const { maxTools, maxTokens } = { ...DEFAULT_DEFER_THRESHOLDS, ...t };
  if (active.length > maxTools) return true; // decided without tokenizing anything
  let tokens = 0;
  for (const e of active) if ((tokens += e.tokenCost) > maxTokens) return true;
  return false;
}

export class ConversationTools {
  readonly mode: 'direct' | 'deferred';
  private readonly offerSearch: boolean;
  private catalog: ToolCatalog;
  private index: ToolSearchIndex | undefined;
  /** Definitions frozen at the start (direct mode) — the prompt's list, never refreshed. */
  private readonly frozen = new Map<string, ModelToolDefinition>();
  /** Deferred mode: the compact name list frozen at the start (and at a turn's start, `applySwitches`). */
  private readonly deferred: string[] = [];
  /** Activated by tool_search, in activation order, snapshotted when activated. */
  private readonly activated = new Map<string, ModelToolDefinition>();
  /** Each tool's switch (on or off) as the prompt's list last took it. */
  private readonly switches = new Map<string, boolean>();

  constructor(catalog: ToolCatalog, opts: ConversationToolsOptions = {}) {
    this.catalog = catalog;
    this.offerSearch = opts.alwaysOfferToolSearch ?? false;
    const active = catalog.active();
    const restore = opts.restore;
    this.mode = restore?.mode ?? (shouldDefer(active, opts.thresholds) ? 'deferred' : 'direct');
    if (restore) {
      for (const name of restore.frozen) {
        const e = catalog.get(name);
        if (this.mode === 'direct' && e) this.frozen.set(name, definitionOf(e));
        if (this.mode === 'deferred') this.deferred.push(name);
      }
      for (const name of restore.activated) {
        const e = catalog.get(name);
        if (e) this.activated.set(name, definitionOf(e));
      }
    } else if (this.mode === 'direct') for (const e of active) this.frozen.set(e.modelName, definitionOf(e));
    else this.deferred.push(...active.map((e) => e.modelName));
    for (const e of catalog.switchable()) this.switches.set(e.modelName, e.enabled);
  }

  /**
   * At a turn's start: the tools switched on since the last turn join the prompt's list (in direct mode
   * at its end, in deferred mode the deferred names), those switched off leave it. A tool first seen now
   * and on (a server added mid-conversation, a read-only tool from a list_changed) joins it the same way:
   * a conversation without tool_search would never reach it otherwise. Nothing else changes the list, so
   * while nothing moved it is the same, byte for byte.
   */
  applySwitches(): { on: CatalogEntry[]; off: CatalogEntry[] } {
    const on: CatalogEntry[] = [];
    const off: CatalogEntry[] = [];
    for (const e of this.catalog.switchable()) {
      const was = this.switches.get(e.modelName);
      this.switches.set(e.modelName, e.enabled);
      if (was === e.enabled || (was === undefined && !e.enabled)) continue;
      const name = e.modelName;
      if (e.enabled) {
        on.push(e);
        if (this.mode === 'direct') this.frozen.set(name, definitionOf(e));
        else if (!this.deferred.includes(name)) this.deferred.push(name);
      } else {
        off.push(e);
        this.frozen.delete(name);
        this.activated.delete(name);
        const i = this.deferred.indexOf(name);
        if (i >= 0) this.deferred.splice(i, 1);
      }
    }
    return { on, off };
  }

  /** A list_changed refresh: calls now run against `catalog`; the prompt's list stays as it was. */
  updateCatalog(catalog: ToolCatalog): void {
    this.catalog = catalog;
    this.index = undefined;
  }

  /** The tools to send with every request of this conversation, in a stable order. */
  modelTools(): ModelToolDefinition[] {
    if (this.mode === 'deferred') return [toolSearchDefinition, ...this.activated.values()];
    // Direct mode: the frozen list, then (only if tool_search is offered) what it loaded later.
    return this.offerSearch
      ? [...this.frozen.values(), toolSearchDefinition, ...this.activated.values()]
      : [...this.frozen.values()];
  }

  /** Deferred mode: the names the model may load through tool_search. */
  deferredNames(): string[] {
    return [...this.deferred];
  }

  /** A system-prompt paragraph listing the deferred tools (empty in direct mode). */
  deferredListText(): string {
    if (this.mode === 'direct') return '';
    // Grouped by server so `mcp__<server>__` is said once per server, not once per tool: with
    // thousands of deferred tools the repeated prefix was most of the list's tokens (measured by the bench).
    const groups = new Map<string, string[]>();
    const whole: string[] = [];
    for (const name of this.deferred) {
      const m = /^(mcp__.+?__)(.+)$/.exec(name);
      if (!m) {
        whole.push(name);
        continue;
      }
      const list = groups.get(m[1]!) ?? [];
      list.push(m[2]!);
      groups.set(m[1]!, list);
    }
    const lines = [...groups].map(([prefix, tools]) => `${prefix}: ${tools.join(', ')}`);
    if (whole.length) lines.push(whole.join(', '));
    return (
      `${this.deferred.length} more tools are available but not loaded. Call ${TOOL_SEARCH_NAME} with ` +
      `"select:<name>" to load one, or describe what you need. A tool's name is its line's prefix ` +
      `followed by the tool, e.g. ${this.deferred[0] ?? 'mcp__server__tool'}. Deferred tools:\n${lines.join('\n')}`
    );
  }

  /** The current catalog's entry under this exact model name (no resolution, no visibility check). */
  entry(modelName: string): CatalogEntry | undefined {
    return this.catalog.get(modelName);
  }

  isToolSearch(name: string): boolean {
    return name === TOOL_SEARCH_NAME && (this.mode === 'deferred' || this.offerSearch);
  }

  /** Run the built-in tool_search. Bad input throws MooringError('usage') for the model to read. */
  runToolSearch(raw: unknown): ToolSearchOutcome {
    const input = parseToolSearchInput(raw);
    const select = parseSelect(input.query);
    const found: CatalogEntry[] = [];
    const notFound: string[] = [];
    const ambiguous: string[] = [];
    if (select) {
      for (const name of select) {
        const r = this.catalog.tryResolve(name);
        if (r.ok) found.push(r.entry);
        else if (r.candidates.length > 1) ambiguous.push(`${name} (${r.candidates.join(', ')})`);
        else notFound.push(name);
      }
    } else {
      this.index ??= new ToolSearchIndex(this.catalog.active());
      found.push(...this.index.search(input.query, input.maxResults));
    }
    const activated: string[] = [];
    const alreadyActive: string[] = [];
    for (const e of found) {
      if (this.activated.has(e.modelName) || this.frozen.has(e.modelName)) alreadyActive.push(e.modelName);
      else {
        this.activated.set(e.modelName, definitionOf(e));
        activated.push(e.modelName);
      }
    }
    const lines: string[] = [];
    const loaded = [...activated, ...alreadyActive];
    if (loaded.length) {
      lines.push(
        `Loaded ${loaded.length} tool${loaded.length === 1 ? '' : 's'}; you can call ${loaded.length === 1 ? 'it' : 'them'} now:`,
      );
      for (const e of found) lines.push(`- ${e.modelName}: ${e.description.split('\n')[0]}`);
    } else if (!select) lines.push(`No tools match "${input.query}".`);
    if (notFound.length) lines.push(`Not found: ${notFound.join(', ')}`);
    if (ambiguous.length) lines.push(`Ambiguous: ${ambiguous.join('; ')} — select by full name.`);
    return { text: lines.join('\n'), activated, alreadyActive, notFound };
  }

  /**
   * The live catalog entry behind a name the model called. A tool the server removed since the
   * conversation started fails here with a clear error; a deferred tool must be loaded first.
   */
  resolveCall(name: string): CatalogEntry {
    const visible = this.frozen.has(name) || this.activated.has(name);
    if (visible) {
      const live = this.catalog.get(name);
      if (!live || live.handle.removed)
        throw new MooringError(
          'not_found',
          `Tool "${name}" was removed by its server.`,
          'Use another tool; tool_search can find what is available now.',
        );
      if (!live.enabled)
        throw new MooringError(
          'not_found',
          `Tool "${name}" is disabled: ${live.excludedReason ?? 'no reason given'}.`,
          live.excludedHint,
        );
      return live;
    }
    const entry = this.catalog.resolve(name); // bare names and suffixes; throws not_found
    if (this.mode === 'deferred' && !this.activated.has(entry.modelName))
      throw new MooringError(
        'not_found',
        `Tool "${entry.modelName}" is not loaded yet.`,
        `Call ${TOOL_SEARCH_NAME} with {"query":"select:${entry.modelName}"} first.`,
      );
    if (this.mode === 'direct' && !this.frozen.has(entry.modelName) && !this.activated.has(entry.modelName))
      throw new MooringError(
        'not_found',
        `Tool "${entry.modelName}" appeared after this conversation started.`,
        this.offerSearch
          ? `Call ${TOOL_SEARCH_NAME} with {"query":"select:${entry.modelName}"} first.`
          : 'Start a new conversation to use it.',
      );
    return entry;
  }

  state(): ConversationToolsState {
    return {
      mode: this.mode,
      frozen: this.mode === 'direct' ? [...this.frozen.keys()] : [...this.deferred],
      activated: [...this.activated.keys()],
    };
  }
}
