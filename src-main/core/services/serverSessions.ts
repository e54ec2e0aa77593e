// The sessions of the configured servers (ARCHITECTURE.md, "The core as one object"): brought in line with
// the configs (`sync`, after every edit once this process runs its servers), just some of them for a CLI
// command (`startOnly`), the file followed while the app runs (`watch`), a tool list fetched again, a
// session restarted, the traffic recorded; and every new server's default safe set, applied on its first
// connect (services/safeSet.ts). What it starts (the file's watch) it owns and ends on `dispose`.
import type { ServerConfig } from '@shared/config';
import type { LogLine, SessionStatus } from '@shared/session';
import type { ToolService } from '../calls/toolService';
import type { ServersStore } from '../config/serversStore';
import { DisposableObject, toDisposable } from '../disposable';
import { MooringError } from '../errors';
import type { SessionPool } from '../mcp/sessionPool';
import { SafeSetApplier, type SafeSetMarks } from './safeSet';

export interface ServerSessionsDeps {
  pool: SessionPool;
  /** Every server this process runs (ConfiguredServers.configs). */
  configs: () => Promise<ServerConfig[]>;
  store: Pick<ServersStore, 'watch'>;
  safeSet: SafeSetMarks;
  /** Adds tools to a server's excludeTools in the file (the configured servers' one edit). */
  exclude: (server: string, tools: string[]) => Promise<void>;
  tools: Pick<ToolService, 'invalidate'>;
  log: (line: LogLine) => void;
  /** The watched file changed: a UI showing the list (or the file's error) reads it again. */
  onFileChange?: (ok: boolean) => void;
}

export class ServerSessions extends DisposableObject {
  /** Every new server's default safe set, applied on its first connect. */
  readonly safeSet: SafeSetApplier;
  /** Set by the first full `sync`: this process runs its servers, so changes start and stop sessions. */
  private live = false;
  private watching = false;

  constructor(private readonly deps: ServerSessionsDeps) {
    super();
    this.safeSet = this.register(
      new SafeSetApplier({
        marks: deps.safeSet,
        pool: deps.pool,
        exclude: async (name, tools) => {
          await deps.exclude(name, tools);
          // A process that only started this server (the CLI's startOnly) does not follow the file: its
          // running session takes the filter in place all the same.
          const actor = deps.pool.get(name);
          if (actor && !this.live) {
            actor.reconfigure({
              ...actor.config,
              excludeTools: [...new Set([...actor.config.excludeTools, ...tools])],
            });
            deps.tools.invalidate();
          }
        },
        log: deps.log,
      }),
    );
  }

  /**
   * Brings the sessions in line with the configs, and waits for the safe sets the new connections started,
   * so nothing runs with a destructive tool the safe set is about to turn off. From then on every change
   * starts and stops sessions too.
   */
  async sync(): Promise<void> {
    this.live = true;
    await this.syncSessions();
    await this.safeSet.settled();
  }

  /**
   * After a change: the sessions follow once this process runs its servers (the app, browser mode,
   * `serve`). A CLI command that only edits the file (`mcp remove`, `mcp import`, `mcp trust`) starts
   * nothing.
   */
  async follow(): Promise<void> {
    if (this.live) await this.sync();
  }

  /** After one entry's edit: like `follow`, without waiting for safe sets (one being applied edits too). */
  async afterEdit(): Promise<void> {
    if (this.live) await this.syncSessions();
  }

  /**
   * After servers were added: waits for their first connects, whichever sync started them (the add's own,
   * or the file's watch that saw the write first), and for the safe sets those connects started, so
   * `safeSet.outcome` says what was turned off.
   */
  async firstConnects(names: string[]): Promise<void> {
    await Promise.all(names.map((n) => this.deps.pool.get(n)?.connectSettled()));
    await this.safeSet.settled();
  }

  /**
   * Starts just these servers (the CLI connects only what a command needs). With `trustForThisRun`
   * (`mooring mcp call --trust`), their commands may be outside the allowlist in this process only;
   * nothing is written.
   */
  async startOnly(names: string[], opts: { trustForThisRun?: boolean } = {}): Promise<void> {
    const all = await this.deps.configs();
    const missing = names.filter((n) => !all.some((c) => c.name === n));
    if (missing.length)
      throw new MooringError(
        'not_found',
        `No server named ${missing.map((m) => `"${m}"`).join(', ')}`,
        'List the servers with: mooring mcp list',
      );
    await this.deps.pool.sync(
      all
        .filter((c) => names.includes(c.name))
        .map((c) => ({ ...c, enabled: true, ...(opts.trustForThisRun ? { trust: true } : {}) })),
    );
    await this.safeSet.settled();
  }

  /** Follows edits of mcp_servers.json (by hand, or by another process) until `dispose`. */
  async watch(): Promise<void> {
    if (this.watching || this.isDisposed) return;
    this.watching = true;
    const stop = await this.deps.store.watch((change) => {
      this.deps.onFileChange?.(change.ok);
      if (change.ok) void this.sync();
      else
        this.deps.log({
          server: '*',
          at: Date.now(),
          source: 'host',
          level: 'error',
          text: change.error.message,
        });
    });
    this.register(toDisposable(stop));
  }

  /** The server's tool list, fetched again. */
  async refresh(name: string): Promise<SessionStatus | null> {
    await this.running(name).refreshTools();
    return this.status(name);
  }

  /** A fresh session (Retry on a failed server, after the user fixed what made it fail). */
  async restart(name: string): Promise<SessionStatus | null> {
    this.running(name);
    await this.deps.pool.restart(name);
    await this.safeSet.settled();
    return this.status(name);
  }

  /** Records (or stops recording) the server's JSON-RPC traffic in its log. */
  setTracing(name: string, on: boolean): { on: boolean } {
    this.running(name).setTracing(on);
    return { on };
  }

  tracing(name: string): { on: boolean } {
    return { on: this.deps.pool.get(name)?.isTracing ?? false };
  }

  private async syncSessions(): Promise<void> {
    await this.deps.pool.sync(await this.deps.configs());
  }

  private status(name: string): SessionStatus | null {
    return this.deps.pool.statuses().find((s) => s.name === name) ?? null;
  }

  private running(name: string) {
    const actor = this.deps.pool.get(name);
    if (!actor)
      throw new MooringError(
        'not_found',
        `"${name}" is not running`,
        'Enable it on the Servers screen (or mooring mcp list shows whether it exists).',
      );
    return actor;
  }
}
