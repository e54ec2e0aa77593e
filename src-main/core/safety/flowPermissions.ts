// The pairs of servers the person allowed data to flow between (docs/trust.md): `from → to` lets what the
// conversation read from `from` go to any tool of `to` without asking about the flow; `* → to` marks `to` a
// trusted destination (its read-only, closed-world tools take any conversation's data unasked). Kept in
// `<home>/flow-permissions.json` through the approval files' one shape (config/approvalListFile.ts): checked
// with one stat before each lookup, so a revoke in the app counts at once in `mooring serve`, and a
// `VerdictSource` of the gate, so the call path's revision moves with it.
import { join } from 'node:path';
import { z } from 'zod';
import type { FlowPairs } from '@shared/dataFlow';
import { ApprovalListFile } from '../config/approvalListFile';

const PairSchema = z
  .object({
    from: z.string().min(1).max(200),
    to: z.string().min(1).max(200),
    allowedAt: z.number(),
    decidedBy: z.string().optional(),
  })
  .strict();
export type FlowPair = z.infer<typeof PairSchema>;

const keyOf = (from: string, to: string) => JSON.stringify([from, to]);

export class FlowPermissions implements FlowPairs {
  private pairs = new Map<string, FlowPair>();
  private version = 0;
  private readonly store: ApprovalListFile<FlowPair>;

  private constructor(readonly file: string) {
    this.store = new ApprovalListFile(file, {
      entry: PairSchema,
      key: (p) => keyOf(p.from, p.to),
      fileHint: (f) => `Fix ${f} by hand, or delete it: every flow between servers will ask again.`,
      changeHint: 'Allow the pair again.',
    });
  }

  static async open(home: string): Promise<FlowPermissions> {
    const store = new FlowPermissions(join(home, 'flow-permissions.json'));
    try {
      store.pairs = await store.store.read();
    } catch {
      store.pairs = new Map(); // an invalid file allows nothing
    }
    return store;
  }

  allows(from: string, to: string): boolean {
    this.refresh();
    return this.pairs.has(keyOf(from, to));
  }

  list(): FlowPair[] {
    this.refresh();
    return [...this.pairs.values()];
  }

  /** Moves with every change, by this process or another (one stat). */
  revision(): number {
    this.refresh();
    return this.version;
  }

  async allow(from: string, to: string, decidedBy = 'user'): Promise<FlowPair> {
    const pair = PairSchema.parse({ from, to, allowedAt: Date.now(), decidedBy });
    await this.update((m) => m.set(keyOf(from, to), pair));
    return pair;
  }

  /** Revokes one pair (or, with no `to`, every pair from `from`). Returns how many. */
  async revoke(from: string, to?: string): Promise<number> {
    let removed = 0;
    await this.update((m) => {
      for (const [k, p] of m)
        if (p.from === from && (to === undefined || p.to === to)) removed += Number(m.delete(k));
    });
    return removed;
  }

  private refresh(): void {
    let changed: Map<string, FlowPair> | undefined;
    try {
      changed = this.store.readIfChanged();
    } catch {
      changed = new Map();
    }
    if (changed) {
      this.pairs = changed;
      this.version++;
    }
  }

  private async update(change: (m: Map<string, FlowPair>) => void): Promise<void> {
    this.pairs = await this.store.update(change);
    this.version++;
  }
}
