// The skills service (`core.skills`, docs/skills.md): the servers' skills per server, approvals bound to
// their manifests, and the one skill-loading path (ext-skills specification, "Reading Skill Content": a
// `resources/read` alone never loads a skill). Loading takes the skill's current entry, asks the person
// when no approval covers that manifest (with the diff when it changed; a `"dynamic"` skill always asks),
// reads the file from the skill's own server only ("Origin-scoped resource reads") and verifies it before
// use; a mismatch is refused with its reason and written to the log. Mooring never runs a skill's scripts
// and never honours `allowed-tools` without the person's explicit grant (Security Considerations).
import type { ApprovalDecision, ApprovalRequestInput, ToolChange } from '@shared/approval';
import type { LogLine } from '@shared/session';
import {
  SkillApproveInputSchema,
  type SkillApproveInput,
  type SkillEntry,
  type SkillFileContent,
  type SkillPermission,
  type SkillServerView,
  type SkillView,
} from '@shared/skills';
import { MooringError, toErrorData } from '../errors';
import type { SkillApprovals } from './skillApprovals';
import { allowedToolsOf } from './skillApprovals';
import type { SkillCatalog } from './skillCatalog';
import { disambiguate, enclosingSkill, skillView } from './skillViews';
import {
  bytesOf,
  listedFile,
  manifestOf,
  pathIn,
  SkillVerificationError,
  verifyBytes,
  verifyFrontmatter,
} from './skillVerify';

export interface SkillsServiceDeps {
  catalog: SkillCatalog;
  approvals: SkillApprovals;
  /** Reads one resource from the named server's own session. */
  readResource: (server: string, uri: string, signal?: AbortSignal) => Promise<{ contents: unknown[] }>;
  /** Parks a question for the person (the approval broker's `request`). */
  ask?: (input: ApprovalRequestInput, opts: { signal?: AbortSignal }) => Promise<ApprovalDecision>;
  /** Log lines go to the server's Logs and the core's log. */
  log: (line: LogLine) => void;
}

/** Who loads a skill, and whether anybody can be asked. */
export interface SkillLoadContext {
  conversationId?: string;
  signal?: AbortSignal;
  /** False when nobody can answer (a script without a terminal, a scheduled run). */
  interactive: boolean;
  /** Who asked, for the dialog (`conversation:<id>`, `cli`). */
  client?: string;
}

/** An approved skill as the model is shown it (name and description only, like a deferred tool). */
export interface ApprovedSkill {
  server: string;
  uri: string;
  name: string;
  description: string;
}

export class SkillsService {
  constructor(private readonly deps: SkillsServiceDeps) {}

  /** Every ready server that declares the extension, with its skills (labels disambiguated across all). */
  async servers(opts: { refresh?: boolean; conversationId?: string } = {}): Promise<SkillServerView[]> {
    const servers = this.deps.catalog.servers();
    const views = await Promise.all(servers.map((s) => this.serverView(s, opts)));
    const labelled = disambiguate(views.flatMap((v) => v.skills));
    return views.map((v) => ({ ...v, skills: labelled.filter((s) => s.server === v.server) }));
  }

  /** One server's skills (labels disambiguated within it; `servers` also across servers). */
  async server(
    server: string,
    opts: { refresh?: boolean; conversationId?: string } = {},
  ): Promise<SkillServerView> {
    const all = await this.servers(opts);
    const found = all.find((v) => v.server === server);
    if (found) return found;
    // Not a declaring server: the catalog says why (not running, or no extension).
    await this.deps.catalog.list(server);
    return { server, skills: [], invalid: [] };
  }

  private async serverView(
    server: string,
    opts: { refresh?: boolean; conversationId?: string },
  ): Promise<SkillServerView> {
    try {
      const listing = await this.deps.catalog.list(server, opts.refresh ? { refresh: true } : {});
      const uris = listing.skills.map((s) => s.uri);
      return {
        server,
        skills: listing.skills.map((e) =>
          skillView(
            server,
            e,
            this.deps.approvals.lookup(server, e, opts.conversationId),
            enclosingSkill(e.uri, uris),
          ),
        ),
        invalid: listing.invalid,
      };
    } catch (err) {
      return { server, skills: [], invalid: [], error: toErrorData(err).message };
    }
  }

  /** One skill as it is now (skills/get), with its approval. */
  async skill(server: string, uri: string, conversationId?: string): Promise<SkillView> {
    const entry = await this.deps.catalog.entry(server, uri, { refresh: true });
    const listing = await this.deps.catalog.list(server).catch(() => undefined);
    const nested = enclosingSkill(uri, listing?.skills.map((s) => s.uri) ?? []);
    return skillView(server, entry, this.deps.approvals.lookup(server, entry, conversationId), nested);
  }

  /** Approves the skill's manifest as the person was shown it (the entry held now). */
  async approve(input: SkillApproveInput & { decidedBy: string }): Promise<SkillView> {
    const { decidedBy, ...rest } = input;
    const a = SkillApproveInputSchema.parse(rest);
    const entry = await this.deps.catalog.entry(a.server, a.uri);
    if (entry.resources === 'dynamic')
      throw new MooringError(
        'refused',
        `${a.uri} from "${a.server}" is dynamic: it has no digests to bind an approval to, so it asks every time it is loaded.`,
      );
    await this.deps.approvals.approve({
      server: a.server,
      entry,
      scope: a.scope,
      ...(a.conversationId ? { conversationId: a.conversationId } : {}),
      grantTools: a.grantTools,
      decidedBy,
    });
    return this.skill(a.server, a.uri, a.conversationId);
  }

  async revoke(server: string, uri?: string): Promise<number> {
    return this.deps.approvals.revoke(server, uri);
  }

  /** Every remembered skill approval, for Permissions. */
  permissions(): SkillPermission[] {
    return this.deps.approvals
      .list()
      .map((e) => ({
        server: e.server,
        uri: e.uri,
        name: e.name,
        files: e.manifest.length,
        toolsGranted: e.toolsGranted,
        decidedBy: e.decidedBy,
        at: e.at,
      }))
      .sort((a, b) => b.at - a.at);
  }

  /** The approved skills a conversation's model is shown, from servers running now. */
  approvedFor(conversationId: string | undefined): ApprovedSkill[] {
    const running = new Set(this.deps.catalog.servers());
    return this.deps.approvals
      .forConversation(conversationId)
      .filter((e) => running.has(e.server))
      .map((e) => ({ server: e.server, uri: e.uri, name: e.name, description: e.description }));
  }

  /**
   * A verified file of a skill for the person to inspect (Security Considerations, "Provenance and
   * inspection"): no approval needed, nothing loaded into a model's context.
   */
  async inspect(server: string, uri: string, file?: string, signal?: AbortSignal): Promise<SkillFileContent> {
    const entry = await this.deps.catalog.entry(server, uri, signal ? { signal } : {});
    return this.read(server, entry, file, signal);
  }

  /**
   * The skill-loading path: the current entry, the person's approval for it, then a verified read. A read
   * that fails verification against a cached entry takes the entry afresh once ("Verification on Read":
   * a stale entry); a new manifest is a changed skill, asked about again with its diff; the same manifest
   * keeps the refusal.
   */
  async load(
    input: { server: string; uri: string; file?: string },
    ctx: SkillLoadContext,
  ): Promise<SkillFileContent> {
    const { server, uri } = input;
    const signal = ctx.signal ? { signal: ctx.signal } : {};
    // Loading SKILL.md activates the skill: its entry is taken afresh (skills/get), so the approval is
    // checked against the manifest served now. A supporting file is read under the held entry.
    const entry = await this.deps.catalog.entry(server, uri, { ...signal, refresh: !input.file });
    try {
      return await this.loadEntry(server, entry, input.file, ctx);
    } catch (err) {
      if (!(err instanceof SkillVerificationError)) throw err;
      const fresh = await this.deps.catalog.entry(server, uri, { refresh: true, ...signal });
      if (JSON.stringify(manifestOf(fresh)) === JSON.stringify(manifestOf(entry))) throw err;
      return this.loadEntry(server, fresh, input.file, ctx);
    }
  }

  private async loadEntry(
    server: string,
    entry: SkillEntry,
    file: string | undefined,
    ctx: SkillLoadContext,
  ) {
    const approval = this.deps.approvals.lookup(server, entry, ctx.conversationId);
    if (approval.state !== 'approved') await this.askFor(server, entry, approval, ctx);
    return this.read(server, entry, file, ctx.signal);
  }

  private async askFor(
    server: string,
    entry: SkillEntry,
    approval: SkillView['approval'],
    ctx: SkillLoadContext,
  ): Promise<void> {
    const name = entry.frontmatter.name;
    const why =
      approval.state === 'changed'
        ? `the skill changed since it was approved (${approval.diff!.map((d) => d.summary).join('; ')})`
        : approval.state === 'dynamic'
          ? 'the skill is dynamic (no digests): it asks every time'
          : 'the skill is not approved';
    if (!ctx.interactive || !this.deps.ask)
      throw new MooringError(
        'refused',
        `Loading skill "${name}" (${entry.uri}) from "${server}" needs your approval: ${why}.`,
        `Look at it and approve it on the Skills screen, or: mooring mcp skill ${server} ${entry.uri} --approve`,
      );
    const tools = allowedToolsOf(entry);
    const files = manifestOf(entry).map((f) => `${pathIn(entry.uri, f.uri)} (${f.size} bytes)`);
    const decision = await this.deps.ask(
      {
        server,
        tool: 'load_skill',
        friendlyName: `skill "${name}" from ${server}`,
        annotations: { readOnlyHint: true },
        arguments: { uri: entry.uri, files: entry.resources === 'dynamic' ? 'dynamic' : files },
        fingerprint: manifestOf(entry)[0]?.digest ?? 'dynamic',
        reason:
          `${why}. Its text is untrusted instructions written by "${server}"` +
          (tools.length
            ? `; it asks for allowed-tools ${tools.join(', ')}, which this answer does not grant (grant them on the Skills screen)`
            : '') +
          '. Mooring never runs its scripts',
        ...(approval.diff ? { diff: approval.diff.map(asToolChange) } : {}),
        ...(ctx.client ? { client: ctx.client } : {}),
        ...(ctx.conversationId ? { conversationId: ctx.conversationId } : {}),
      },
      ctx.signal ? { signal: ctx.signal } : {},
    );
    if (decision.outcome === 'deny')
      throw new MooringError('refused', `You declined to load skill "${name}" from "${server}".`);
    if (entry.resources === 'dynamic' || decision.outcome === 'approve') return;
    await this.deps.approvals.approve({
      server,
      entry,
      scope: decision.outcome === 'always' ? 'always' : 'conversation',
      ...(ctx.conversationId ? { conversationId: ctx.conversationId } : {}),
      grantTools: false,
      decidedBy: decision.decidedBy,
    });
  }

  /** One file of the held entry, from the skill's own server, verified before use. */
  private async read(server: string, entry: SkillEntry, file: string | undefined, signal?: AbortSignal) {
    try {
      const dynamic = entry.resources === 'dynamic';
      const listed = dynamic ? undefined : listedFile(server, entry, file);
      const target = listed?.uri ?? entry.uri;
      if (dynamic && file) throw new MooringError('refused', 'A dynamic skill has no listed files to read.');
      const res = await this.deps.readResource(server, target, signal);
      const content =
        (res.contents as { uri?: string; text?: unknown; blob?: unknown }[]).find((c) => c.uri === target) ??
        (res.contents[0] as { text?: unknown; blob?: unknown } | undefined);
      if (!content) throw new MooringError('protocol_error', `"${server}" returned no content for ${target}`);
      const bytes = bytesOf(content);
      if (listed) verifyBytes(server, listed, bytes);
      const text = bytes.toString('utf8');
      if (target === entry.uri) verifyFrontmatter(server, entry, text);
      return { server, skillUri: entry.uri, uri: target, text, verified: !dynamic };
    } catch (err) {
      const e = toErrorData(err);
      this.deps.log({ server, at: Date.now(), source: 'host', level: 'error', text: `skills: ${e.message}` });
      throw err;
    }
  }
}

const asToolChange = (c: { uri: string; change: ToolChange['change']; summary: string }): ToolChange => ({
  kind: 'file',
  path: c.uri,
  change: c.change,
  summary: c.summary,
});
