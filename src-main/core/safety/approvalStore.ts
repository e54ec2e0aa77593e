// Remembered "always allow" approvals, persisted in `<home>/approvals.json` and pinned to the tool's
// fingerprint. When the server changes the tool, the fingerprint no longer matches and `lookup` reports the
// approval as lapsed with a diff against the snapshot the user approved. The file is a JsonFileStore
// (docs/data-on-disk.md, "Data on disk"): every change re-reads it under its lock, so an approval written by
// another Mooring process (the CLI next to the app) is kept; and every lookup first checks the file with
// one stat, so an approval revoked in the app stops working at once in a running `mooring serve` or
// `mooring web` (every call decides afresh with what the file holds then).
import { join } from 'node:path';
import { z } from 'zod';
import type { ApprovalLookup } from '@shared/approval';
import { ApprovalListFile } from '../config/approvalListFile';
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
export type ApprovalEntry = z.infer<typeof EntrySchema>;

/** A server's name never holds a NUL (shared/config.ts SERVER_NAME_PATTERN), so the key is unambiguous. */
const keyOf = (server: string, tool: string) => `${server}\u0000${tool}`;

export class ApprovalStore {
  /**
   * The file as this process last read it: `lookup` is on the tool-call path and stays in memory, brought
   * up to date by `refresh` (one stat) whenever another process changed the file.
   */
  private entries = new Map<string, ApprovalEntry>();
  private version = 0;
  /** The file was checked in the current synchronous run (`refresh`). */
  private checked = false;
  private readonly store: ApprovalListFile<ApprovalEntry>;

  private constructor(readonly file: string) {
    this.store = new ApprovalListFile(file, {
      entry: EntrySchema,
      key: (e) => keyOf(e.server, e.tool),
      fileHint: (f) =>
        `Fix ${f} by hand (Mooring has not changed it), or delete it to forget every "always allow" (tools will ask again).`,
      changeHint: 'This approval could not be remembered.',
    });
  }

  /** Opens the store; a missing file is an empty store, an invalid one is a clear error. */
  static async open(home: string): Promise<ApprovalStore> {
    const store = new ApprovalStore(approvalsPath(home));
    store.entries = await store.store.read();
    return store;
  }

  /**
   * Goes up whenever the remembered approvals changed, in this process or another (a `VerdictSource`:
   * the call path's one revision moves with it, calls/callRevision.ts). Checks the file first (one stat).
   */
  /**
   * Whether "always allow" is remembered and honoured (the managed policy may turn it off; then every call
   * is asked on its own). The revision changes with it, so a call plan made before sees the change.
   */
  rememberingAllowed: () => boolean = () => true;

  revision(): number {
    this.refresh();
    return this.version * 2 + (this.rememberingAllowed() ? 0 : 1);
  }

  /** What is remembered for this tool as the server lists it now (the file as it is now). */
  lookup(identity: ServerIdentity, tool: FingerprintedTool): ApprovalLookup {
    this.refresh();
    const entry = this.entries.get(keyOf(identity.name, tool.name));
    if (!entry || !this.rememberingAllowed()) return { status: 'none' };
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
    if (!this.rememberingAllowed()) return Promise.resolve(entry);
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
    this.refresh();
    return [...this.entries.values()];
  }

  /** Reads the file again: another Mooring process (the CLI, `mooring serve`) may have remembered one. */
  async reload(): Promise<ApprovalEntry[]> {
    this.entries = await this.store.read();
    this.version++;
    return this.list();
  }

  /**
   * Takes the file's entries when another process (or a hand edit) changed it. A file that became invalid
   * remembers nothing until it is fixed: every tool asks again rather than run on approvals that may have
   * been revoked (the next change or Permissions view reports the file's problem with its place).
   */
  private refresh(): void {
    // One check per synchronous run: a call checks the revision, then looks up, with no I/O in between,
    // so a second stat could not see a change the first could not (the change is simply after both).
    if (this.checked) return;
    this.checked = true;
    queueMicrotask(() => (this.checked = false));
    let fresh: Map<string, ApprovalEntry> | undefined;
    try {
      fresh = this.store.readIfChanged();
    } catch {
      fresh = new Map();
    }
    if (!fresh) return;
    this.entries = fresh;
    this.version++;
  }

  /** Read-modify-write of the file as it is now (JsonFileStore: under its lock, atomic). */
  private async update(mutate: (m: Map<string, ApprovalEntry>) => void): Promise<void> {
    this.entries = await this.store.update(mutate);
    this.version++;
  }
}
