// The built-in `tool_search` tool (ARCHITECTURE.md, `catalog/`): `select:a,b` activates exact
// tools; free text ranks tools by name, title and description with MiniSearch (BM25 with prefix
// and fuzzy matching, function words dropped) and activates the best `max_results`. Its name has
// no `mcp__` prefix, so it can never collide with a server's tool (shared/toolNames.ts).

import MiniSearch from 'minisearch';
import { MooringError } from '../errors';
import type { CatalogEntry } from './catalog';
import type { JsonSchema } from './schemaWalk';

export const TOOL_SEARCH_NAME = 'tool_search';
export const DEFAULT_MAX_RESULTS = 5;
const MAX_MAX_RESULTS = 50;

export const toolSearchDefinition: { name: string; description: string; inputSchema: JsonSchema } = {
  name: TOOL_SEARCH_NAME,
  description:
    'Load tools that are listed as deferred so you can call them. Use "select:<name>,<name>" to load tools by exact name, ' +
    'or describe what you need in a few words to load the best matches. Loaded tools stay available for the rest of the conversation.',
  inputSchema: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        description: 'Either "select:name1,name2" or a short description of the capability you need.',
      },
      max_results: {
        type: 'integer',
        description: `How many tools to load for a text query (default ${DEFAULT_MAX_RESULTS}).`,
        minimum: 1,
      },
    },
    required: ['query'],
  },
};

export interface ToolSearchInput {
  query: string;
  maxResults: number;
}

/** Validate the model's input; a bad input is a clear usage error the model can read. */
export function parseToolSearchInput(raw: unknown): ToolSearchInput {
  let v = raw;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      v = { query: v };
    }
  }
  const o = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
  const query = typeof o.query === 'string' ? o.query.trim() : '';
  if (!query)
    throw new MooringError(
      'usage',
      'tool_search needs a non-empty "query".',
      'Send {"query": "select:<tool name>"} or {"query": "<what you need>"}.',
    );
  const n = Number(o.max_results ?? DEFAULT_MAX_RESULTS);
  const maxResults =
    Number.isFinite(n) && n >= 1 ? Math.min(Math.floor(n), MAX_MAX_RESULTS) : DEFAULT_MAX_RESULTS;
  return { query, maxResults };
}

/** `select:a, b` → ['a','b']; undefined for a free-text query. */
export function parseSelect(query: string): string[] | undefined {
  const m = /^select:(.*)$/is.exec(query.trim());
  if (!m) return undefined;
  return [
    ...new Set(
      m[1]!
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/** Split identifiers the way people search for them: snake_case, kebab-case, camelCase, dots. */
function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * Function words dropped from the index and from queries. In OR mode a word in nearly every
 * description ("in", "a", "the") scores next to nothing by BM25, yet with prefix matching it pulls
 * every tool into the result set to be scored and sorted: at 5,000 tools that made queries like
 * "update ticket in github" cost 5–10 ms instead of under 1 (catalogScale bench). The list is short and
 * hand-picked on purpose: general stop-word lists (lunr's, `stopword`'s) also drop verbs such as
 * "get", "find" or "show", which are what tool names are made of.
 */
const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'for',
  'from',
  'in',
  'into',
  'is',
  'it',
  'its',
  'of',
  'on',
  'or',
  'that',
  'the',
  'this',
  'to',
  'when',
  'with',
]);

function processTerm(term: string): string | null {
  const t = term.toLowerCase();
  return STOP_WORDS.has(t) ? null : t;
}

interface Doc {
  id: string;
  tool: string;
  title: string;
  description: string;
  server: string;
}

export class ToolSearchIndex {
  private readonly index: MiniSearch<Doc>;
  private readonly byName = new Map<string, CatalogEntry>();

  constructor(entries: readonly CatalogEntry[]) {
    this.index = new MiniSearch<Doc>({
      fields: ['tool', 'title', 'description', 'server'],
      tokenize,
      processTerm,
      searchOptions: {
        boost: { tool: 3, title: 2, description: 1, server: 0.5 },
        prefix: true,
        fuzzy: 0.2,
        combineWith: 'OR',
      },
    });
    const docs: Doc[] = [];
    for (const e of entries) {
      this.byName.set(e.modelName, e);
      docs.push({
        id: e.modelName,
        tool: e.tool,
        title: e.title ?? '',
        description: e.description,
        server: e.server,
      });
    }
    this.index.addAll(docs);
  }

  /** Best matches first. */
  search(query: string, maxResults: number): CatalogEntry[] {
    const ids = topIds(this.index, query, maxResults);
    return ids ? this.entriesOf(ids) : this.searchAll(query, maxResults);
  }

  /** The same ranking through MiniSearch's own `search`, every match made and sorted: the fallback. */
  searchAll(query: string, maxResults: number): CatalogEntry[] {
    return this.entriesOf(
      this.index
        .search(query)
        .slice(0, maxResults)
        .map((r) => r.id),
    );
  }

  private entriesOf(ids: unknown[]): CatalogEntry[] {
    const out: CatalogEntry[] = [];
    for (const id of ids) {
      const e = this.byName.get(String(id));
      if (e) out.push(e);
    }
    return out;
  }
}

/** MiniSearch's raw matches by internal document id (its `executeQuery`, which `search` is built on). */
type RawResults = Map<number, { score: number; terms: string[] }>;
interface RawIndex {
  executeQuery?: (query: string, options: object) => RawResults;
  _documentIds: Map<number, unknown>;
}

/**
 * The ids of the best `k` matches, in the order MiniSearch's `search` ranks them (score × matched query
 * terms, descending; ties in match order, as its stable sort leaves them). `search` makes a result object
 * with its match details for every document that matches (about 700 of 5,000 tools for a short query)
 * and sorts them all, for the 5 a tool_search keeps: garbage that surfaced as collection pauses in the
 * p99 (README, "Performance"). Undefined when this MiniSearch has no `executeQuery` (the caller then
 * uses `searchAll`; toolSearch.test.ts checks both rank alike).
 */
function topIds(index: MiniSearch<Doc>, query: string, k: number): unknown[] | undefined {
  const raw = index as unknown as RawIndex;
  if (typeof raw.executeQuery !== 'function') return undefined;
  const best: { id: number; score: number }[] = [];
  for (const [id, { score, terms }] of raw.executeQuery(query, {})) {
    const s = score * (terms.length || 1);
    if (best.length === k && !(s > best[k - 1]!.score)) continue;
    // After every kept match of an equal or higher score: ties keep their match order.
    let i = best.length;
    while (i > 0 && best[i - 1]!.score < s) i--;
    best.splice(i, 0, { id, score: s });
    if (best.length > k) best.pop();
  }
  return best.map((b) => raw._documentIds.get(b.id));
}
