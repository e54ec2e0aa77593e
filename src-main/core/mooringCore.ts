// The composition root (ARCHITECTURE.md, "The core as one object"; docs/decisions/002-rooms-and-composition-root.md): builds the
// rooms in dependency order, wires them, hands out one service per job, and owns what it builds: each part is
// registered as it is built and closing the core disposes them in reverse (disposable.ts). Every host holds
// one: the Electron shell, browser mode, the CLI, `mooring serve`. Callers use the services below and never
// the rooms behind them; each service keeps its own logic, this file none.
import type { ServerConfig } from '@shared/config';
import type { LogLevel, Settings } from '@shared/settings';
import type { CoreEvents } from '@shared/wire';
import type { ChatModels } from './agent/chatModels';
import type { ChatService } from './agent/chatService';
import { ConversationStore } from './agent/conversationStore';
import { ConversationTitles } from './agent/conversationTitles';
import { ProviderAccess } from './agent/providerAccess';
import { AppViews } from './apps/appViews';
import type { AuthService } from './auth/authService';
import type { ToolService } from './calls/toolService';
import type { ConfinementService } from './confine/confinementService';
import { type ClientFeatures } from './clientFeatures/clientFeatures';
import { PromptsService } from './clientFeatures/prompts';
import { ResourcesService } from './clientFeatures/resourcesService';
import { runningSession } from './clientFeatures/serverSession';
import { type SamplingComplete } from './clientFeatures/sampling';
import { type SamplingModel } from './clientFeatures/samplingModel';
import type { InteractionBroker } from './clientFeatures/interactionBroker';
import type { UrlElicitations } from './clientFeatures/urlElicitations';
import { loadSettings } from './config/settings';
import { SettingsService } from './config/settingsService';
import { buildConversations } from './coreConversations';
import { buildServers, type Servers } from './coreServers';
import { buildSessions, Later, type SessionsOptions } from './coreSessions';
import { DisposableObject, listen, toDisposable, type Disposable } from './disposable';
import { MooringError } from './errors';
import { EventBus } from './eventBus';
import { homePaths, resolveHome, type HomePaths } from './home';
import { InstallLinkInbox } from './install/installLinkInbox';
import type { InstallService } from './install/installService';
import { MemoryStore } from './memory/memoryStore';
import type { SessionPool } from './mcp/sessionPool';
import { ApprovalBroker } from './safety/approvalBroker';
import { ApprovalStore } from './safety/approvalStore';
import { SkillApprovals } from './skills/skillApprovals';
import { SkillCatalog } from './skills/skillCatalog';
import { SkillsService } from './skills/skillsService';
import { AuditLog } from './safety/auditLog';
import type { Icon } from './safety/icons';
import { SecretRedactor } from './safety/redact';
import { ToolPins } from './safety/toolPins';
import { FlowPermissions } from './safety/flowPermissions';
import { ToolQuarantine } from './safety/toolQuarantine';
import { KeytarSecretStore, type SecretStore } from './secrets/secretStore';
import { relayApprovalsToApp, type ApprovalRelayClient } from './serve/approvalRelayClient';
import { liveServer } from './serve/approvalRelayProtocol';
import { startApprovalRelayListener, type ApprovalRelayListener } from './serve/approvalRelayListener';
import type { SelfLaunch } from './serve/launchCommand';
import type { ServedFeatures } from './serve/servedCore';
import { Sharing } from './serve/sharing';
import { ScheduleService } from './schedules/scheduleService';
import type { ConfiguredServers } from './services/configuredServers';
import type { DetectedClients } from './services/detectedClients';
import type { PermissionsService } from './services/permissions';
import type { ServerIcons } from './services/serverIcons';
import type { TaskService } from './tasks/taskService';
import { canonicalWorkspace } from './workspace/discovery';
import type { WorkspaceService } from './workspace/workspaceService';

export type { CoreEvents };

export interface MooringCoreOptions extends SessionsOptions {
  home?: string;
  secretStore?: SecretStore;
  /** Extra servers for this process only (e.g. MOORING_MCP_SERVER_* quick config); never written. */
  extraServers?: ServerConfig[];
  /** How a client starts this install on stdio (the packaged app: its binary and `--mcp-server`); default: Node and bin/mooring.mjs. */
  selfLaunch?: SelfLaunch;
}

/** What the root opens before it builds (the files it reads and the stores it opens). */
interface Opened {
  paths: HomePaths;
  secrets: SecretStore;
  approvalStore: ApprovalStore;
  quarantine: ToolQuarantine;
  /** Each tool's contract as first seen or last accepted (safety/toolPins.ts). */
  pins: ToolPins;
  /** The pairs of servers data may flow between (docs/trust.md). */
  flows: FlowPermissions;
  /** Skill approvals bound to their manifests (skill-approvals.json, docs/skills.md). */
  skillApprovals: SkillApprovals;
  /** settings.json as loaded. */
  settings: Settings;
}

export class MooringCore extends DisposableObject {
  /** Every live event, declared once (shared/wire.ts, LIVE_EVENTS); published once, where it starts. */
  readonly events = new EventBus<CoreEvents>();
  /**
   * Every secret value this process knows (keychain values, secret `${env:…}` values, OAuth tokens): masked
   * out of server logs, session errors, test results and the audit log (ARCHITECTURE.md, "The core as one
   * object").
   */
  readonly redactor = new SecretRedactor();
  /** settings.json and the named tool sets in it. */
  readonly settings: SettingsService;
  /** What servers ask the user (sampling approval, forms, links): listed, answered by id. */
  readonly interactions: InteractionBroker;
  /** Browser flows after their link opened: completion notices, and calls waiting for them (-32042). */
  readonly urlElicitations: UrlElicitations;
  /** Project folders: what they offer, approval, their sessions. */
  readonly workspaces: WorkspaceService;
  /** Tool calls that run as tasks, followed to their end and resumed after a restart (docs/tasks-and-resources.md, "Tasks"). */
  readonly tasks: TaskService;
  /** Tool calls waiting for a person's approval: listed, answered by id. */
  readonly approvals = new ApprovalBroker();
  /** The catalog over every live session and the one gated tool call. */
  readonly tools: ToolService;
  /** The configured servers: list, add, edit, remove, enable, tool toggles, import, test, logs. */
  readonly servers: ConfiguredServers;
  /** Sign-in to remote servers. */
  readonly auth: AuthService;
  /** The MCP configs of other apps on this machine, offered for import. */
  readonly clients: DetectedClients;
  /** Every standing permission ("always allow", trusted servers, approved folders, sign-ins), and revoking it. */
  readonly permissions: PermissionsService;
  /** Install links the desktop shell received, waiting for the user's consent (nothing installs itself). */
  readonly installLinks = new InstallLinkInbox();
  /** The MCP registry, bundles and install links: plans for consent, then the install through `servers.add`. */
  readonly install: InstallService;
  /** What each local server may touch, what it was refused, and the managed policy (docs/confinement.md). */
  readonly confinement: ConfinementService;
  /** Model providers: endpoints, keys in the keychain, Check. */
  readonly providers: ProviderAccess;
  readonly conversations: ConversationStore;
  /** Names a new conversation with its own model after its first answer, in the background. */
  readonly titles: ConversationTitles;
  readonly memory: MemoryStore;
  /** The servers' prompts, as the composer's slash commands, with their arguments' completions. */
  readonly prompts: PromptsService;
  /** The servers' resources: list, templates, read, subscribe, completions, attach to a message. */
  readonly resources: ResourcesService;
  /** The connected servers' prompts, resources, completions and logs, for `mooring serve` (serve/servedFeatures.ts). */
  readonly servedFeatures: ServedFeatures;
  /** Mooring as an MCP server, started from the app. */
  readonly sharing: Sharing;
  /** MCP Apps: tool results with interactive views, and what those views ask of the host. */
  readonly apps: AppViews;
  /** The chat's models: the default, each conversation's, Settings > Models; they also answer sampling. */
  readonly models: ChatModels;
  /** The chat: its turns and its conversations. */
  readonly chat: ChatService;
  /** Scheduled prompts: the schedules, their runs and, in the process holding the lease (`own`), the scheduler. */
  readonly schedules: ScheduleService;
  /** The servers' skills (Skills extension): listed per server, approved per manifest, loaded verified. */
  readonly skills: SkillsService;

  private readonly features: ClientFeatures;
  private readonly samplingModel: SamplingModel;
  private readonly pool: SessionPool;
  private readonly icons: ServerIcons;

  private constructor(
    private readonly opts: MooringCoreOptions,
    private readonly opened: Opened,
  ) {
    super();
    const { paths, secrets, quarantine, approvalStore, pins } = opened;
    const bus = this.register(this.events);
    // The cycle left to close here: a folder's sessions join the configured servers, which scan folders, and
    // confinement writes a server's sandbox through them, which ask it at every add.
    const configured = new Later<Servers>('The configured servers');

    // The home's files: closed last.
    this.settings = this.register(new SettingsService({ file: paths.settings, initial: opened.settings }));
    this.register(toDisposable(() => quarantine.flush()));
    this.register(toDisposable(() => pins.flush()));
    const audit = new AuditLog(paths.home, this.redactor.redact);
    this.register(toDisposable(() => audit.close().catch(() => undefined)));
    // What runs before every connect, the client features and the sessions (coreSessions.ts).
    const sessions = buildSessions({
      opts,
      paths,
      secrets,
      bus,
      redactor: this.redactor,
      settings: this.settings,
      globalConfigs: () => configured.get().servers.configs(),
      configured: {
        get: (name) => configured.get().servers.get(name),
        update: (name, input) => configured.get().servers.update(name, input),
      },
      register: (d) => this.register(d),
    });
    const { features } = sessions;
    ({ samplingModel: this.samplingModel, features: this.features, pool: this.pool } = sessions);
    ({ workspaces: this.workspaces, tasks: this.tasks, confinement: this.confinement } = sessions);
    this.interactions = features.broker;
    this.urlElicitations = features.urlElicitations;
    this.register(listen(this.interactions, 'requested', (r) => bus.emit('interaction', r)));
    this.register(listen(this.interactions, 'resolved', (r) => bus.emit('interactionResolved', r)));
    this.register(listen(this.installLinks, 'offer', (o) => bus.emit('installLink', o)));
    this.register(this.approvals);
    this.register(listen(this.approvals, 'requested', (r) => bus.emit('approval', r)));
    this.register(listen(this.approvals, 'resolved', (r) => bus.emit('approvalResolved', r)));
    this.skills = new SkillsService({
      catalog: new SkillCatalog({ sessions: this.pool }),
      approvals: opened.skillApprovals,
      readResource: (server, uri, signal) =>
        runningSession(this.pool, server).requests.readResource({ uri }, signal ? { signal } : {}),
      ask: (input, o) => this.approvals.request(input, o),
      log: (l) => bus.emit('log', l),
      audit: (line) => audit.record(line),
    });
    // The one tool-call path and the configured servers (coreServers.ts).
    ({
      tools: this.tools,
      icons: this.icons,
      servers: this.servers,
      auth: this.auth,
      clients: this.clients,
      permissions: this.permissions,
      install: this.install,
    } = configured.set(
      buildServers({
        opts,
        paths,
        secrets,
        bus,
        settings: this.settings,
        audit,
        approvalStore,
        quarantine,
        pins,
        flows: opened.flows,
        approvals: this.approvals,
        sessions,
        skills: this.skills,
        register: (d) => this.register(d),
      }),
    ));

    // Conversations and the chat, the features beyond tools, MCP Apps, schedules, Mooring as a server.
    ({
      providers: this.providers,
      conversations: this.conversations,
      titles: this.titles,
      memory: this.memory,
      prompts: this.prompts,
      resources: this.resources,
      servedFeatures: this.servedFeatures,
      sharing: this.sharing,
      apps: this.apps,
      models: this.models,
      chat: this.chat,
      schedules: this.schedules,
    } = buildConversations({
      opts,
      paths,
      secrets,
      bus,
      settings: this.settings,
      redactor: this.redactor,
      sessions,
      tools: this.tools,
      skills: this.skills,
      register: (d) => this.register(d),
    }));
  }

  static async open(opts: MooringCoreOptions = {}): Promise<MooringCore> {
    const env = opts.env ?? process.env;
    const paths = homePaths(opts.home ?? resolveHome(env));
    const [settings, approvalStore, quarantine, pins, flows, skillApprovals] = await Promise.all([
      loadSettings(paths.settings),
      ApprovalStore.open(paths.home),
      ToolQuarantine.open(paths.home),
      ToolPins.open(paths.home),
      FlowPermissions.open(paths.home),
      SkillApprovals.open(paths.home),
    ]);
    const secrets = opts.secretStore ?? new KeytarSecretStore();
    return new MooringCore(opts, {
      paths,
      secrets,
      approvalStore,
      quarantine,
      pins,
      flows,
      skillApprovals,
      settings,
    });
  }

  /** Hears one live event until the returned Disposable is disposed (the bus: `events`). */
  on<K extends keyof CoreEvents>(name: K, listener: (payload: CoreEvents[K]) => void): Disposable {
    return this.events.on(name, listener);
  }

  off<K extends keyof CoreEvents>(name: K, listener: (payload: CoreEvents[K]) => void): void {
    this.events.off(name, listener);
  }

  once<K extends keyof CoreEvents>(name: K, listener: (payload: CoreEvents[K]) => void): Disposable {
    return this.events.once(name, listener);
  }

  /** The model that answers server-initiated sampling requests (after the user approves each). */
  setSamplingModel(complete: SamplingComplete | undefined): void {
    this.samplingModel.pick(complete);
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
      await this.tasks
        .resume({ deliver: (d) => this.chat.deliverTaskResult(d), publish: (e) => this.tools.publish(e) })
        .catch((e: Error) =>
          this.events.emit('log', {
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
   * clients' approvals, and its servers' sampling and elicitation requests; and `mooring mcp list` reads the
   * servers' live status there. `app` names this process to them. Closed with the core at the latest.
   */
  async listenForRelayedApprovals(opts: { app: string }): Promise<ApprovalRelayListener> {
    const listener = await startApprovalRelayListener({
      broker: this.approvals,
      interactions: this.interactions,
      home: this.opened.paths.home,
      // `mooring mcp list` asks here for the statuses the Servers screen shows (cli/liveServerStatus.ts).
      app: opts.app,
      statuses: () => this.servers.statuses().map(liveServer),
    });
    this.register(toDisposable(() => listener.close()));
    return listener;
  }

  /**
   * `mooring serve` with nobody to ask here: its approvals and its servers' sampling and elicitation
   * requests go to the running app's dialogs; with no app running they are refused or declined at once.
   * Stopped with the core at the latest.
   */
  relayApprovalsToApp(opts: { via: string; onNotice?: (text: string) => void }): ApprovalRelayClient {
    const client = relayApprovalsToApp({
      broker: this.approvals,
      interactions: this.interactions,
      home: this.opened.paths.home,
      ...opts,
    });
    this.register(toDisposable(() => client.stop()));
    return client;
  }

  /** The level one server logs at in this session only (`mooring mcp logs --level`); nothing is saved. */
  async setServerLogLevel(server: string, level: LogLevel): Promise<void> {
    const actor = this.pool.get(server);
    if (!actor) throw new MooringError('not_found', `No server named "${server}" is running`);
    await this.features.setLogLevel(level, [actor]);
  }

  /** A server's, tool's or prompt's icon as a checked data: URI, or undefined (services/serverIcons.ts). */
  iconOf(server: string, icons: readonly Icon[] | undefined): string | undefined {
    return this.icons.iconOf(server, icons);
  }

  /** A second signal while closing: kill every server's process group now. */
  killAllNow(): void {
    this.pool.killAllNow();
  }

  /** Closes everything this core started, in the reverse order of its building (see the constructor). */
  close(): Promise<void> {
    return this.disposables.dispose();
  }
}
