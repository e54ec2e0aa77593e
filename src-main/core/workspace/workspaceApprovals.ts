// Approvals of workspace servers: nothing from a workspace file runs until the user approves
// it, and the approval is pinned to the entry's content. The pin is a hash of the canonical JSON of the
// workspace path, the file it came from and the server as parsed, so any edit that changes what would
// run (command, arguments, env, URL, headers, trust…) asks again. Kept in `<home>/workspace-approvals.json`
// through JsonFileStore (docs/data-on-disk.md, "Data on disk"): validated, changed under the file's lock,
// written atomically, and checked with one stat before each lookup, so an approval revoked in the app
// counts at once in a running `mooring serve` or `mooring web`.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import canonicalize from 'canonicalize';
import { z } from 'zod';
import type { ServerConfig } from '@shared/config';
import { ApprovalListFile } from '../config/approvalListFile';

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
    /**
     * The person also allowed the settings an import never carries that this entry asks for (trust,
     * trust-all, private-network reach…: config/importConsent.ts). Absent: they are held back.
     */
    heldBackAllowed: z.boolean().optional(),
    /** Secret-looking variables the person allowed into this remote server's URL or headers (docs/config-variables.md). */
    allowedVariables: z.array(z.string().max(200)).optional(),
  })
  .strict();
export type WorkspaceApproval = z.infer<typeof RecordSchema>;

/** The content pin of one workspace server entry. */
export function workspacePin(input: { workspace: string; source: string; server: ServerConfig }): string {
  const text = canonicalize({ workspace: input.workspace, source: input.source, server: input.server }) ?? '';
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

const keyOf = (workspace: string, source: string, name: string) => JSON.stringify([workspace, source, name]);

export class WorkspaceApprovals {
  private records = new Map<string, WorkspaceApproval>();
  private readonly store: ApprovalListFile<WorkspaceApproval>;

  private constructor(readonly file: string) {
    this.store = new ApprovalListFile(file, {
      entry: RecordSchema,
      key: (r) => keyOf(r.workspace, r.source, r.name),
      fileHint: (f) =>
        `Fix ${f} by hand (Mooring has not changed it), or delete it: every workspace server will then ask for approval again.`,
      changeHint: 'Approve the server again.',
    });
  }

  /** A missing file is an empty store; an invalid one is a clear `config_invalid` error. */
  static async open(home: string): Promise<WorkspaceApprovals> {
    const store = new WorkspaceApprovals(workspaceApprovalsPath(home));
    store.records = await store.store.read();
    return store;
  }

  get(workspace: string, source: string, name: string): WorkspaceApproval | undefined {
    this.refresh();
    return this.records.get(keyOf(workspace, source, name));
  }

  /** Reads the file again (another Mooring process may have approved one). */
  async reload(): Promise<void> {
    this.records = await this.store.read();
  }

  list(workspace?: string): WorkspaceApproval[] {
    this.refresh();
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

  /** Takes the file's records when another process changed it; an invalid file approves nothing. */
  private refresh(): void {
    try {
      this.records = this.store.readIfChanged() ?? this.records;
    } catch {
      this.records = new Map();
    }
  }

  /** Changes re-read the file under its lock first, so two processes approving lose neither. */
  private async update(change: (m: Map<string, WorkspaceApproval>) => void): Promise<void> {
    this.records = await this.store.update(change);
  }
}
