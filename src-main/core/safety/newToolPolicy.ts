// New tools arriving through notifications/tools/list_changed: a server that was approved with
// three harmless tools must not gain a fourth, destructive one silently. Every new tool starts disabled
// unless it is marked read-only; the user enables it in the server's tool list.
import { hintsReadOnly, type ToolAnnotationHints } from '@shared/approval';

export interface ListedTool {
  name: string;
  annotations?: ToolAnnotationHints;
}

/**
 * The names of the tools in `current` that were not in `previous` and are not readOnlyHint:true — the ones
 * that must start disabled. `previous` undefined means the first listing after connect: the user configured
 * that server knowingly, so nothing is quarantined (the policy still asks before non-read-only calls).
 */
export function newToolsToDisable(
  previous: readonly ListedTool[] | undefined,
  current: readonly ListedTool[],
): string[] {
  if (previous === undefined) return [];
  const known = new Set(previous.map((t) => t.name));
  return current.filter((t) => !known.has(t.name) && !hintsReadOnly(t.annotations)).map((t) => t.name);
}
