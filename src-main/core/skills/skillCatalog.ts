// Which skills each server publishes (ext-skills specification, "Listing Skills", "Getting a Skill"): only
// a server that declares the extension is asked ("Capability Negotiation"); a `skill://` URI alone proves
// nothing ("Resource Mapping": hosts MUST NOT conclude a resource is a skill from its scheme). skills/list is
// walked page by page and kept for its `ttlMs`; skills/get refreshes one entry. Every request goes through
// the session's request handler (mcp/requestHandler.ts `request`). Entries are validated one by one: an
// invalid one is refused with its reason and never loaded ("Resources"). Nothing here reads a file ("Lazy
// Retrieval").
import {
  GetSkillResultSchema,
  ListSkillsPageSchema,
  SKILL_LIMITS,
  SKILLS_EXTENSION_ID,
  SkillEntrySchema,
  type SkillEntry,
} from '@shared/skills';
import { MooringError } from '../errors';
import type { ServerRequests } from '../mcp/types';
import { rootOf } from './skillVerify';

/** What the catalog needs of a session (SessionActor satisfies it). */
export interface SkillSession {
  readonly name: string;
  readonly requests: Pick<ServerRequests, 'capabilities' | 'request' | 'readResource'>;
}
export interface SkillSessions {
  list(): SkillSession[];
  get(name: string): SkillSession | undefined;
}

export interface SkillListing {
  skills: SkillEntry[];
  invalid: { uri?: string; reason: string }[];
  at: number;
  ttlMs: number;
}

/** A 2025 session gets no ttlMs: the listing is kept this long. */
export const DEFAULT_TTL_MS = 60_000;
/** Pages walked at most per listing (a server could page forever). */
const MAX_PAGES = 50;

/** Why an entry that parsed cannot be a skill ("Resource Mapping", "Resources", "Limits"); undefined when fine. */
export function entryProblem(e: SkillEntry): string | undefined {
  if (!e.uri.endsWith('/SKILL.md')) return 'its uri does not name a SKILL.md';
  const last = rootOf(e.uri).split('/').at(-1);
  if (last !== e.frontmatter.name) return `its name "${e.frontmatter.name}" is not its path's last segment`;
  if (e.resources === 'dynamic') return undefined;
  if (!e.resources.some((r) => r.uri === e.uri)) return 'its manifest does not list its SKILL.md';
  const root = `${rootOf(e.uri)}/`;
  if (e.resources.some((r) => !r.uri.startsWith(root))) return 'its manifest lists a file outside the skill';
  const total = e.resources.reduce((n, r) => n + r.size, 0);
  if (e.resources.length > SKILL_LIMITS.files || total > SKILL_LIMITS.bytes)
    return `it exceeds the limits (${e.resources.length} files, ${total} bytes; at most ${SKILL_LIMITS.files} files, ${SKILL_LIMITS.bytes} bytes)`;
  return undefined;
}

export class SkillCatalog {
  private readonly listings = new Map<string, SkillListing>();
  /** Entries fetched with skills/get that no listing holds (a skill referenced by URI). */
  private readonly fetched = new Map<string, { entry: SkillEntry; at: number; ttlMs: number }>();

  constructor(private readonly deps: { sessions: SkillSessions; now?: () => number }) {}

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** Whether the server's session is ready and declared the extension. */
  declares(server: string): boolean {
    const caps = this.deps.sessions.get(server)?.requests.capabilities() as
      { extensions?: Record<string, unknown> } | undefined;
    return Boolean(caps?.extensions && SKILLS_EXTENSION_ID in caps.extensions);
  }

  /** The ready servers that declare the extension. */
  servers(): string[] {
    return this.deps.sessions
      .list()
      .map((s) => s.name)
      .filter((n) => this.declares(n));
  }

  private session(server: string): SkillSession {
    const s = this.deps.sessions.get(server);
    if (!s)
      throw new MooringError(
        'not_found',
        `No server named "${server}" is running`,
        'Is it added, enabled and ready?',
      );
    if (!this.declares(server))
      throw new MooringError(
        'not_found',
        `"${server}" does not serve skills (it does not declare ${SKILLS_EXTENSION_ID})`,
        'Mooring reads skills only from servers that declare the Skills extension.',
      );
    return s;
  }

  /** The server's listing, from the cache while its ttlMs lasts, else walked afresh. */
  async list(server: string, opts: { refresh?: boolean; signal?: AbortSignal } = {}): Promise<SkillListing> {
    const held = this.listings.get(server);
    if (held && !opts.refresh && this.now() - held.at < held.ttlMs) return held;
    const session = this.session(server);
    const skills: SkillEntry[] = [];
    const invalid: SkillListing['invalid'] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    let ttlMs: number | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await session.requests.request(
        { method: 'skills/list', params: cursor ? { cursor } : {} },
        ListSkillsPageSchema,
        opts.signal ? { signal: opts.signal } : {},
      );
      ttlMs ??= res.ttlMs;
      for (const raw of res.skills) {
        const parsed = SkillEntrySchema.safeParse(raw);
        const uri = (raw as { uri?: unknown } | null)?.uri;
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          invalid.push({
            ...(typeof uri === 'string' ? { uri } : {}),
            reason: `invalid entry (${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'})`,
          });
          continue;
        }
        const problem = entryProblem(parsed.data);
        if (problem || seen.has(parsed.data.uri)) {
          invalid.push({ uri: parsed.data.uri, reason: problem ?? 'listed more than once' });
          continue;
        }
        seen.add(parsed.data.uri);
        skills.push(parsed.data);
      }
      cursor = res.nextCursor;
      if (!cursor) break;
    }
    const listing = { skills, invalid, at: this.now(), ttlMs: ttlMs ?? DEFAULT_TTL_MS };
    this.listings.set(server, listing);
    return listing;
  }

  /**
   * One skill's current entry: from the listing or an earlier skills/get while their ttlMs lasts, else
   * from skills/get ("Getting a Skill": the server answers for every skill it serves, listed or not).
   */
  async entry(
    server: string,
    uri: string,
    opts: { refresh?: boolean; signal?: AbortSignal } = {},
  ): Promise<SkillEntry> {
    const key = `${server}\u0000${uri}`;
    if (!opts.refresh) {
      const listing = this.listings.get(server);
      const listed = listing?.skills.find((s) => s.uri === uri);
      if (listing && listed && this.now() - listing.at < listing.ttlMs) return listed;
      const got = this.fetched.get(key);
      if (got && this.now() - got.at < got.ttlMs) return got.entry;
    }
    const res = await this.session(server).requests.request(
      { method: 'skills/get', params: { uri } },
      GetSkillResultSchema,
      opts.signal ? { signal: opts.signal } : {},
    );
    const parsed = SkillEntrySchema.safeParse(res.skill);
    if (!parsed.success || parsed.data.uri !== uri)
      throw new MooringError(
        'protocol_error',
        `"${server}" answered skills/get for ${uri} with an invalid entry`,
      );
    const problem = entryProblem(parsed.data);
    if (problem)
      throw new MooringError('refused', `The skill ${uri} from "${server}" cannot be loaded: ${problem}`);
    const entry = parsed.data;
    const ttlMs = res.ttlMs ?? DEFAULT_TTL_MS;
    this.fetched.set(key, { entry, at: this.now(), ttlMs });
    // A fresher entry replaces the listed one, so what the person sees is what is loaded.
    const listing = this.listings.get(server);
    if (listing) listing.skills = listing.skills.map((s) => (s.uri === uri ? entry : s));
    return entry;
  }

  /** A server went away or changed: its listings go. */
  forget(server: string): void {
    this.listings.delete(server);
    for (const k of this.fetched.keys()) if (k.startsWith(`${server}\u0000`)) this.fetched.delete(k);
  }
}
