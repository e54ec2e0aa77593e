// The skills service (`core.skills`, docs/skills.md): the servers' skills per server, approvals bound to
// their manifests, and the one skill-loading path (ext-skills specification, "Reading Skill Content": a
// `resources/read` alone never loads a skill). Loading takes the skill's current entry, asks the person
// when no approval covers that manifest (with the diff when it changed; a `"dynamic"` skill always asks),
// reads the file from the skill's own server only ("Origin-scoped resource reads") and verifies it before
// use; a mismatch is refused with its reason and written to the log. Mooring never runs a skill's scripts
// and never honours `allowed-tools` without the person's explicit grant (Security Considerations; the
// grants: skillToolGrants.ts). Loads, approvals, revocations and grants each write an audit line.
import type { ApprovalDecision, ApprovalRequestInput, AuditDecision } from '@shared/approval';
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
import { askToLoad, type LoadAnswer, type SkillLoadContext } from './skillLoadQuestion';
import { SkillToolGrants } from './skillToolGrants';
import { disambiguate, enclosingSkill, skillView } from './skillViews';
import {
  bytesOf,
  listedFile,
  manifestOf,
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
  /** Writes one line to the audit log (safety/auditLog.ts), like a tool call's. */
  audit?: (line: SkillAuditLine) => Promise<unknown>;
}

/** An audit line about a skill: the tool is `load_skill`, the arguments (hashed) name the file. */
export interface SkillAuditLine {
  server: string;
  tool: string;
  decision: AuditDecision;
  decidedBy: string;
  fingerprint: string;
  reason: string;
  client?: string;
  arguments?: Record<string, unknown>;
  skill: { uri: string; grantedTools?: string[] };
}

/** An approved skill as the model is shown it (name and description only, like a deferred tool). */
export interface ApprovedSkill {
  server: string;
  uri: string;
  name: string;
  description: string;
}

export class SkillsService {
  /** Skills loaded per conversation with their allowed-tools granted (skillToolGrants.ts). */
  private readonly grants = new SkillToolGrants();

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
    const tools = allowedToolsOf(entry);
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
    await this.audit({
      server: a.server,
      decision: a.scope === 'always' ? 'always' : 'approve',
      decidedBy,
      fingerprint: fingerprintOf(entry),
      reason: `approved skill "${entry.frontmatter.name}" (${manifestOf(entry).length} files) ${a.scope === 'always' ? 'always' : 'for one conversation'}`,
      skill: { uri: a.uri, ...(a.grantTools && tools.length ? { grantedTools: tools } : {}) },
    });
    return this.skill(a.server, a.uri, a.conversationId);
  }

  async revoke(server: string, uri?: string, decidedBy = 'user'): Promise<number> {
    const removed = await this.deps.approvals.revoke(server, uri);
    this.grants.forget(server, uri);
    await this.audit({
      server,
      decision: 'revoke',
      decidedBy,
      fingerprint: '',
      reason: uri ? 'revoked the skill’s approval' : 'revoked every skill approval of the server',
      skill: { uri: uri ?? '*' },
    });
    return removed;
  }

  /**
   * The skill whose granted `allowed-tools` cover a call of `tool` on `server` in this conversation, or
   * undefined (the gate's `SkillToolGrants`, safety/approvalGate.ts). A grant holds while the skill is
   * loaded there with the manifest it was given for; one held by an approval also needs that approval
   * still in force with the grant (revoked in another process, changed: it ends).
   */
  async toolGrant(q: {
    conversationId: string;
    server: string;
    tool: string;
  }): Promise<{ name: string; uri: string; decidedBy: string } | undefined> {
    for (const g of this.grants.covering(q.conversationId, q.server, q.tool)) {
      // The entry as the server serves it now (one skills/get per granted call): a file changed since the
      // grant ends it at once, whatever the listing's ttlMs.
      const entry = await this.deps.catalog.entry(g.server, g.uri, { refresh: true }).catch(() => undefined);
      if (!entry || entry.resources === 'dynamic') continue;
      if (JSON.stringify(manifestOf(entry)) !== g.manifestKey) continue;
      if (g.via === 'approval') {
        const a = this.deps.approvals.lookup(g.server, entry, q.conversationId);
        if (a.state !== 'approved' || !a.toolsGranted) continue;
      }
      return { name: g.name, uri: g.uri, decidedBy: g.decidedBy };
    }
    return undefined;
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
    const line = {
      server,
      fingerprint: fingerprintOf(entry),
      ...(ctx.client ? { client: ctx.client } : {}),
      arguments: { uri: entry.uri, ...(file ? { file } : {}) },
    };
    let answer: LoadAnswer;
    try {
      answer =
        approval.state === 'approved'
          ? {
              decision: 'auto',
              decidedBy: `skill approval (${approval.scope})`,
              grant: approval.toolsGranted ? 'approval' : undefined,
            }
          : await askToLoad(this.deps, server, entry, approval, ctx);
    } catch (err) {
      const e = toErrorData(err);
      const denied = e.code === 'refused' && ctx.interactive && !!this.deps.ask;
      await this.audit({
        ...line,
        decision: denied ? 'deny' : e.code === 'cancelled' ? 'cancelled' : 'refuse',
        decidedBy: denied ? 'user' : 'policy',
        reason: e.message,
        skill: { uri: entry.uri },
      });
      throw err;
    }
    const tools = allowedToolsOf(entry);
    let content: SkillFileContent;
    try {
      content = await this.read(server, entry, file, ctx.signal);
    } catch (err) {
      await this.audit({
        ...line,
        decision: 'refuse',
        decidedBy: 'policy',
        reason: toErrorData(err).message,
        skill: { uri: entry.uri },
      });
      throw err;
    }
    // Loading SKILL.md in a conversation (re)activates the skill there: its grant follows this load.
    const granted = !file && ctx.conversationId && answer.grant && tools.length ? answer.grant : undefined;
    if (!file && ctx.conversationId) {
      if (granted)
        this.grants.give(ctx.conversationId, {
          server,
          uri: entry.uri,
          name: entry.frontmatter.name,
          tools,
          manifestKey: JSON.stringify(manifestOf(entry)),
          via: granted,
          decidedBy: answer.decidedBy,
          at: Date.now(),
        });
      else this.grants.take(ctx.conversationId, server, entry.uri);
    }
    await this.audit({
      ...line,
      decision: answer.decision,
      decidedBy: answer.decidedBy,
      reason: `loaded ${file ? `file ${file} of ` : ''}skill "${entry.frontmatter.name}"${content.verified ? ', verified against its digest' : ' (dynamic)'}${granted ? `; its allowed-tools run without asking in this conversation` : ''}`,
      skill: { uri: entry.uri, ...(granted ? { grantedTools: tools } : {}) },
    });
    return content;
  }

  private async audit(line: Omit<SkillAuditLine, 'tool'>): Promise<void> {
    try {
      await this.deps.audit?.({ ...line, tool: 'load_skill' });
    } catch (err) {
      this.deps.log({
        server: line.server,
        at: Date.now(),
        source: 'host',
        level: 'error',
        text: `skills: the audit line could not be written: ${toErrorData(err).message}`,
      });
    }
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

/** What an audit line names a skill's version by: its SKILL.md's digest. */
const fingerprintOf = (entry: SkillEntry) =>
  manifestOf(entry).find((f) => f.uri === entry.uri)?.digest ?? 'dynamic';
