// Approvals of workspace servers (issue 10): nothing from a workspace file runs until the user approves
// it, and the approval is pinned to the entry's content. The pin is a hash of the canonical JSON of the
// workspace path, the file it came from and the server as parsed, so any edit that changes what would
// run (command, arguments, env, URL, headers, trust…) asks again. Kept in `<home>/workspace-approvals.json`,
// zod-validated, written atomically.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import canonicalize from 'canonicalize';
import { z } from 'zod';
import type { ServerConfig } from '@shared/config';
import { readTextIfExists, writeJsonAtomic } from '../config/atomicJson';
import { MooringError } from '../errors';

export const workspaceApprovalsPath = (home: string) => join(home, 'workspace-approvals.json');

const PIN = /^sha256:[0-9a-f]{64}$/;
const RecordSchema = z
  .object({
    workspace: z.string().min(1),
    /** The file relative to the workspace, e.g. `.vscode/mcp.json`. */
    source: z.string().min(1),
    name: z.string().min(1),
    pin: z.string().regex(PIN, 'must be sha256:<64 hex digits>'),
    /** What the user saw when approving: shown next to the new one when the entry changes. */
    commandLine: z.string(),
    approvedAt: z.number(),
    decidedBy: z.string().optional(),
  })
  .strict();
const FileSchema = z.object({ version: z.literal(1), approvals: z.array(RecordSchema) }).strict();

export type WorkspaceApproval = z.infer<typeof RecordSchema>;

/** The content pin of one workspace server entry. */
export function workspacePin(input: { workspace: string; source: string; server: ServerConfig }): string {
  const text = canonicalize({ workspace: input.workspace, source: input.source, server: input.server }) ?? '';
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

const keyOf = (workspace: string, source: string, name: string) => JSON.stringify([workspace, source, name]);

export class WorkspaceApprovals {
  private records = new Map<string, WorkspaceApproval>();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(readonly file: string) {}

  /** A missing file is an empty store; an invalid one is a clear `config_invalid` error. */
  static async open(home: string): Promise<WorkspaceApprovals> {
    const store = new WorkspaceApprovals(workspaceApprovalsPath(home));
    store.records = await store.read();
    return store;
  }

  get(workspace: string, source: string, name: string): WorkspaceApproval | undefined {
    return this.records.get(keyOf(workspace, source, name));
  }

  list(workspace?: string): WorkspaceApproval[] {
    return [...this.records.values()].filter((r) => workspace === undefined || r.workspace === workspace);
  }

  /** Records the approval of exactly this content (replacing an older pin for the same entry). */
  approve(
    record: Omit<WorkspaceApproval, 'approvedAt'> & { approvedAt?: number },
  ): Promise<WorkspaceApproval> {
    const full: WorkspaceApproval = { ...record, approvedAt: record.approvedAt ?? Date.now() };
    const parsed = RecordSchema.parse(full);
    return this.update((m) => m.set(keyOf(parsed.workspace, parsed.source, parsed.name), parsed)).then(
      () => parsed,
    );
  }

  /** Forgets the approvals of a workspace (or of one file / one server in it). Returns how many. */
  forget(workspace: string, source?: string, name?: string): Promise<number> {
    let removed = 0;
    return this.update((m) => {
      for (const [k, r] of m)
        if (
          r.workspace === workspace &&
          (source === undefined || r.source === source) &&
          (name === undefined || r.name === name)
        )
          removed += Number(m.delete(k));
    }).then(() => removed);
  }

  /** Changes are serialised and re-read from disk first, so two processes approving lose neither. */
  private update(change: (m: Map<string, WorkspaceApproval>) => void): Promise<void> {
    const run = this.queue.then(async () => {
      const current = await this.read();
      change(current);
      await writeJsonAtomic(this.file, { version: 1, approvals: [...current.values()] });
      this.records = current;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async read(): Promise<Map<string, WorkspaceApproval>> {
    const text = await readTextIfExists(this.file);
    if (text === null || text.trim() === '') return new Map();
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw this.invalid((err as Error).message, err);
    }
    const result = FileSchema.safeParse(value);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw this.invalid(
        `${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`,
        result.error,
      );
    }
    return new Map(result.data.approvals.map((r) => [keyOf(r.workspace, r.source, r.name), r]));
  }

  private invalid(detail: string, cause: unknown): MooringError {
    return new MooringError(
      'config_invalid',
      `The workspace approvals file ${this.file} is not valid (${detail}).`,
      'Fix the file, or delete it: every workspace server will then ask for approval again.',
      { cause },
    );
  }
}
