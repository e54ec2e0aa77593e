// Every refused access of every confined server, kept in the home (`confine/violations.json`, through the
// one JSON store; docs/data-on-disk.md, "Data on disk"), so the app's server card, `mooring mcp sandbox --show`
// and `mooring mcp logs` see what any Mooring process on this home recorded. The same access again counts
// up its entry; each server keeps its latest MAX_PER_SERVER entries. Writes are gathered for a moment: a
// server that retries a refused write in a loop costs one file write per burst, not one per attempt.
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { SandboxViolation } from '@shared/confinement';
import { JsonFileStore } from '../config/jsonFileStore';
import type { Refusal } from './syscallTrace';

export const MAX_PER_SERVER = 50;
const FLUSH_MS = 200;

const ViolationSchema = z.object({
  server: z.string(),
  kind: z.enum(['read', 'write', 'network']),
  target: z.string().max(4096),
  operation: z.string().max(200),
  count: z.number().int().min(1),
  first: z.number(),
  last: z.number(),
  allow: z.object({ write: z.string().optional(), domain: z.string().optional() }).strict().optional(),
  noAllowReason: z.string().max(500).optional(),
});
const FileSchema = z.object({ version: z.literal(1), violations: z.array(ViolationSchema) }).strict();
type ViolationFile = z.infer<typeof FileSchema>;

const keyOf = (v: Pick<SandboxViolation, 'server' | 'kind' | 'target' | 'operation'>) =>
  `${v.server}\0${v.kind}\0${v.target}\0${v.operation}`;

export class ViolationLog extends EventEmitter<{ recorded: [SandboxViolation] }> {
  private readonly store: JsonFileStore<ViolationFile>;
  /** Recorded and not yet in the file (queued, or in a write that has not finished). */
  private unwritten: SandboxViolation[] = [];
  private timer?: NodeJS.Timeout;
  /** Reads and writes of the file, one at a time: a read sees the file and `unwritten` in step. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(home: string) {
    super();
    this.store = new JsonFileStore({
      file: join(home, 'confine', 'violations.json'),
      format: {
        schema: FileSchema,
        empty: () => ({ version: 1 as const, violations: [] }),
        fileHint: (file) => `Mooring left ${file} alone; delete it to forget the refused accesses it lists.`,
        changeHint: 'The refused accesses were not saved.',
      },
    });
  }

  /** Records one refused access now (in memory at once, on disk within a moment). */
  record(server: string, refusal: Refusal, at = Date.now()): SandboxViolation {
    const v: SandboxViolation = { server, ...refusal, count: 1, first: at, last: at };
    this.unwritten.push(v);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
    this.emit('recorded', v);
    return v;
  }

  /** A server's refused accesses (or everyone's), oldest first. */
  list(server?: string): Promise<SandboxViolation[]> {
    return this.serial(async () => {
      const merged = merge((await this.store.read()).violations, this.unwritten);
      return merged.filter((v) => server === undefined || v.server === server);
    });
  }

  async counts(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const v of await this.list()) out[v.server] = (out[v.server] ?? 0) + 1;
    return out;
  }

  /** Forgets what `done` says is settled (an allowed path or host), or all of a server's entries. */
  async forget(server: string, done: (v: SandboxViolation) => boolean = () => true): Promise<void> {
    await this.flush();
    await this.serial(async () => {
      if (!existsSync(this.store.file)) return;
      await this.store.update((f) => ({
        version: 1 as const,
        violations: f.violations.filter((v) => v.server !== server || !done(v)),
      }));
    });
  }

  /** Writes what was recorded so far. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.serial(async () => {
      // Taken in turn, not when flush is called: a batch taken while an earlier write is under way would
      // still hold that write's entries, and they would be counted twice.
      const batch = [...this.unwritten];
      if (!batch.length) return;
      try {
        await mkdir(dirname(this.store.file), { recursive: true, mode: 0o700 });
        await this.store.update((f) => ({ version: 1 as const, violations: merge(f.violations, batch) }));
        this.unwritten = this.unwritten.filter((v) => !batch.includes(v));
      } catch {
        // A record that cannot be written (a full disk, a broken file) stays in memory; it never fails a server.
      }
    });
  }

  async close(): Promise<void> {
    await this.flush();
    await this.store.close();
  }

  private serial<T>(job: () => Promise<T>): Promise<T> {
    const run = this.chain.then(job);
    this.chain = run.catch(() => undefined);
    return run;
  }
}

/** `more` folded into `base`: the same access counts up and moves last; each server keeps its latest entries. */
function merge(base: SandboxViolation[], more: SandboxViolation[]): SandboxViolation[] {
  const byKey = new Map(base.map((v) => [keyOf(v), { ...v }]));
  for (const v of more) {
    const k = keyOf(v);
    const old = byKey.get(k);
    byKey.delete(k);
    byKey.set(k, old ? { ...old, count: old.count + v.count, last: v.last } : { ...v });
  }
  const all = [...byKey.values()];
  const perServer = new Map<string, number>();
  const kept: SandboxViolation[] = [];
  for (let i = all.length - 1; i >= 0; i--) {
    const n = perServer.get(all[i]!.server) ?? 0;
    if (n >= MAX_PER_SERVER) continue;
    perServer.set(all[i]!.server, n + 1);
    kept.unshift(all[i]!);
  }
  return kept;
}
