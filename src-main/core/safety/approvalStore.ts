// Remembered "always allow" approvals (issue 4), persisted in `<home>/approvals.json` and pinned to the tool's
// fingerprint. When the server changes the tool, the fingerprint no longer matches and `lookup` reports the
// approval as lapsed with a diff against the snapshot the user approved.
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import type { ApprovalLookup } from '@shared/approval';
import { MooringError } from '../errors';
import {
  diffTools,
  snapshotTool,
  toolFingerprint,
  type FingerprintedTool,
  type ServerIdentity,
} from './toolFingerprint';

export const approvalsPath = (home: string) => join(home, 'approvals.json');

const IdentitySchema = z.object({
  name: z.string(),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  url: z.string().optional(),
});
const ToolSnapshotSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.unknown().optional(),
  annotations: z.record(z.string(), z.unknown()).optional(),
});
const EntrySchema = z.object({
  server: z.string().min(1),
  tool: z.string().min(1),
  fingerprint: z.string().regex(/^sha256:[0-9a-f]{64}$/, 'must be sha256:<64 hex digits>'),
  identity: IdentitySchema,
  snapshot: ToolSnapshotSchema,
  decidedBy: z.string(),
  at: z.number(),
});
const FileSchema = z.object({ version: z.literal(1), approvals: z.array(EntrySchema) }).strict();

export type ApprovalEntry = z.infer<typeof EntrySchema>;

const keyOf = (server: string, tool: string) => JSON.stringify([server, tool]);

export class ApprovalStore {
  private entries = new Map<string, ApprovalEntry>();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(readonly file: string) {}

  /** Opens the store; a missing file is an empty store, an invalid one is a clear error. */
  static async open(home: string): Promise<ApprovalStore> {
    const store = new ApprovalStore(approvalsPath(home));
    store.entries = await store.readFile();
    return store;
  }

  private async readFile(): Promise<Map<string, ApprovalEntry>> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
      throw err;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw this.invalid(err instanceof Error ? err.message : String(err), err);
    }
    const result = FileSchema.safeParse(parsed);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw this.invalid(
        `${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`,
        result.error,
      );
    }
    return new Map(result.data.approvals.map((e) => [keyOf(e.server, e.tool), e]));
  }

  private invalid(detail: string, cause: unknown): MooringError {
    return new MooringError(
      'config_invalid',
      `The approvals file ${this.file} is not valid (${detail}).`,
      'Fix the file, or delete it to forget every "always allow" (tools will ask again).',
      { cause },
    );
  }

  /** What is remembered for this tool as the server lists it now. */
  lookup(identity: ServerIdentity, tool: FingerprintedTool): ApprovalLookup {
    const entry = this.entries.get(keyOf(identity.name, tool.name));
    if (!entry) return { status: 'none' };
    const current = toolFingerprint(identity, tool);
    if (current === entry.fingerprint)
      return { status: 'allowed', fingerprint: entry.fingerprint, decidedBy: entry.decidedBy, at: entry.at };
    return {
      status: 'lapsed',
      approvedFingerprint: entry.fingerprint,
      currentFingerprint: current,
      diff: diffTools(
        { identity: entry.identity, tool: entry.snapshot as FingerprintedTool },
        { identity, tool: snapshotTool(tool) },
      ),
    };
  }

  /** Remembers "always allow" for exactly this version of the tool. */
  remember(input: { identity: ServerIdentity; tool: FingerprintedTool; decidedBy: string; at?: number }) {
    const entry: ApprovalEntry = {
      server: input.identity.name,
      tool: input.tool.name,
      fingerprint: toolFingerprint(input.identity, input.tool),
      identity: input.identity,
      snapshot: snapshotTool(input.tool) as ApprovalEntry['snapshot'],
      decidedBy: input.decidedBy,
      at: input.at ?? Date.now(),
    };
    return this.update((m) => m.set(keyOf(entry.server, entry.tool), entry)).then(() => entry);
  }

  /** Forgets one tool's approval, or every approval of a server when `tool` is omitted. */
  forget(server: string, tool?: string): Promise<number> {
    let removed = 0;
    return this.update((m) => {
      for (const [k, e] of m)
        if (e.server === server && (tool === undefined || e.tool === tool)) removed += Number(m.delete(k));
    }).then(() => removed);
  }

  list(): ApprovalEntry[] {
    return [...this.entries.values()];
  }

  /**
   * Read-modify-write, serialised in this process and re-reading the file first so an approval written
   * by another Mooring process (the CLI next to the app) is not lost. The write is atomic.
   */
  private update(mutate: (m: Map<string, ApprovalEntry>) => void): Promise<void> {
    const run = this.queue.then(async () => {
      const fresh = await this.readFile();
      mutate(fresh);
      await mkdir(dirname(this.file), { recursive: true });
      const body = { version: 1 as const, approvals: [...fresh.values()] };
      await writeFileAtomic(this.file, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
      this.entries = fresh;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
