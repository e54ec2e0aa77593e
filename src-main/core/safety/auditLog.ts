// The audit log: one JSON line per approval decision at `<home>/logs/audit.jsonl`, append-only.
// It says who decided what, when, and for which exact tool (the fingerprint). Argument VALUES never reach
// it — only their names and a keyed hash (HMAC-SHA-256 under the home's key, auditKey.ts) — because
// arguments carry tokens, paths and personal data, and a plain hash of a short value is reversed by guessing.
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { AuditDecision } from '@shared/approval';
import { jsonlAppender } from '../config/jsonlAppender';
import { homePaths } from '../home';
import { loadAuditKey } from './auditKey';
import { canonicalJson } from './toolFingerprint';

export const AuditEntrySchema = z.object({
  at: z.string(),
  server: z.string(),
  tool: z.string(),
  decision: z.enum(['auto', 'approve', 'always', 'deny', 'refuse', 'timeout', 'cancelled', 'revoke']),
  decidedBy: z.string(),
  fingerprint: z.string(),
  client: z.string().optional(),
  reason: z.string(),
  /**
   * The argument names, and HMAC-SHA-256 (hex) of their canonical JSON under the home's audit key; the
   * values are never written. Lines from before the key have `sha256` (a plain hash) instead.
   */
  args: z
    .object({ keys: z.array(z.string()), hmac: z.string().optional(), sha256: z.string().optional() })
    .optional(),
  /** True when the user edited the arguments before approving. */
  argsEdited: z.boolean().optional(),
  /** The call carried what the conversation read from other servers (docs/trust.md): the flow's sentence. */
  flow: z.string().optional(),
  /**
   * A skill's load, approval or revocation (docs/skills.md): its SKILL.md URI (`*`: every skill of the
   * server), and the `allowed-tools` the person granted with it.
   */
  skill: z.object({ uri: z.string(), grantedTools: z.array(z.string()).optional() }).optional(),
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
  /** The flow the call makes, when it makes one (shared/dataFlow.ts `describeFlow`). */
  flow?: string;
  /** A skill's load, approval or revocation (docs/skills.md). */
  skill?: { uri: string; grantedTools?: string[] };
  at?: Date;
}

/**
 * Names and a keyed hash only: enough to tell two calls apart or match a call to a trace within one home,
 * nothing to leak and nothing to reverse without the key.
 */
export function summariseArgs(args: Record<string, unknown>, key: Buffer): { keys: string[]; hmac: string } {
  return {
    keys: Object.keys(args).sort(),
    hmac: createHmac('sha256', key).update(canonicalJson(args), 'utf8').digest('hex'),
  };
}

export class AuditLog {
  readonly file: string;
  /** `logs/audit.key`: the HMAC key, beside the log. */
  readonly keyFile: string;
  private key?: Promise<Buffer>;
  /** The key once loaded: a record then writes its line at once, without a promise on the way. */
  private loadedKey: Buffer | undefined;
  /** Records still waiting for the key: later ones wait behind them, so lines keep the calls' order. */
  private waiting = 0;

  /**
   * `redact` masks every secret value this process knows out of free text (the core's
   * `SecretRedactor.redact`: one precompiled pattern, so a line costs no work per secret).
   */
  constructor(
    home: string,
    private readonly redact: (text: string) => string = (text) => text,
  ) {
    this.file = homePaths(home).audit;
    this.keyFile = join(homePaths(home).logs, 'audit.key');
  }

  /** Read (or made) once per log; a failure is not cached, so a fixed key file works on the next call. */
  private auditKey(): Promise<Buffer> {
    this.key ??= loadAuditKey(this.keyFile).then(
      (key) => (this.loadedKey = key),
      (err: unknown) => {
        this.key = undefined;
        throw err;
      },
    );
    return this.key;
  }

  /**
   * Appends one line through the home's one appender (one handle; whole lines even with `mooring serve`
   * appending too), and resolves once the line is written, before its fsync: a written line survives the
   * process being killed, the fsync follows in the background, and `close` waits for it (docs/data-on-disk.md,
   * "Data on disk"); waiting for each line's fsync cost more than the call itself.
   */
  record(input: AuditInput): Promise<AuditEntry> {
    const soon = this.recordSoon(input);
    return soon instanceof Promise ? soon : Promise.resolve(soon);
  }

  /**
   * `record` without a promise when none is needed, for the tool-call path: the entry when its line was
   * written before this returned (the key loaded, the file open, the first line of this tick), else the
   * promise of it (a line that follows in the same tick goes out in the tick's one write at its end:
   * config/jsonlAppender.ts). Either way the caller sends the request only once the line is written.
   */
  recordSoon(input: AuditInput): AuditEntry | Promise<AuditEntry> {
    const at = input.at ?? new Date();
    if (this.loadedKey && this.waiting === 0) {
      const appender = jsonlAppender(this.file);
      const entry = this.entry(input, at, this.loadedKey);
      // JSON.stringify escapes every newline inside strings, so a record is always exactly one line.
      const line = `${JSON.stringify(entry)}\n`;
      let soon;
      try {
        soon = appender.appendLineSoon(line);
      } catch (err) {
        return Promise.reject(err as Error);
      }
      if (soon === true) return entry;
      return (soon || appender.appendLine(line, { wait: 'written' })).then(() => entry);
    }
    // Every record waits for the key, with or without arguments: lines keep the order of the calls.
    this.waiting++;
    return this.auditKey()
      .then(async (key) => {
        const entry = this.entry(input, at, key);
        await jsonlAppender(this.file).append(entry, { wait: 'written' });
        return entry;
      })
      .finally(() => this.waiting--);
  }

  private entry(input: AuditInput, at: Date, key: Buffer): AuditEntry {
    // Built field by field in the schema's shape (no validation pass: every field is ours and typed).
    const entry: AuditEntry = {
      at: at.toISOString(),
      server: input.server,
      tool: input.tool,
      decision: input.decision,
      decidedBy: input.decidedBy,
      fingerprint: input.fingerprint,
      reason: this.redact(input.reason),
    };
    if (input.client !== undefined) entry.client = this.redact(input.client);
    if (input.arguments !== undefined) entry.args = summariseArgs(input.arguments, key);
    if (input.argsEdited) entry.argsEdited = true;
    if (input.flow !== undefined) entry.flow = this.redact(input.flow);
    // A skill's URI and tool names are the server's published names, not the person's data: in the clear.
    if (input.skill !== undefined)
      entry.skill = {
        uri: this.redact(input.skill.uri),
        ...(input.skill.grantedTools ? { grantedTools: input.skill.grantedTools } : {}),
      };
    return entry;
  }

  /** Waits for the pending lines and closes the file handle (the next record opens it again). */
  async close(): Promise<void> {
    // A line may still wait for the key (the first one makes it): it is on its way to the appender.
    await this.key?.catch(() => undefined);
    await jsonlAppender(this.file).close();
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
