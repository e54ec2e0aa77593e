// `allowed-tools` grants (docs/skills.md; ext-skills specification, Security Considerations, "No implicit
// permission grants"): which skills each conversation loaded with their allowed-tools granted by the person.
// A grant is given only by an explicit tick (the load's question, or an approval made with "grant
// allowed-tools") and lasts while the skill is loaded in that conversation: in memory, until Mooring
// restarts, the skill's manifest changes, or its approval is revoked. It covers the listed tools of the
// skill's own server only; the gate checks it last (safety/approvalGate.ts), after its other rules.

/** One skill loaded in a conversation with its allowed-tools granted. */
export interface LoadedSkillGrant {
  server: string;
  uri: string;
  name: string;
  /** The tool names its `allowed-tools` lists, as granted. */
  tools: string[];
  /** The manifest the grant was given for (`JSON.stringify(manifestOf(entry))`): any change ends it. */
  manifestKey: string;
  /** `approval`: the skill's approval holds the grant (checked again at each call); `load`: that load's answer. */
  via: 'approval' | 'load';
  decidedBy: string;
  at: number;
}

const keyOf = (server: string, uri: string) => `${server}\u0000${uri}`;

export class SkillToolGrants {
  private readonly byConversation = new Map<string, Map<string, LoadedSkillGrant>>();

  /** The skill was loaded in this conversation with its tools granted. */
  give(conversationId: string, grant: LoadedSkillGrant): void {
    let m = this.byConversation.get(conversationId);
    if (!m) this.byConversation.set(conversationId, (m = new Map()));
    m.set(keyOf(grant.server, grant.uri), grant);
  }

  /** The skill was loaded again without a grant: whatever an earlier load granted ends. */
  take(conversationId: string, server: string, uri: string): void {
    this.byConversation.get(conversationId)?.delete(keyOf(server, uri));
  }

  /** The grants of this conversation that name this tool of this server (never another server's). */
  covering(conversationId: string, server: string, tool: string): LoadedSkillGrant[] {
    const m = this.byConversation.get(conversationId);
    if (!m) return [];
    return [...m.values()].filter((g) => g.server === server && g.tools.includes(tool));
  }

  /** A revoked skill (or every skill of a server, `uri` omitted) grants nothing any more, anywhere. */
  forget(server: string, uri?: string): void {
    for (const m of this.byConversation.values())
      for (const [k, g] of m) if (g.server === server && (uri === undefined || g.uri === uri)) m.delete(k);
  }
}
