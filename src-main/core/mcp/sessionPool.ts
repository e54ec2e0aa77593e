// Owns the session actors: one per enabled server, keyed by the hash of its config's identity, so an
// edited server gets a fresh actor and an untouched one keeps its warm session. The tool filters and the
// approval policy are not part of that identity (ARCHITECTURE.md, "Session actor states"): editing them
// reconfigures the actor in place, and the server process goes on. Each session publishes its events straight
// onto the bus the pool is given (the core's: ARCHITECTURE.md, "The path of an event"), not through the pool.
import { createHash } from 'node:crypto';
import type { ServerConfig } from '@shared/config';
import type { LogLine, SessionStatus, ToolsChange } from '@shared/session';
import type { Disposable } from '../disposable';
import { EventBus } from '../eventBus';
import { SessionActor, type SessionActorOptions } from './sessionActor';
import type { SessionEvents } from './types';

/** The events of a pool's sessions, by name. */
export interface SessionEventMap {
  status: SessionStatus;
  tools: ToolsChange;
  log: LogLine;
}

/** Where a pool's sessions publish and whoever follows them subscribes (the core's bus, or the pool's own). */
export type SessionEventBus = Pick<EventBus<SessionEventMap>, 'emit' | 'on' | 'off'>;

export type PoolActorOptions = Omit<SessionActorOptions, 'config'>;

/**
 * A session's identity: the fields that change what runs or how Mooring talks to it. The rest applies to
 * a live session in place (`reconfigure`): the tool filter and policy, the sampling budget (read at each
 * request) and the log level (sent again when the session reports ready).
 */
export const configHash = (c: ServerConfig): string => {
  const {
    includeTools: _include,
    excludeTools: _exclude,
    policy: _policy,
    samplingTokensPerHour: _budget,
    logLevel: _level,
    ...identity
  } = c;
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex');
};

export class SessionPool {
  private actors = new Map<string, { hash: string; actor: SessionActor }>();
  private closing?: Promise<void>;

  constructor(
    private readonly actorOptions: PoolActorOptions = {},
    private readonly events: SessionEventBus = new EventBus<SessionEventMap>(),
  ) {}

  /** Follows this pool's sessions (on the bus it publishes to); disposing the result stops. */
  on<E extends keyof SessionEvents>(event: E, listener: SessionEvents[E]): Disposable {
    return this.events.on(event, listener as (p: SessionEventMap[E]) => void);
  }

  off<E extends keyof SessionEvents>(event: E, listener: SessionEvents[E]): void {
    this.events.off(event, listener as (p: SessionEventMap[E]) => void);
  }

  /**
   * Brings the pool in line with the configs: starts new and changed enabled servers in parallel,
   * closes removed and disabled ones. Best effort: a server that fails is reported in its status and
   * the others carry on; this never rejects.
   */
  async sync(configs: ServerConfig[]): Promise<void> {
    if (this.closing) return;
    const wanted = new Map(configs.filter((c) => c.enabled).map((c) => [c.name, c]));
    const closes: Promise<void>[] = [];
    for (const [name, { hash, actor }] of this.actors) {
      const c = wanted.get(name);
      if (c && configHash(c) === hash && JSON.stringify(c) !== JSON.stringify(actor.config))
        actor.reconfigure(c);
      if (!c || configHash(c) !== hash) {
        this.actors.delete(name);
        closes.push(actor.close());
        if (!c) this.events.emit('status', actor.status());
      }
    }
    const starts: Promise<void>[] = [];
    for (const c of wanted.values()) {
      if (this.actors.has(c.name)) continue;
      const actor = new SessionActor({ ...this.actorOptions, config: c });
      actor.on('status', (s) => this.events.emit('status', s));
      actor.on('tools', (t) => this.events.emit('tools', t));
      actor.on('log', (l) => this.events.emit('log', l));
      this.actors.set(c.name, { hash: configHash(c), actor });
      starts.push(actor.start().catch(() => undefined));
    }
    await Promise.all([...closes, ...starts]);
  }

  /** A fresh session for one server (after sign-in or sign-out): close the actor, start a new one. */
  async restart(name: string): Promise<void> {
    const entry = this.actors.get(name);
    if (!entry) return;
    this.actors.delete(name);
    await entry.actor.close();
    await this.sync([...this.list().map((a) => a.config), entry.actor.config]);
  }

  get(name: string): SessionActor | undefined {
    return this.actors.get(name)?.actor;
  }

  list(): SessionActor[] {
    return [...this.actors.values()].map((a) => a.actor);
  }

  statuses(): SessionStatus[] {
    return this.list().map((a) => a.status());
  }

  /** Closes every session once; later calls return the same promise. */
  closeAll(): Promise<void> {
    this.closing ??= Promise.all(this.list().map((a) => a.close())).then(() => undefined);
    return this.closing;
  }

  killAllNow(): void {
    for (const a of this.list()) a.killNow();
  }
}
