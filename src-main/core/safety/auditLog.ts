// The audit log: one JSON line per approval decision at `<home>/logs/audit.jsonl`, append-only.
// It says who decided what, when, and for which exact tool (the fingerprint). Argument VALUES never reach
// it — only their names and a hash — because arguments carry tokens, paths and personal data.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { AuditDecision } from '@shared/approval';
import { jsonlAppender } from '../config/jsonlAppender';
import { homePaths } from '../home';
import { canonicalJson, sha256Hex } from './toolFingerprint';
import { redactText } from './redact';

export const AuditEntrySchema = z.object({
  at: z.string(),
  server: z.string(),
  tool: z.string(),
  decision: z.enum(['auto', 'approve', 'always', 'deny', 'refuse', 'timeout', 'cancelled']),
  decidedBy: z.string(),
  fingerprint: z.string(),
  client: z.string().optional(),
  reason: z.string(),
  /** The argument names, and sha256 over their canonical JSON; the values are never written. */
  args: z.object({ keys: z.array(z.string()), sha256: z.string() }).optional(),
  /** True when the user edited the arguments before approving. */
  argsEdited: z.boolean().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export interface AuditInput {
  server: string;
  tool: string;
  decision: AuditDecision;
  decidedBy: string;
  fingerprint: string;
  client?: string;
  reason: string;
  /** The arguments the call runs with (hashed, never written raw). */
  arguments?: Record<string, unknown>;
  argsEdited?: boolean;
  at?: Date;
}

/** Names and a hash only: enough to tell two calls apart or match a call to a trace, nothing to leak. */
export function summariseArgs(args: Record<string, unknown>): { keys: string[]; sha256: string } {
  return { keys: Object.keys(args).sort(), sha256: sha256Hex(canonicalJson(args)) };
}

export class AuditLog {
  readonly file: string;

  /** `secrets` returns the secret values currently known (keychain values), masked out of free text. */
  constructor(
    home: string,
    private readonly secrets: () => readonly string[] = () => [],
  ) {
    this.file = homePaths(home).audit;
  }

  /**
   * Appends one line through the home's one appender (group commit: decisions made while a write is in
   * flight go out together in the next write, on one handle; whole lines even with `mooring serve`
   * appending too). A per-call open + write + close cost more than the tool call itself, and so did
   * waiting for each line's fsync.
   */
  record(input: AuditInput): Promise<AuditEntry> {
    const secrets = this.secrets();
    const entry: AuditEntry = {
      at: (input.at ?? new Date()).toISOString(),
      server: input.server,
      tool: input.tool,
      decision: input.decision,
      decidedBy: input.decidedBy,
      fingerprint: input.fingerprint,
      reason: redactText(input.reason, secrets),
    };
    if (input.client !== undefined) entry.client = redactText(input.client, secrets);
    if (input.arguments !== undefined) entry.args = summariseArgs(input.arguments);
    if (input.argsEdited) entry.argsEdited = true;
    // Resolved once the line is written, before its fsync: the tool-call runner waits for this alongside
    // the call, and a written line survives the process being killed (the fsync follows, and `close`
    // waits for it). See ARCHITECTURE.md, "Data on disk".
    return jsonlAppender(this.file)
      .append(AuditEntrySchema.parse(entry), { wait: 'written' })
      .then(() => entry);
  }

  /** Waits for the pending lines and closes the file handle (the next record opens it again). */
  close(): Promise<void> {
    return jsonlAppender(this.file).close();
  }

  /** Every entry, oldest first; a torn last line (crash mid-write) is skipped, not fatal. */
  async read(): Promise<AuditEntry[]> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const out: AuditEntry[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const parsed = AuditEntrySchema.safeParse(JSON.parse(line));
        if (parsed.success) out.push(parsed.data);
      } catch {
        // a torn line from a crash: skip it, the rest of the log stays readable
      }
    }
    return out;
  }
}
