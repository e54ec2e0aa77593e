// What `mooring mcp list --workspace DIR` and `mooring mcp approve NAME --workspace DIR` print: every
// workspace server with its status and full command line or URL, what else it may do and what is held
// back (config/importConsent.ts, the import's rule), what it overrides, the inputs it needs, and each broken
// file with its location.
import type { ServerConfig } from '@shared/config';
import { describeVariable } from '@shared/importConsent';
import type { OfferedServer, WorkspaceScan } from './workspaceTypes';

const STATUS_WORDS = { approved: 'approved', pending: 'not approved', changed: 'changed since approval' };

/** Plain text lines, one block per server, for a terminal or a log. */
export function formatWorkspaceScan(scan: WorkspaceScan, globals: readonly ServerConfig[] = []): string[] {
  const lines = [`Workspace ${scan.workspace}`];
  if (scan.servers.length === 0 && scan.errors.length === 0) lines.push('  no workspace servers');
  for (const s of scan.servers) {
    const overrides = globals.some((g) => g.name === s.name) ? ` (overrides the global "${s.name}")` : '';
    lines.push(`  ${s.name}: ${STATUS_WORDS[s.status]}, from ${s.source}${overrides}`);
    lines.push(...describeOffered(s));
    if (s.status === 'changed' && s.approvedCommandLine) lines.push(`    approved: ${s.approvedCommandLine}`);
    if (s.inputs.length)
      lines.push(
        `    asks for: ${s.inputs.map((i) => `${i.id}${i.password ? ' (secret)' : ''}${i.description ? ` — ${i.description}` : ''}`).join('; ')}`,
      );
    for (const w of s.warnings) lines.push(`    note: ${w}`);
  }
  for (const sh of scan.shadowed)
    lines.push(`  ${sh.name}: ignored in ${sh.source}, the same name is defined in ${sh.by}`);
  for (const e of scan.errors) {
    lines.push(`  ${e.source}: cannot be used`);
    for (const l of e.error.message.split('\n')) lines.push(`    ${l}`);
    if (e.error.hint) lines.push(`    ${e.error.hint}`);
  }
  return lines;
}

/**
 * What one offered server runs and may do, as the approval shows it: the command line, each grant, and
 * each held-back setting with whether the approval allowed it.
 */
export function describeOffered(s: OfferedServer): string[] {
  const lines = [`    runs: ${s.commandLine}`, `    ${s.confinement}`];
  for (const g of s.grants) lines.push(`    gives it: ${g.text}`);
  for (const v of s.variables) lines.push(`    variable: ${describeVariable(v)}`);
  for (const d of s.heldBack)
    lines.push(
      s.heldBackAllowed
        ? `    allowed when you approved it: ${d.text}`
        : `    held back unless you allow it: ${d.text}`,
    );
  return lines;
}
