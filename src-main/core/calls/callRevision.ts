// The one revision of everything a tool call's safety verdict reads (ARCHITECTURE.md, "The path of one
// tool call"). The verdict is decided afresh at every call (safety/approvalGate.ts, `decideGate`); what the
// call path keeps between calls — the catalogs (schema preparation) and names already resolved — is kept
// for one value of this number only, and every input of a verdict moves it:
// - by an event, through `bump`: a session's state or tools (the tool's definition, the server's config
//   and policy, a folder's sessions), a filter or policy edit, the quarantine, the settings (YOLO);
// - by polling, in `current`: the gate's stores that another process may change (the remembered
//   approvals, one stat of their file) and the conversation grants (`gateSources`).
// test/integration/verdictInputs.test.ts changes each input in turn and checks that this number moved
// and that the next call's verdict follows.
import type { VerdictSource } from '../safety/verdictSources';

export class CallRevision {
  private value = 0;
  private readonly seen: number[];

  constructor(private readonly sources: readonly VerdictSource[]) {
    this.seen = sources.map((s) => s.revision());
  }

  /** Something a verdict reads changed (an event said so). */
  bump(): void {
    this.value++;
  }

  /**
   * The revision now, after checking the polled sources (one stat for a file).
   * @param onPolledMove told when a polled source moved it (no event said so: another process changed a file)
   */
  current(onPolledMove?: () => void): number {
    let moved = false;
    for (let i = 0; i < this.sources.length; i++) {
      const r = this.sources[i]!.revision();
      if (r !== this.seen[i]) {
        this.seen[i] = r;
        moved = true;
      }
    }
    if (moved) {
      this.value++;
      onPolledMove?.();
    }
    return this.value;
  }
}
