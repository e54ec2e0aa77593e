// What each external client has read through this `mooring serve` process (docs/trust.md, "Conversations
// remember what they read"): the origin of every result a served tool returned to it, by the client's
// name (its token's label over HTTP, its handshake name over stdio). A client's next call carries them to
// the gate like a conversation's reads, so a call that sends one server's content to another asks and names
// the flow. Kept per client, not per connection: the 2026 revision has no sessions (each request is its own
// connection), and a client may read in one session and send in another. One entry per server and tool.
import type { ReadOrigin } from '@shared/dataFlow';

export class ServedReads {
  private readonly byClient = new Map<string, Map<string, ReadOrigin>>();

  of(client: string): ReadOrigin[] {
    return [...(this.byClient.get(client)?.values() ?? [])];
  }

  record(client: string, origin: ReadOrigin): void {
    let reads = this.byClient.get(client);
    if (!reads) this.byClient.set(client, (reads = new Map()));
    const key = `${origin.server}\u0000${origin.tool}`;
    const prev = reads.get(key);
    reads.set(key, {
      ...origin,
      ...(prev?.untrusted || origin.untrusted ? { untrusted: true as const } : {}),
      ...(prev?.sensitive || origin.sensitive ? { sensitive: true as const } : {}),
    });
  }
}
