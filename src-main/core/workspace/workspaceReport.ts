// What `mooring mcp list --workspace DIR` prints: every workspace server with its status and
// full command line or URL, what it overrides, the inputs it needs, and each broken file with its location.
import type { ServerConfig } from '@shared/config';
import type { WorkspaceScan } from './workspaceTypes';

const STATUS_WORDS = { approved: 'approved', pending: 'not approved', changed: 'changed since approval' };

/** Plain text lines, one block per server, for a terminal or a log. */
export function formatWorkspaceScan(scan: WorkspaceScan, globals: readonly ServerConfig[] = []): string[] {
  const lines = [`Workspace ${scan.workspace}`];
  if (scan.servers.length === 0 && scan.errors.length === 0) lines.push('  no workspace servers');
  for (const s of scan.servers) {
    const overrides = globals.some((g) => g.name === s.name) ? ` (overrides the global "${s.name}")` : '';
    lines.push(`  ${s.name}: ${STATUS_WORDS[s.status]}, from ${s.source}${overrides}`);
    lines.push(`    runs: ${s.commandLine}`);
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
