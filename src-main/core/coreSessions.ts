// The composition root's first part (ARCHITECTURE.md, "The core as one object"): what runs before every
// connect, what servers ask of the client, and the sessions — the global pool, the project folders' pools
// and the tasks that outlive a call. Built in this order, each part registered with the root as it is built,
// so they close after everything built on them (mooringCore.ts).
import type { ServerConfig } from '@shared/config';
import type { LogLine } from '@shared/session';
import type { CoreEvents } from '@shared/wire';
import { OAuthManager } from './auth/oauthManager';
import { ConfinementService, type ConfinementServiceDeps } from './confine/confinementService';
import {
  createClientFeatures,
  SamplingModel,
  type ClientFeatures,
  type SamplingComplete,
} from './clientFeatures';
import type { SettingsService } from './config/settingsService';
import { toDisposable, type Disposable } from './disposable';
import { MooringError } from './errors';
import type { EventBus } from './eventBus';
import type { HomePaths } from './home';
import { SessionPool, type PoolActorOptions } from './mcp/sessionPool';
import type { SecretRedactor } from './safety/redact';
import type { SecretStore } from './secrets/secretStore';
import { ServerPreparation } from './services/serverPreparation';
import { TaskService } from './tasks/taskService';
import { WorkspaceService } from './workspace/workspaceService';

/** What a host chooses about the sessions (part of MooringCoreOptions). */
export interface SessionsOptions {
  env?: NodeJS.ProcessEnv;
  /** Session tuning for tests and benchmarks (backoff, keepalive). */
  session?: Partial<PoolActorOptions>;
  /** The model behind server-initiated sampling until the chat or a host picks one (SamplingModel). */
  complete?: SamplingComplete;
  /** Opens an https URL in the user's browser (URL-mode elicitation); without it that mode is not offered. */
  openExternal?: (url: string) => Promise<void>;
  /** The host renders MCP App views (the desktop app, browser mode): servers are told they may send them. */
  offerAppViews?: boolean;
  /**
   * A project folder for this process (CLI `--workspace`): its approved workspace servers join or
   * override the global ones, and it is offered to servers as the MCP root.
   */
  workspace?: string;
}

export interface SessionsInput {
  opts: SessionsOptions;
  paths: HomePaths;
  secrets: SecretStore;
  bus: EventBus<CoreEvents>;
  redactor: SecretRedactor;
  settings: SettingsService;
  /** The global servers a folder's servers join (the configured servers, built after the sessions). */
  globalConfigs: () => Promise<ServerConfig[]>;
  /** The configured servers as confinement reads and writes one (built after the sessions too). */
  configured: ConfinementServiceDeps['servers'];
  /** Ties a part to the root's lifetime: disposed when the core closes, in reverse order. */
  register: <T extends Disposable>(d: T) => T;
}

export interface Sessions {
  /** What each local server may touch, and the managed policy every add and start asks (docs/confinement.md). */
  confinement: ConfinementService;
  preparation: ServerPreparation;
  samplingModel: SamplingModel;
  features: ClientFeatures;
  oauth: OAuthManager;
  pool: SessionPool;
  workspaces: WorkspaceService;
  tasks: TaskService;
  /** What a throwaway session (a connection test, a sign-in) runs with. */
  connect: PoolActorOptions;
  /** The options of every session of the global pool, or of one folder's pool. */
  sessionOptions: (workspace?: string) => PoolActorOptions;
  /** A note for a server's own log while its session runs, else the core's (redacted). */
  serverLog: (line: LogLine) => void;
}

/**
 * One end of a cycle between two parts of the root, closed on purpose once the later one is built; each
 * is named where it is made (three in all). Read before that, it says which part was missing.
 */
export class Later<T> {
  private value?: T;
  constructor(private readonly what: string) {}
  set(value: T): T {
    return (this.value = value);
  }
  get(): T {
    if (this.value === undefined) throw new MooringError('internal', `${this.what} is not built yet`);
    return this.value;
  }
}

export function buildSessions(i: SessionsInput): Sessions {
  const { opts, paths, secrets, bus, redactor, settings, register } = i;
  const redactedLog = (l: LogLine) => bus.emit('log', { ...l, text: redactor.redact(l.text) });
  // The one cycle of this part: the client features answer the pool's servers (their log, their own log
  // level and sampling budget), and the pool's sessions carry the features' handlers.
  const pools = new Later<SessionPool>('The session pool');
  const actor = (server: string) => pools.get().get(server);
  const serverLog = (l: LogLine) => {
    const a = actor(l.server);
    if (a) a.hostLog(l.level, l.text);
    else redactedLog(l);
  };

  // Closed after every session (registered before them): a confined server's violations are written to the end.
  const confinement = new ConfinementService({
    home: paths.home,
    env: () => opts.env ?? process.env,
    servers: i.configured,
  });
  register(toDisposable(() => confinement.close()));
  const preparation = new ServerPreparation({
    secrets,
    env: () => opts.env ?? process.env,
    osvEndpoint: () => settings.current().osvEndpoint,
    ...(opts.workspace ? { workspace: opts.workspace } : {}),
    log: redactedLog,
    redactor,
    admit: (config) => confinement.check(config, 'start'),
  });
  register(toDisposable(() => preparation.close()));
  const samplingModel = new SamplingModel(opts.complete);
  const features = createClientFeatures({
    complete: samplingModel.complete,
    ...(opts.offerAppViews ? { offerViews: true } : {}),
    ...(opts.openExternal ? { openExternal: opts.openExternal } : {}),
    logLevel: (server) => actor(server)?.config.logLevel ?? settings.current().logLevel,
    // A server's own budget (its samplingTokensPerHour), read at each request, so an edit applies at once.
    samplingBudget: { limitFor: (server) => actor(server)?.config.samplingTokensPerHour },
    log: serverLog,
  });
  register(toDisposable(() => features.dispose()));
  const oauth = register(
    new OAuthManager({
      secrets,
      redirectPort: () => settings.current().oauthRedirectPort,
      onSecrets: (values) => redactor.add(values),
    }),
  );

  /** What every connect runs first (allowlist, OSV, secrets, a folder's inputs); see serverPreparation.ts. */
  const prepareFor =
    (workspace?: string): NonNullable<PoolActorOptions['prepare']> =>
    (config, ctx) =>
      preparation.prepare(config, ctx.warn, workspace);
  const connect: PoolActorOptions = {
    ...opts.session,
    // Every stdio start goes through the confined launcher (confine/confinedLauncher.ts).
    transportFactory: confinement.transports(opts.session?.transportFactory),
    prepare: prepareFor(),
    guardFor: (config) => preparation.guardFor(config),
    redact: redactor.redact,
  };
  const sessionOptions = (workspace?: string): PoolActorOptions => ({
    ...connect,
    prepare: prepareFor(workspace),
    authProviderFor: oauth.authFor,
    capabilities: features.capabilities,
    clientHandlers: features.clientHandlers,
  });
  // Each session publishes on the core's bus itself (mcp/sessionPool.ts).
  const pool = pools.set(new SessionPool(sessionOptions(), bus));
  const workspaces = new WorkspaceService({
    home: paths.home,
    secrets,
    globalConfigs: i.globalConfigs,
    poolOptions: sessionOptions,
    admit: (config) => confinement.check(config, 'workspace'),
  });
  // Every session, the global pool's and the folders', closes together.
  register(toDisposable(() => Promise.all([pool.closeAll(), workspaces.dispose()])));
  // After a session is (re)connected: its log level, then the resource subscriptions it had.
  register(
    pool.on('status', (s) => {
      const ready = s.state === 'ready' ? pool.get(s.name) : undefined;
      if (ready) void features.onSessionReady(ready).catch(() => undefined);
    }),
  );
  const tasks = new TaskService({
    home: paths.home,
    actor: (server) => pool.get(server),
    fulfil: (server, request, signal) => features.fulfilInputRequest(server, request, signal),
    log: serverLog,
  });
  register(toDisposable(() => tasks.close()));
  return {
    confinement,
    preparation,
    samplingModel,
    features,
    oauth,
    pool,
    workspaces,
    tasks,
    connect,
    sessionOptions,
    serverLog,
  };
}
