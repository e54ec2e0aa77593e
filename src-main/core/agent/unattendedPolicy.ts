// The unattended policy (docs/schedules.md, "Schedules"): a scheduled run has nobody to ask, so a call runs
// only when its tool is marked read-only (MCP spec, "Tool annotations": readOnlyHint) or the user allowed it
// for this schedule; anything else is refused at once — not waited on — with what the user can do. The
// safety gate still decides every call that passes (a disabled tool stays refused, an `always-ask` server
// is refused because nobody can be asked); this is an extra fence in front of it that YOLO, `trust-all` and
// a remembered "always allow" do not open.
import type { CatalogEntry } from '../catalog/catalog';

export interface UnattendedPolicy {
  /** Who runs unattended, for the refusal text and the audit log: `schedule "Nightly report"`. */
  who: string;
  /** Model tool names allowed although not read-only; a trailing `*` matches a prefix. */
  allow: string[];
}

export type UnattendedVerdict = { run: true; allowed: boolean } | { run: false; reason: string };

const matches = (pattern: string, name: string) =>
  pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : pattern === name;

/** Whether an unattended caller may call this tool, and if it runs as allowed (pre-approved) or read-only. */
export function unattendedVerdict(
  policy: UnattendedPolicy,
  entry: Pick<CatalogEntry, 'modelName' | 'readOnly'>,
): UnattendedVerdict {
  if (policy.allow.some((p) => matches(p, entry.modelName))) return { run: true, allowed: true };
  if (entry.readOnly) return { run: true, allowed: false };
  return {
    run: false,
    reason: `${policy.who} runs unattended and "${entry.modelName}" is not marked read-only, so nobody could approve it (the user can allow it for this schedule)`,
  };
}

/** The system prompt's note for an unattended run: the model knows up front what will be refused. */
export const UNATTENDED_NOTE =
  'This conversation runs on a schedule with nobody watching. Only read-only tools and tools the user allowed for this schedule can run; any other call is refused. Do the task as far as those allow, then say what you did and what was refused.';
