// The audit log (issue 4): one JSON line per approval decision at `<home>/logs/audit.jsonl`, append-only.
// It says who decided what, when, and for which exact tool (the fingerprint). Argument VALUES never reach
// it — only their names and a hash — because arguments carry tokens, paths and personal data.
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { AuditDecision } from '@shared/approval';
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
  private queue: Promise<unknown> = Promise.resolve();

  /** `secrets` returns the secret values currently known (keychain values), masked out of free text. */
  constructor(
    home: string,
    private readonly secrets: () => readonly string[] = () => [],
  ) {
    this.file = homePaths(home).audit;
  }

  /** Appends one line. Writes are serialised so concurrent decisions never interleave within a line. */
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
    const line = `${JSON.stringify(AuditEntrySchema.parse(entry))}\n`;
    const run = this.queue.then(async () => {
      await mkdir(dirname(this.file), { recursive: true });
      await appendFile(this.file, line, { encoding: 'utf8', mode: 0o600, flag: 'a' });
    });
    this.queue = run.catch(() => undefined);
    return run.then(() => entry);
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
