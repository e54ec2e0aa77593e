// Calls waiting for the person's answer, asked to look again when an answer may cover them too
// (safety/approvalGate.ts): "Always allow" or "Allow for this conversation" given on one question answers
// every waiting call it now covers (a view that polls, a model that called the same tool twice), instead of
// leaving each to be asked, or to time out, one by one.
export class WaitingQuestions {
  private readonly waiters = new Set<() => void>();

  /** Runs `recheck` after every grant until the returned function is called. */
  follow(recheck: () => void): () => void {
    this.waiters.add(recheck);
    return () => void this.waiters.delete(recheck);
  }

  /** A grant was given: every waiting call checks whether it is covered now. */
  granted(): void {
    for (const w of [...this.waiters]) w();
  }

  /** Calls waiting now (tests read this). */
  get size(): number {
    return this.waiters.size;
  }
}
