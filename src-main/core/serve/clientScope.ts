// Who an external MCP client is and what it may do: every connection has an
// identity (the client name from the stdio handshake, or the HTTP token's label) and a scope. A scope can
// be read-only (only tools marked read-only, and no memory writes or agent sessions) and/or limited to a
// tool set. The scope is checked before the call reaches the catalog and the safety engine, so a scoped
// client never even raises an approval for a tool it may not use.
import { z } from 'zod';

export const ClientScopeSchema = z
  .object({
    /** Only tools marked read-only (readOnlyHint: true). */
    readOnly: z.boolean().optional(),
    /**
     * Only these tools, by exposed name (`mcp__server__tool`, `memory_search`, …); a trailing `*` matches a
     * prefix, e.g. `mcp__files__*`.
     */
    tools: z.array(z.string().min(1)).optional(),
  })
  .strict();
export type ClientScope = z.infer<typeof ClientScopeSchema>;

export const FULL_SCOPE: ClientScope = {};

export interface ClientIdentity {
  /** Written to the audit log and shown in the approval dialog. */
  name: string;
  scope: ClientScope;
}

export type ScopeVerdict = { ok: true } | { ok: false; reason: string };

function matches(pattern: string, name: string): boolean {
  return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : pattern === name;
}

/**
 * Whether `scope` lets the client see and call the tool `name` (readOnly: the tool is marked read-only;
 * changed: it left its pinned contract, safety/toolPins.ts, and a read-only client gets it only once a person
 * accepted the change, whatever its annotations now claim).
 */
export function scopeAllows(
  scope: ClientScope,
  tool: { name: string; readOnly: boolean; changed?: boolean },
): ScopeVerdict {
  if (scope.tools && !scope.tools.some((p) => matches(p, tool.name)))
    return { ok: false, reason: `"${tool.name}" is not in this client's tool set` };
  if (scope.readOnly && tool.changed)
    return {
      ok: false,
      reason: `"${tool.name}" changed since Mooring first saw it; a read-only client gets it once the user accepts the change in Mooring (Tools)`,
    };
  if (scope.readOnly && !tool.readOnly)
    return {
      ok: false,
      reason: `this client has a read-only scope and "${tool.name}" is not marked read-only`,
    };
  return { ok: true };
}

export function describeScope(scope: ClientScope): string {
  const parts: string[] = [];
  if (scope.readOnly) parts.push('read-only');
  if (scope.tools) parts.push(`tools: ${scope.tools.join(', ')}`);
  return parts.length ? parts.join('; ') : 'full';
}
