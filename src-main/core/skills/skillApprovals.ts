// Skill approvals bound to the manifest (ext-skills specification, Security Considerations, "Content-bound
// approval"): each is keyed by the pair (server, uri) ("Skill URIs": never the uri alone) and holds every
// (uri, digest) of the manifest the person saw. A listing with another set — a file rotated, added or
// removed — makes it `changed`: revoked until approved again, with the diff. "Always" lives in
// `<home>/skill-approvals.json` (an ApprovalListFile, like approvals.json: docs/data-on-disk.md), "for this
// conversation" in memory until Mooring restarts. A `"dynamic"` skill cannot be content-bound: nothing is
// remembered for it and it asks every time. Approval is per skill: a nested skill has its own ("Nested
// Skills").
import { join } from 'node:path';
import { z } from 'zod';
import type { SkillEntry, SkillView } from '@shared/skills';
import { ApprovalListFile } from '../config/approvalListFile';
import { diffManifests, manifestOf } from './skillVerify';

export const skillApprovalsPath = (home: string) => join(home, 'skill-approvals.json');

const ManifestFileSchema = z.object({
  uri: z.string().min(1),
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  size: z.number().int().nonnegative(),
});
const EntrySchema = z.object({
  server: z.string().min(1),
  uri: z.string().min(1),
  name: z.string(),
  /** The frontmatter's description as approved: what the model is shown beside the name. */
  description: z.string(),
  manifest: z.array(ManifestFileSchema).min(1),
  /** The person granted the skill's `allowed-tools` too (Security Considerations, "No implicit permission grants"). */
  toolsGranted: z.boolean(),
  allowedTools: z.array(z.string()),
  decidedBy: z.string(),
  at: z.number(),
});
export type SkillApprovalEntry = z.infer<typeof EntrySchema>;

/** A server's name never holds a NUL (shared/config.ts SERVER_NAME_PATTERN), so the key is unambiguous. */
const keyOf = (server: string, uri: string) => `${server}\u0000${uri}`;

export const allowedToolsOf = (entry: SkillEntry): string[] => {
  const v = entry.frontmatter['allowed-tools'];
  if (typeof v === 'string') return v.split(/\s+/).filter(Boolean);
  if (Array.isArray(v)) return v.filter((t): t is string => typeof t === 'string');
  return [];
};

export class SkillApprovals {
  private always = new Map<string, SkillApprovalEntry>();
  /** conversation id → its approvals (held until Mooring restarts). */
  private readonly conversations = new Map<string, Map<string, SkillApprovalEntry>>();
  private readonly store: ApprovalListFile<SkillApprovalEntry>;

  private constructor(readonly file: string) {
    this.store = new ApprovalListFile(file, {
      entry: EntrySchema,
      key: (e) => keyOf(e.server, e.uri),
      fileHint: (f) =>
        `Fix ${f} by hand (Mooring has not changed it), or delete it to forget every skill approval (skills will ask again).`,
      changeHint: 'This skill approval could not be remembered.',
    });
  }

  static async open(home: string): Promise<SkillApprovals> {
    const s = new SkillApprovals(skillApprovalsPath(home));
    s.always = await s.store.read();
    return s;
  }

  /** Where the approval of this entry stands now, for this conversation when one is named. */
  lookup(server: string, entry: SkillEntry, conversationId?: string): SkillView['approval'] {
    if (entry.resources === 'dynamic') return { state: 'dynamic' };
    this.refresh();
    const key = keyOf(server, entry.uri);
    const held = (conversationId && this.conversations.get(conversationId)?.get(key)) || undefined;
    const found = held ?? this.always.get(key);
    if (!found) return { state: 'none' };
    const scope = held ? 'conversation' : 'always';
    const diff = diffManifests(entry.uri, found.manifest, manifestOf(entry));
    const base = {
      scope,
      toolsGranted: found.toolsGranted,
      at: found.at,
      decidedBy: found.decidedBy,
    } as const;
    return diff.length ? { state: 'changed', ...base, diff } : { state: 'approved', ...base };
  }

  /** Approves exactly this manifest (a `"dynamic"` entry is refused: it cannot be bound to content). */
  async approve(input: {
    server: string;
    entry: SkillEntry;
    scope: 'always' | 'conversation';
    conversationId?: string;
    grantTools: boolean;
    decidedBy: string;
  }): Promise<SkillApprovalEntry> {
    const manifest = manifestOf(input.entry);
    if (!manifest.length) throw new Error('A dynamic skill cannot be approved ahead: it asks every time');
    const record: SkillApprovalEntry = {
      server: input.server,
      uri: input.entry.uri,
      name: input.entry.frontmatter.name,
      description: input.entry.frontmatter.description,
      manifest,
      toolsGranted: input.grantTools,
      allowedTools: allowedToolsOf(input.entry),
      decidedBy: input.decidedBy,
      at: Date.now(),
    };
    const key = keyOf(record.server, record.uri);
    if (input.scope === 'conversation' && input.conversationId) {
      let m = this.conversations.get(input.conversationId);
      if (!m) this.conversations.set(input.conversationId, (m = new Map()));
      m.set(key, record);
    } else this.always = await this.store.update((m) => m.set(key, record));
    return record;
  }

  /** Forgets one skill's approvals (every scope), or all of a server's when `uri` is omitted. */
  async revoke(server: string, uri?: string): Promise<number> {
    let removed = 0;
    const hit = (e: SkillApprovalEntry) => e.server === server && (uri === undefined || e.uri === uri);
    for (const m of this.conversations.values())
      for (const [k, e] of m) if (hit(e)) removed += Number(m.delete(k));
    this.always = await this.store.update((m) => {
      for (const [k, e] of m) if (hit(e)) removed += Number(m.delete(k));
    });
    return removed;
  }

  /** Every remembered "always" approval (the file as it is now). */
  list(): SkillApprovalEntry[] {
    this.refresh();
    return [...this.always.values()];
  }

  /** The approvals a conversation may use: its own, then the remembered ones. */
  forConversation(conversationId: string | undefined): SkillApprovalEntry[] {
    this.refresh();
    const own = (conversationId && this.conversations.get(conversationId)) || new Map();
    const merged = new Map([...this.always, ...own]);
    return [...merged.values()];
  }

  /** Another Mooring process (the CLI beside the app) may have changed the file. */
  private refresh(): void {
    try {
      const fresh = this.store.readIfChanged();
      if (fresh) this.always = fresh;
    } catch {
      // An invalid file approves nothing until it is fixed (the next change reports its problem).
      this.always = new Map();
    }
  }
}
