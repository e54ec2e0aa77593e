// The composition root (ARCHITECTURE.md, "The core as one object"; docs/decisions/002-rooms-and-composition-root.md): builds the
// rooms, wires them together, hands out one service per job, and owns every disposable. Every host holds
// one: the Electron shell, browser mode, the CLI, `mooring serve`. Callers use the services below and
// never the rooms behind them; each service keeps its own logic.
import { EventEmitter } from 'node:events';
import { homedir } from 'node:os';
import type { ApprovalRequest } from '@shared/approval';
import { isRemoteServer, type ServerConfig } from '@shared/config';
import type { Interaction } from '@shared/interactions';
import type { LogLine, SessionStatus, ToolsChange } from '@shared/session';
import type { LogLevel, Settings } from '@shared/settings';
import { ChatModels } from './agent/chatModels';
import { ChatPreferencesFile } from './agent/chatPreferences';
import { ChatService } from './agent/chatService';
import { ConversationStore } from './agent/conversationStore';
import { ConversationTitles } from './agent/conversationTitles';
import { ProviderKeyFile } from './agent/providerKeyFile';
import { ProviderAccess } from './agent/providerAccess';
import { parseModelSpec } from './agent/providers/resolveProvider';
import { AppViews } from './apps/appViews';
import { AuthService } from './auth/authService';
import { OAuthManager } from './auth/oauthManager';
import { ToolService } from './calls/toolService';
import {
  createClientFeatures,
  createRelaySource,
  PromptsService,
  ResourcesService,
  type ClientFeatures,
  type SamplingComplete,
} from './clientFeatures';
import type { InteractionBroker } from './clientFeatures/interactionBroker';
import type { UrlElicitations } from './clientFeatures/urlElicitations';
import { MooringError } from './errors';
import { ServerManager } from './config/serverManager';
import { loadSettings } from './config/settings';
import { SettingsService } from './config/settingsService';
import { ServersStore } from './config/serversStore';
import { homePaths, resolveHome, type HomePaths } from './home';
import { InstallLinkInbox } from './install/installLinkInbox';
import { InstallService } from './install/installService';
import { registryUrlFrom } from './install/registryClient';
import { MemoryStore } from './memory/memoryStore';
import { SessionPool, type PoolActorOptions } from './mcp/sessionPool';
import { ApprovalBroker } from './safety/approvalBroker';
import { ApprovalStore } from './safety/approvalStore';
import { AuditLog } from './safety/auditLog';
import { createGuardedFetch, type GuardedFetch } from './safety/guardedFetch';
import { IconResolver, type Icon } from './safety/icons';
import { SecretRedactor } from './safety/redact';
import { ToolQuarantine } from './safety/toolQuarantine';
import { KeytarSecretStore, type SecretStore } from './secrets/secretStore';
import { relayApprovalsToApp, type ApprovalRelayClient } from './serve/approvalRelayClient';
import { startApprovalRelayListener, type ApprovalRelayListener } from './serve/approvalRelayListener';
import type { SelfLaunch } from './serve/launchCommand';
import { ScheduleService } from './schedules/scheduleService';
import { declineUnattendedInteractions, UNATTENDED_CLIENT_PREFIX } from './schedules/unattendedInteractions';
import type { RelaySource } from './serve/servedCore';
import { McpSharing } from './serve/sharing';
import { ConfiguredServers } from './services/configuredServers';
import { PermissionsService } from './services/permissions';
import { DetectedClients } from './services/detectedClients';
import { ConversationGrants } from './safety/conversationGrants';
import { FlowPermissions } from './safety/flowPermissions';
import { TaskService } from './tasks/taskService';
import { ServerPreparation } from './services/serverPreparation';
import { ConfinementService } from './confine/confinementService';
import { canonicalWorkspace } from './workspace/discovery';
import { WorkspaceService } from './workspace/workspaceService';

export interface CoreEvents {
  status: [SessionStatus];
  tools: [ToolsChange];
  log: [LogLine];
  /** mcp_servers.json changed on disk (an editor, another process): valid now or not. */
  serversFile: [{ ok: boolean }];
  approval: [ApprovalRequest];
  /** A server asks the user something: sampling approval, a form, a URL to open. */
  interaction: [Interaction];
  /** A resource Mooring subscribed to changed (notifications/resources/updated). */
  resourceUpdated: [{ server: string; uri: string }];
  /** A server's list of resources or prompts changed. */
  listChanged: [{ server: string; what: 'resources' | 'prompts' }];
}

export interface MooringCoreOptions {
  home?: string;
  env?: NodeJS.ProcessEnv;
  secretStore?: SecretStore;
  /** Session tuning for tests and benchmarks (backoff, keepalive). */
  session?: Partial<PoolActorOptions>;
  /** Extra servers for this process only (e.g. MOORING_MCP_SERVER_* quick config); never written. */
  extraServers?: ServerConfig[];
  /** The model behind server-initiated sampling; without it Mooring does not offer sampling. */
  complete?: SamplingComplete;
  /** Opens an https URL in the user's browser (URL-mode elicitation); without it that mode is not offered. */
  openExternal?: (url: string) => Promise<void>;
  /** The host renders MCP App views (the desktop app, browser mode): servers are told they may send them. */
  offerAppViews?: boolean;
  /** How a client starts this install on stdio (the packaged app: its binary and `--mcp-server`); default: Node and bin/mooring.mjs. */
  selfLaunch?: SelfLaunch;
  /**
   * A project folder for this process (CLI `--workspace`): its approved workspace servers join or
   * override the global ones, and it is offered to servers as the MCP root.
   */
  workspace?: string;
}

/** What the root builds before it exists (the files it reads and the stores it opens). */
interface Opened {
  paths: HomePaths;
  secrets: SecretStore;
  approvalStore: ApprovalStore;
  quarantine: ToolQuarantine;
  /** The pairs of servers data may flow between (docs/trust.md). */
  flows: FlowPermissions;
  /** settings.json as loaded. */
  settings: Settings;
}

export class MooringCore extends EventEmitter<CoreEvents> {
  /** The configured servers: list, add, edit, remove, enable, tool toggles, import, test, logs. */
  readonly servers: ConfiguredServers;
  /** The catalog over every live session and the one gated tool call. */
  readonly tools: ToolService;
  /** settings.json and the named tool sets in it. */
  readonly settings: SettingsService;
  /** Project folders: what they offer, approval, their sessions. */
  readonly workspaces: WorkspaceService;
  /** Sign-in to remote servers. */
  readonly auth: AuthService;
  /** The MCP configs of other apps on this machine, offered for import. */
  readonly clients: DetectedClients;
  /** Every standing permission ("always allow", trusted servers, approved folders, sign-ins), and revoking it. */
  readonly permissions: PermissionsService;
  /** Tool calls waiting for a person's approval: listed, answered by id. */
  readonly approvals = new ApprovalBroker();
  /** What servers ask the user (sampling approval, forms, links): listed, answered by id. */
  readonly interactions: InteractionBroker;
  /** Browser flows after their link opened: completion notices, and calls waiting for them (-32042). */
  readonly urlElicitations: UrlElicitations;
  /** Model providers: endpoints, keys in the keychain, Check. */
  readonly providers: ProviderAccess;
  readonly conversations: ConversationStore;
  /** Names a new conversation with its own model after its first answer, in the background. */
  readonly titles: ConversationTitles;
  readonly memory: MemoryStore;
  /** Mooring as an MCP server, started from the app. */
  readonly sharing: McpSharing;
  /** The servers' prompts, as the composer's slash commands, with their arguments' completions. */
  readonly prompts: PromptsService;
  /** The servers' resources: list, templates, read, subscribe, completions, attach to a message. */
  readonly resources: ResourcesService;
  /**
   * Tool calls that run as tasks (MCP 2025-11-25 "Tasks"; the 2026-07-28 tasks extension): followed to
   * their end, cancellable, kept in the home and resumed after a restart (ARCHITECTURE.md, "Tasks").
   */
  readonly tasks: TaskService;
  /** MCP Apps: tool results with interactive views, and what those views ask of the host. */
  readonly apps: AppViews;
  /** Install links the desktop shell received, waiting for the user's consent (nothing installs itself). */
  readonly installLinks = new InstallLinkInbox();
  /** The MCP registry, bundles and install links: plans for consent, then the install through `servers.add`. */
  readonly install: InstallService;
  /** What each local server may touch, what it was refused, and the managed policy (docs/confinement.md). */
  readonly confinement: ConfinementService;
  /**
   * Every secret value this process knows (keychain values, secret `${env:…}` values, OAuth tokens): masked
   * out of server logs, session errors, test results and the audit log (ARCHITECTURE.md, "The core as one
   * object").
   */
  readonly redactor = new SecretRedactor();
  /** The connected servers' prompts, resources, completions and logs, for `mooring serve` (serve/featuresRelay.ts). */
  readonly relay: RelaySource;
  /** Server, tool and prompt icons made safe to show (safety/icons.ts). */
  private readonly icons = new IconResolver();
  /** The fetch for a stdio server's https icons: the SSRF guard, public addresses only. */
  private iconFetch?: GuardedFetch;

  private readonly pool: SessionPool;
  /** "Allow for this conversation" answers: in memory, per conversation. */
  private readonly grants = new ConversationGrants();
  private readonly features: ClientFeatures;
  private readonly preparation: ServerPreparation;
  private readonly audit: AuditLog;
  private readonly oauth: OAuthManager;
  private chatService?: ChatService;
  private chatModels?: ChatModels;
  private scheduleService?: ScheduleService;
  private stopDeclining?: () => void;
  private samplingComplete?: SamplingComplete;

  private constructor(
    private readonly opts: MooringCoreOptions,
    private readonly opened: Opened,
  ) {
    super();
    const { paths, secrets } = opened;
    const env = () => opts.env ?? process.env;
    this.confinement = new ConfinementService({
      home: paths.home,
      env,
      servers: {
        get: (name) => this.servers.get(name),
        update: (name, input) => this.servers.update(name, input),
      },
    });
    opened.approvalStore.rememberingAllowed = () => this.confinement.allowsAlwaysAllow();
    this.settings = new SettingsService({
      file: paths.settings,
      initial: opened.settings,
      // A settings change makes the catalogs stale and may change the servers' log level.
      onChange: async (s) => {
        this.tools.invalidate();
        await Promise.all(
          this.pool.list().map((a) => this.features.setLogLevel(a.config.logLevel ?? s.logLevel, [a])),
        );
      },
    });
    this.samplingComplete = opts.complete;
    this.audit = new AuditLog(paths.home, this.redactor.redact);
    this.preparation = new ServerPreparation({
      secrets,
      env,
      osvEndpoint: () => this.settings.current().osvEndpoint,
      ...(opts.workspace ? { workspace: opts.workspace } : {}),
      log: (l) => this.emit('log', { ...l, text: this.redactor.redact(l.text) }),
      redactor: this.redactor,
      admit: (config) => this.confinement.check(config, 'start'),
    });
    this.features = createClientFeatures({
      // Sampling is answered by the model the host picked (setSamplingModel), else the default one.
      complete: (req, ctx) => (this.samplingComplete ?? this.defaultSampling())(req, ctx),
      ...(opts.offerAppViews ? { offerViews: true } : {}),
      ...(opts.openExternal ? { openExternal: opts.openExternal } : {}),
      logLevel: (server) => this.pool.get(server)?.config.logLevel ?? this.settings.current().logLevel,
      // A server's own budget (its samplingTokensPerHour), read at each request, so an edit applies at once.
      samplingBudget: { limitFor: (server) => this.pool.get(server)?.config.samplingTokensPerHour },
      log: (l) => {
        const actor = this.pool.get(l.server);
        if (actor) actor.hostLog(l.level, l.text);
        else this.emit('log', { ...l, text: this.redactor.redact(l.text) });
      },
    });
    this.interactions = this.features.broker;
    this.urlElicitations = this.features.urlElicitations;
    this.oauth = new OAuthManager({
      secrets,
      redirectPort: () => this.settings.current().oauthRedirectPort,
      onSecrets: (values) => this.redactor.add(values),
    });
    this.pool = new SessionPool(this.sessionOptions());
    this.workspaces = new WorkspaceService({
      home: paths.home,
      secrets,
      globalConfigs: () => this.servers.configs(),
      poolOptions: (workspace) => this.sessionOptions(workspace),
      onChange: () => this.tools.invalidate(),
      admit: (config) => this.confinement.check(config, 'workspace'),
    });
    this.tasks = new TaskService({
      home: paths.home,
      actor: (server) => this.pool.get(server),
      fulfil: (server, request, signal) => this.features.fulfilInputRequest(server, request, signal),
      deliver: ({ record: r, outcome }) =>
        this.chat.deliverTaskResult({
          conversationId: r.conversationId!,
          callId: r.callId,
          server: r.server,
          tool: r.tool,
          friendlyName: r.friendlyName,
          taskId: r.taskId,
          outcome,
        }),
      publish: (e) => this.tools.publish(e),
      log: (l) => {
        const actor = this.pool.get(l.server);
        if (actor) actor.hostLog(l.level, l.text);
        else this.emit('log', l);
      },
    });
    // Built before the root listens to the pool, so its catalogs are stale before anyone hears a change.
    this.tools = new ToolService({
      tasks: this.tasks,
      // A host that cannot open links declares no URL elicitation, and a -32042 fails with why.
      ...(opts.openExternal ? { urlElicitation: this.features.urlElicitations } : {}),
      pool: this.pool,
      sessionsFor: (workspace, global) => this.workspaces.sessions.actors(workspace, global),
      folderSession: (workspace, server) => this.workspaces.sessions.actor(workspace, server),
      quarantine: opened.quarantine,
      gate: {
        store: opened.approvalStore,
        audit: this.audit,
        yolo: () => this.settings.current().yolo && this.confinement.allowsYolo(),
        grants: this.grants,
        flows: opened.flows,
      },
      approvals: this.approvals,
      toolSet: (name) => this.settings.toolSet(name),
    });
    const connect = {
      ...opts.session,
      transportFactory: this.confinement.transports(opts.session?.transportFactory),
      prepare: this.prepare(),
      guardFor: this.guardFor(),
      redact: this.redactor.redact,
    };
    this.servers = new ConfiguredServers({
      manager: new ServerManager(new ServersStore({ file: paths.servers }), secrets),
      safeSet: opened.quarantine,
      pool: this.pool,
      tools: this.tools,
      // The capabilities of a real session: a server lists the tools it would list there.
      testSession: {
        ...connect,
        authProviderFor: this.oauth.authFor,
        capabilities: this.features.capabilities,
        clientHandlers: this.features.testClientHandlers,
      },
      forgetSignIn: (name) => this.oauth.signOut(name),
      removeInstalledFiles: async (name) => {
        await this.install.removeFiles(name);
        await this.confinement.forgetServer(name);
      },
      admit: (config, how) => this.confinement.check(config, how),
      confinement: (configs) => this.confinement.views(configs),
      extraServers: opts.extraServers ?? [],
      ...(opts.workspace ? { workspace: opts.workspace } : {}),
      scanWorkspace: (dir) => this.workspaces.scan(dir),
      log: (l) => this.emit('log', l),
      onFileChange: (ok) => this.emit('serversFile', { ok }),
      serverIcon: (name) => this.iconOf(name, this.pool.get(name)?.serverIcons()),
    });
    this.auth = new AuthService({
      oauth: this.oauth,
      serverConfig: (name) => this.servers.get(name),
      session: connect,
      restart: (name) => this.pool.restart(name),
      log: (l) => this.emit('log', l),
    });
    this.clients = new DetectedClients({
      environment: () => ({ platform: process.platform, home: homedir(), env: opts.env ?? process.env }),
      existing: async () => (await this.servers.configs()).map((c) => c.name),
    });
    this.permissions = new PermissionsService({
      approvals: opened.approvalStore,
      flows: opened.flows,
      grants: this.grants,
      workspaces: this.workspaces,
      servers: this.servers,
      signIns: {
        state: (config) => this.oauth.signInState(config),
        signOut: (name) => this.auth.signOut(name),
      },
    });
    this.install = new InstallService({
      home: paths.home,
      registryUrl: () =>
        this.confinement.registryUrl() ?? registryUrlFrom(env(), this.settings.current().registryUrl),
      osvEndpoint: () => this.settings.current().osvEndpoint,
      add: (input, o) => this.servers.add(input, o),
      existingNames: async () => (await this.servers.configs()).map((c) => c.name),
    });
    this.providers = new ProviderAccess({
      secrets,
      keyFile: new ProviderKeyFile(paths.home),
      settings: () => this.settings.current(),
      env,
    });
    this.conversations = ConversationStore.forHome(paths.home);
    this.titles = new ConversationTitles({
      store: this.conversations,
      enabled: () => this.settings.current().titlesFromModel,
      log: (l) => this.emit('log', { ...l, text: this.redactor.redact(l.text) }),
    });
    this.memory = MemoryStore.forHome(paths.home);
    this.sharing = new McpSharing(this, {
      ...(opts.selfLaunch ? { selfLaunch: opts.selfLaunch } : {}),
      ...(opts.env ? { env: opts.env } : {}),
    });
    this.prompts = new PromptsService(this.pool);
    this.resources = new ResourcesService({ sessions: this.pool, subscriptions: this.features.resources });
    this.features.resources.on('updated', (u) => this.emit('resourceUpdated', u));
    this.features.resources.on('listChanged', (c) => this.emit('listChanged', c));
    this.relay = createRelaySource({
      sessions: () => this.pool.list(),
      onLogLine: (fn) => {
        this.on('log', fn);
        return () => void this.off('log', fn);
      },
      resources: this.features.resources,
    });
    this.apps = new AppViews({
      tools: this.tools,
      pool: this.pool,
      workspaceOf: async (cid) => {
        const folder = this.features.roots.folderOf(cid);
        return folder ? this.workspaces.ensure(folder) : undefined;
      },
      folderSession: (workspace, server) => this.workspaces.sessions.actor(workspace, server),
      resources: this.features.resources,
      interactions: this.interactions,
      ...(opts.openExternal ? { openExternal: opts.openExternal } : {}),
      sendMessage: async (m) => {
        await this.chat.send({ conversationId: m.conversationId, text: m.text, app: m.app });
      },
    });

    this.pool.on('status', (s) => {
      if (s.state === 'ready') {
        const actor = this.pool.get(s.name);
        if (actor) void this.features.onSessionReady(actor).catch(() => undefined);
      }
      this.emit('status', s);
    });
    this.pool.on('tools', (t) => this.emit('tools', t));
    // An https icon arrived: the UI lists servers and tools again on a status event.
    this.icons.on('resolved', () => this.pool.statuses().forEach((s) => this.emit('status', s)));
    this.pool.on('log', (l) => this.emit('log', l));
    // A refused access changes the server card's count: the UI lists the servers again on a status event.
    this.confinement.onViolation((v) => {
      const s = this.pool.get(v.server)?.status();
      if (s) this.emit('status', s);
    });
    this.approvals.on('requested', (r) => this.emit('approval', r));
    this.interactions.on('requested', (r) => this.emit('interaction', r));
  }

  static async open(opts: MooringCoreOptions = {}): Promise<MooringCore> {
    const env = opts.env ?? process.env;
    const paths = homePaths(opts.home ?? resolveHome(env));
    const [settings, approvalStore, quarantine, flows] = await Promise.all([
      loadSettings(paths.settings),
      ApprovalStore.open(paths.home),
      ToolQuarantine.open(paths.home),
      FlowPermissions.open(paths.home),
    ]);
    const secrets = opts.secretStore ?? new KeytarSecretStore();
    return new MooringCore(opts, { paths, secrets, approvalStore, quarantine, flows, settings });
  }

  /**
   * The chat's models: the default, each conversation's, Settings > Models (built on first use; the
   * latest turn's model, else the default, answers sampling from then on).
   */
  get models(): ChatModels {
    this.chatModels ??= new ChatModels({
      prefs: new ChatPreferencesFile(this.opened.paths.home),
      providers: this.providers,
      settings: this.settings,
      setSamplingModel: (complete) => this.setSamplingModel(complete),
      env: () => this.opts.env ?? process.env,
    });
    return this.chatModels;
  }

  /** The chat: its turns and its conversations (built on first use). */
  get chat(): ChatService {
    this.chatService ??= new ChatService({
      appContext: (cid) => this.apps.contextFor(cid),
      store: this.conversations,
      titles: this.titles,
      models: this.models,
      providers: this.providers,
      settings: this.settings,
      tools: this.tools,
      roots: this.features.roots,
      ensureWorkspace: (dir) => this.workspaces.ensure(dir),
      attach: (server, uri) => this.resources.attachment(server, uri),
    });
    return this.chatService;
  }

  /**
   * Scheduled prompts (built on first use): the schedules, their runs, and — in the process that owns the
   * lease (`schedules.own`) — the scheduler. A run is a chat turn under the unattended policy; what servers
   * ask while only scheduled runs use them is declined.
   */
  get schedules(): ScheduleService {
    if (this.scheduleService) return this.scheduleService;
    this.scheduleService = new ScheduleService({
      home: this.opened.paths.home,
      runPrompt: async ({ schedule, signal, onConversation, onMessage }) => {
        const result = await this.chat.runUnattended({
          model: schedule.model,
          ...(schedule.toolSet ? { toolSet: schedule.toolSet } : {}),
          allow: schedule.allow,
          workspace: schedule.workspace,
          prompt: schedule.prompt,
          title: `${schedule.name} · ${new Date().toLocaleString()}`,
          who: `${UNATTENDED_CLIENT_PREFIX}"${schedule.name}"`,
          signal,
          onConversation,
          onMessage,
        });
        return { conversationId: result.conversationId, text: result.message.text };
      },
      checkModel: (spec) => void parseModelSpec(spec),
      checkToolSet: (name) => void this.settings.toolSet(name),
      onError: (err) =>
        this.emit('log', {
          server: 'mooring',
          at: Date.now(),
          source: 'host',
          level: 'error',
          text: `schedules: ${err instanceof Error ? err.message : String(err)}`,
        }),
    });
    this.stopDeclining = declineUnattendedInteractions({
      broker: this.interactions,
      calls: () => this.tools.snapshot(),
    });
    return this.scheduleService;
  }

  /** The model that answers server-initiated sampling requests (after the user approves each). */
  setSamplingModel(complete: SamplingComplete | undefined): void {
    this.samplingComplete = complete ?? this.opts.complete;
  }

  /**
   * Connects every enabled server in parallel; a failing one is reported, the rest work. A host that
   * stays up (the app, browser mode) also resumes the tasks a closed Mooring left running (`resumeTasks`).
   */
  async start(opts: { watch?: boolean; resumeTasks?: boolean } = {}): Promise<void> {
    if (this.opts.workspace) {
      await this.features.roots.setFolder('workspace', await canonicalWorkspace(this.opts.workspace));
      await this.features.roots.activate('workspace');
    }
    // Watch even when the first sync fails (an mcp_servers.json with a typo): the person fixes the file
    // while Mooring runs, and the fixed file starts the servers without a restart.
    try {
      await this.servers.sessions.sync();
    } finally {
      if (opts.watch) await this.servers.sessions.watch();
    }
    if (opts.resumeTasks)
      await this.tasks.resume().catch((e: Error) =>
        this.emit('log', {
          server: 'mooring',
          at: Date.now(),
          source: 'host',
          level: 'warning',
          text: `could not resume tasks: ${e.message}`,
        }),
      );
  }

  /** Starts just these servers (the CLI connects only what a command needs); see ServerSessions.startOnly. */
  startOnly(names: string[], opts: { trustForThisRun?: boolean } = {}): Promise<void> {
    return this.servers.sessions.startOnly(names, opts);
  }

  /**
   * What `mooring serve` on this home relays shows in this process's dialogs (the app, browser mode): its
   * clients' approvals, and its servers' sampling and elicitation requests.
   */
  listenForRelayedApprovals(): Promise<ApprovalRelayListener> {
    return startApprovalRelayListener({
      broker: this.approvals,
      interactions: this.interactions,
      home: this.opened.paths.home,
    });
  }

  /**
   * `mooring serve` with nobody to ask here: its approvals and its servers' sampling and elicitation
   * requests go to the running app's dialogs; with no app running they are refused or declined at once.
   */
  relayApprovalsToApp(opts: { via: string; onNotice?: (text: string) => void }): ApprovalRelayClient {
    return relayApprovalsToApp({
      broker: this.approvals,
      interactions: this.interactions,
      home: this.opened.paths.home,
      ...opts,
    });
  }

  /** The level one server logs at in this session only (`mooring mcp logs --level`); nothing is saved. */
  async setServerLogLevel(server: string, level: LogLevel): Promise<void> {
    const actor = this.pool.get(server);
    if (!actor) throw new MooringError('not_found', `No server named "${server}" is running`);
    await this.features.setLogLevel(level, [actor]);
  }

  /**
   * A server's, tool's or prompt's icon as a checked data: URI (safety/icons.ts), or undefined. An https icon
   * is fetched with the server's own SSRF policy (from its host only) or, for a stdio server, a public-only
   * one; it shows once it arrives.
   */
  iconOf(server: string, icons: readonly Icon[] | undefined): string | undefined {
    if (!icons?.length) return undefined;
    const config = this.pool.get(server)?.config;
    if (config && isRemoteServer(config))
      return this.icons.dataUri(icons, {
        serverUrl: config.url,
        fetch: this.preparation.fetchFor(config) as unknown as typeof fetch,
      });
    this.iconFetch ??= createGuardedFetch();
    return this.icons.dataUri(icons, { fetch: this.iconFetch });
  }

  /** A second signal while closing: kill every server's process group now. */
  killAllNow(): void {
    this.pool.killAllNow();
  }

  async close(): Promise<void> {
    // First: a conversation's task keeps running on the server, for the next start (not cancelled). Its
    // followers stop now, and in the same tick every turn is cancelled: a turn must not take the call's
    // "Mooring closed" as an answer and ask the model again while Mooring closes.
    const suspended = this.tasks.suspend();
    this.chatService?.cancelAll();
    this.titles.close();
    await suspended;
    this.stopDeclining?.();
    await this.scheduleService?.close();
    await this.sharing.stop().catch(() => undefined);
    this.features.dispose();
    this.servers.close();
    await Promise.all([this.pool.closeAll(), this.workspaces.close()]);
    await this.preparation.close();
    await this.iconFetch?.close().catch(() => undefined);
    await this.audit.close().catch(() => undefined);
    await this.opened.quarantine.flush();
    await this.confinement.close();
    await this.tasks.close();
    await this.settings.close();
  }

  /**
   * No host picked a sampling model (`mooring serve` has no chat of its own): the chat's, which is the
   * app's choice on this home (the saved default model, else MOORING_MODEL, keys from the keychain).
   * Building the chat's models sets it (`setSamplingModel`).
   */
  private defaultSampling(): SamplingComplete {
    void this.models;
    if (!this.samplingComplete) throw new MooringError('internal', 'No model answers sampling requests.');
    return this.samplingComplete;
  }

  /** What every connect runs first (allowlist, OSV, secrets, a folder's inputs); see serverPreparation.ts. */
  private prepare(workspace?: string): NonNullable<PoolActorOptions['prepare']> {
    return (config, ctx) => this.preparation.prepare(config, ctx.warn, workspace);
  }

  private guardFor(): NonNullable<PoolActorOptions['guardFor']> {
    return (config) => this.preparation.guardFor(config);
  }

  /** The options of every session of the global pool, or of one folder's pool. */
  private sessionOptions(workspace?: string): PoolActorOptions {
    return {
      ...this.opts.session,
      authProviderFor: this.oauth.authFor,
      capabilities: this.features.capabilities,
      clientHandlers: this.features.clientHandlers,
      prepare: this.prepare(workspace),
      guardFor: this.guardFor(),
      redact: this.redactor.redact,
      transportFactory: this.confinement.transports(this.opts.session?.transportFactory),
    };
  }
}
