// "Allow for this conversation": an approval that lasts as long as one conversation does in this process.
// Kept in memory only (never written), keyed by the conversation's id, and pinned to the tool's fingerprint
// like "always allow" (safety/approvalStore.ts): it never carries over to another conversation, to another
// Mooring process, or past a restart, and a tool that changes asks again. Given on a flow's question
// (docs/trust.md), it covers the tool receiving what the conversation read from those servers, and no other.

export interface ConversationGrant {
  conversationId: string;
  server: string;
  tool: string;
  fingerprint: string;
  /** The servers whose content the call carried when the grant was given (a flow); absent: none. */
  flowFrom?: string[];
  at: number;
}

const keyOf = (server: string, tool: string) => JSON.stringify([server, tool]);

export class ConversationGrants {
  private readonly byConversation = new Map<string, Map<string, ConversationGrant>>();
  private version = 0;

  /** Goes up with every grant given or taken back (a `VerdictSource`: safety/approvalGate.ts). */
  revision(): number {
    return this.version;
  }

  allow(grant: Omit<ConversationGrant, 'at'> & { at?: number }): ConversationGrant {
    const full = { ...grant, at: grant.at ?? Date.now() };
    let m = this.byConversation.get(grant.conversationId);
    if (!m) this.byConversation.set(grant.conversationId, (m = new Map()));
    m.set(keyOf(grant.server, grant.tool), full);
    this.version++;
    return full;
  }

  /**
   * True when this conversation allowed exactly this version of the tool, and, for a call that carries
   * content from other servers (`flowFrom`), allowed it carrying content from each of them.
   */
  allows(q: {
    conversationId: string;
    server: string;
    tool: string;
    fingerprint: string;
    flowFrom?: readonly string[];
  }): boolean {
    const g = this.byConversation.get(q.conversationId)?.get(keyOf(q.server, q.tool));
    if (g?.fingerprint !== q.fingerprint) return false;
    return (q.flowFrom ?? []).every((s) => g.flowFrom?.includes(s));
  }

  list(): ConversationGrant[] {
    return [...this.byConversation.values()].flatMap((m) => [...m.values()]);
  }

  /** Forgets one grant, every grant of a conversation (`tool` and `server` omitted), or of a server in it. */
  revoke(q: { conversationId: string; server?: string; tool?: string }): number {
    const m = this.byConversation.get(q.conversationId);
    if (!m) return 0;
    let n = 0;
    for (const [k, g] of m)
      if ((q.server === undefined || g.server === q.server) && (q.tool === undefined || g.tool === q.tool))
        n += Number(m.delete(k));
    if (m.size === 0) this.byConversation.delete(q.conversationId);
    if (n) this.version++;
    return n;
  }

  clear(): number {
    const n = this.list().length;
    this.byConversation.clear();
    if (n) this.version++;
    return n;
  }
}
