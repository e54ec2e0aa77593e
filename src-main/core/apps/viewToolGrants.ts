// A view's calls of its own server's tools for views only (`visibility: ["app"]`) are asked about once per
// view (docs/mcp-apps.md, "MCP Apps", Act): a view that polls such a tool would otherwise ask every few seconds. The
// first call asks through the gate as any other; calls of the same tool from the same view meanwhile wait
// for that answer. An "Allow" lets the view's later calls of it run (audited as allowed for this view); a
// "Deny" refuses them without asking again until the view is opened anew. A view belongs to one
// conversation (or the Playground), so this is once per view and conversation.
export type ViewToolAnswer = 'allowed' | 'denied';

export class ViewToolGrants {
  private readonly answers = new Map<string, ViewToolAnswer>();
  private readonly asking = new Map<string, Promise<void>>();

  /**
   * Runs `call` for a view's call of `tool`: with the view's earlier answer when there is one, else as the
   * question whose answer (`answerOf` its outcome, undefined when it said nothing) counts for the view.
   */
  async run<T>(
    viewId: string,
    tool: string,
    call: (earlier: ViewToolAnswer | undefined) => Promise<T>,
    answerOf: (outcome: T) => ViewToolAnswer | undefined,
  ): Promise<T> {
    const key = `${viewId}\n${tool}`;
    for (let waiting = this.asking.get(key); waiting; waiting = this.asking.get(key)) await waiting;
    const earlier = this.answers.get(key);
    if (earlier) return call(earlier);
    let release!: () => void;
    this.asking.set(key, new Promise<void>((resolve) => (release = resolve)));
    try {
      const outcome = await call(undefined);
      const answer = answerOf(outcome);
      if (answer) this.answers.set(key, answer);
      return outcome;
    } finally {
      this.asking.delete(key);
      release();
    }
  }

  /** A view's answers go with the view. */
  forget(viewId: string): void {
    for (const key of [...this.answers.keys()]) if (key.startsWith(`${viewId}\n`)) this.answers.delete(key);
  }
}
