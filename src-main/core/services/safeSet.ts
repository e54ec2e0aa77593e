// The default safe set of every new server (docs/sessions.md, "Session actor states"): read-only tools on,
// destructive ones off. A server added through Mooring is marked (safety/toolQuarantine.ts); when it first
// becomes ready — in whichever process connects it first — its destructive tools go to its excludeTools,
// once, and the mark goes. Callers that add servers wait for the outcome to say what it did.
import type { LogLine } from '@shared/session';
import { defaultExcludeTools } from '../catalog/filters';
import type { Disposable } from '../disposable';
import { toErrorData } from '../errors';
import type { SessionPool } from '../mcp/sessionPool';

/** Where a newly added server's default safe set waits for its first connect (safety/toolQuarantine.ts). */
export interface SafeSetMarks {
  expectNewServer(server: string): void;
  /** Resolves once the marks are on disk (another process may connect the server first). */
  flush(): Promise<unknown>;
  safeSetPending(server: string): Promise<boolean>;
  safeSetApplied(server: string): void;
}

/** What the default safe set did, e.g. "3 destructive tools disabled by default". */
export interface SafeDefaults {
  disabledCount: number;
  message?: string;
  /** The server has not connected yet: the safe set applies when it first does. */
  pending?: boolean;
}

export interface SafeSetDeps {
  marks: SafeSetMarks;
  pool: SessionPool;
  /** Adds these tools to the server's excludeTools (one atomic change of the file, sessions in place). */
  exclude: (server: string, tools: string[]) => Promise<void>;
  log: (line: LogLine) => void;
}

export class SafeSetApplier implements Disposable {
  /** Safe sets being applied, by server: a connect that finds one pending starts it here. */
  private readonly runs = new Map<string, Promise<void>>();
  /**
   * What each finished safe set did, kept until the caller that added the server reads it: the connect
   * may have been started, and its safe set finished, by another sync (the file's watch) before the
   * add asks.
   */
  private readonly finished = new Map<string, SafeDefaults>();
  /** Following the pool's connects, until `dispose`. */
  private readonly following: Disposable;

  constructor(private readonly deps: SafeSetDeps) {
    this.following = deps.pool.on('status', (s) => {
      if (s.state === 'ready') this.onReady(s.name);
    });
  }

  /** Stops following the pool (its owner, the server sessions, closed). */
  dispose(): void | Promise<void> {
    return this.following.dispose();
  }

  /** Marks servers just added; resolves once the marks are on disk (another process may connect them). */
  async expect(names: string[]): Promise<void> {
    for (const name of names) {
      this.finished.delete(name); // an outcome of an earlier add of this name was never read
      this.deps.marks.expectNewServer(name);
    }
    await this.deps.marks.flush();
  }

  /** Resolves once every safe set started so far is applied. */
  async settled(): Promise<void> {
    await Promise.all(this.runs.values());
  }

  /** What the safe set of a server just added did, or that it waits for the server's first connect. */
  async outcome(name: string): Promise<SafeDefaults> {
    const run = this.runs.get(name);
    if (run) await run;
    const done = this.finished.get(name);
    if (done) {
      this.finished.delete(name);
      return done;
    }
    return (await this.deps.marks.safeSetPending(name))
      ? { disabledCount: 0, pending: true }
      : { disabledCount: 0 };
  }

  /** A session became ready: a server added through Mooring gets its default safe set now. */
  private onReady(name: string): void {
    if (this.runs.has(name)) return;
    const run = (async (): Promise<SafeDefaults | undefined> => {
      if (!(await this.deps.marks.safeSetPending(name))) return undefined; // not new, or applied already
      const done = await this.applySafeDefaults(name);
      // A session gone before its tools were read keeps the mark: its next connect applies the set.
      if (!done.pending) this.deps.marks.safeSetApplied(name);
      if (done.message)
        this.deps.pool
          .get(name)
          ?.hostLog(
            'notice',
            `${done.message} (the default safe set); turn one on in Tools if the model needs it`,
          );
      return done;
    })()
      .catch((err: unknown): SafeDefaults => {
        this.deps.log({
          server: name,
          at: Date.now(),
          source: 'host',
          level: 'error',
          text: `the default safe set could not be applied: ${toErrorData(err).message}`,
        });
        return { disabledCount: 0, pending: true };
      })
      .then((done) => {
        if (done) this.finished.set(name, done);
        this.runs.delete(name);
      });
    this.runs.set(name, run);
  }

  /**
   * The default safe set: read-only tools on; destructive and unannotated tools (possibly destructive,
   * per the spec's annotations) off, written to its excludeTools. Returns what it did, e.g. "3 destructive
   * tools disabled by default".
   */
  private async applySafeDefaults(name: string): Promise<SafeDefaults> {
    const actor = this.deps.pool.get(name);
    if (!actor || actor.status().state !== 'ready') return { disabledCount: 0, pending: true };
    const safe = defaultExcludeTools(actor.tools().map((t) => t.definition));
    if (!safe.disabledCount) return { disabledCount: 0 };
    await this.deps.exclude(name, safe.excludeTools);
    return { disabledCount: safe.disabledCount, ...(safe.message ? { message: safe.message } : {}) };
  }
}
