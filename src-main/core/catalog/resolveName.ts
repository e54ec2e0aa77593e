// Resolving a tool name the model supplied (ARCHITECTURE.md, `catalog/`): the exact model name first; else a
// bare tool name, or a unique suffix of a model name, resolves when exactly one active tool matches.
// Ambiguity is an error that names every candidate, so the model can retry with the full name.

import { MooringError } from '../errors';

export interface NamedTool {
  modelName: string;
  server: string;
  tool: string;
}

export type Resolution<T> =
  | { ok: true; entry: T; via: 'exact' | 'bare' | 'suffix' }
  /** `candidates`: the model names that matched (two or more when ambiguous). */
  | { ok: false; error: MooringError; candidates: string[] };

function ambiguous<T extends NamedTool>(name: string, hits: T[]): MooringError {
  const list = hits.map((h) => `${h.modelName} (server "${h.server}")`).join(', ');
  return new MooringError(
    'not_found',
    `Tool name "${name}" is ambiguous: it matches ${list}.`,
    `Call it by its full name, one of: ${hits.map((h) => h.modelName).join(', ')}.`,
  );
}

/** A suffix must start at a word boundary and be long enough to mean something. */
function isBoundarySuffix(full: string, suffix: string): boolean {
  if (suffix.length < 3 || !full.endsWith(suffix) || full.length === suffix.length) return false;
  const before = full[full.length - suffix.length - 1];
  return before === '_' || before === '-';
}

/**
 * @param all every known tool (for exact model names, so a disabled tool gets a precise error)
 * @param isActive whether a tool may be called now (enabled and not removed)
 */
export function resolveToolName<T extends NamedTool>(
  name: string,
  all: ReadonlyMap<string, T>,
  isActive: (t: T) => boolean,
  inactiveReason: (t: T) => string,
): Resolution<T> {
  const exact = all.get(name);
  if (exact) {
    if (isActive(exact)) return { ok: true, entry: exact, via: 'exact' };
    return {
      ok: false,
      candidates: [exact.modelName],
      error: new MooringError(
        'not_found',
        `Tool "${name}" is not available: ${inactiveReason(exact)}.`,
        "Pick another tool, or enable this one in the server's tool settings.",
      ),
    };
  }
  const active = [...all.values()].filter(isActive);
  const bare = active.filter((t) => t.tool === name);
  if (bare.length === 1) return { ok: true, entry: bare[0]!, via: 'bare' };
  if (bare.length > 1)
    return { ok: false, error: ambiguous(name, bare), candidates: bare.map((t) => t.modelName) };
  const suffix = active.filter((t) => isBoundarySuffix(t.modelName, name));
  if (suffix.length === 1) return { ok: true, entry: suffix[0]!, via: 'suffix' };
  if (suffix.length > 1)
    return { ok: false, error: ambiguous(name, suffix), candidates: suffix.map((t) => t.modelName) };
  return {
    ok: false,
    candidates: [],
    error: new MooringError(
      'not_found',
      `No tool named "${name}".`,
      active.length
        ? 'Use a tool name exactly as listed, or find one with tool_search.'
        : 'No tools are active: connect or enable a server.',
    ),
  };
}
