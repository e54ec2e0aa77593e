// The core as one object: what the Electron shell, browser mode, the CLI and Mooring's own MCP server
// all hold. It wires the rooms together and owns their disposables; each room keeps its own logic.
import { EventEmitter } from 'node:events';
import type { ApprovalRequest } from '@shared/approval';
import type { Interaction } from '@shared/interactions';
import { createClientFeatures, type ClientFeatures, type SamplingComplete } from './clientFeatures';
import { DEFAULT_MODEL_SPEC, resolveProvider } from './agent/providers/resolveProvider';
import { providerCompletion } from './agent/samplingCompletion';
import type { ServerConfig, ServerConfigInput } from '@shared/config';
import type { LogLine, SessionStatus } from '@shared/session';
import type { Settings } from '@shared/settings';
import { buildCatalog, type ToolCatalog } from './catalog/catalog';
import type { Provider } from './catalog/adaptSchema';
import { defaultExcludeTools } from './catalog/filters';
import { loadSettings } from './config/settings';
import { ServersStore } from './config/serversStore';
import { MooringError } from './errors';
import { homePaths, resolveHome, type HomePaths } from './home';
import { InstallLinkInbox } from './install/installLinkInbox';
import { testConnection, type ConnectionTestResult } from './mcp/connectionTest';
import { SessionPool, type PoolActorOptions } from './mcp/sessionPool';
import type { ToolsChange } from './mcp/types';
import { ApprovalBroker } from './safety/approvalBroker';
import { ApprovalStore } from './safety/approvalStore';
import { ToolQuarantine } from './safety/toolQuarantine';
import { AuditLog } from './safety/auditLog';
import { SecretRedactor } from './safety/redact';
import { KeytarSecretStore, type SecretStore } from './secrets/secretStore';
import { ServerManager } from './secrets/serverManager';
import { OAuthManager, type SignInOptions, type SignInResult } from './auth/oauthManager';
import {
  approveWorkspaceServer,
  canonicalWorkspace,
  describeWorkspaceErrors,
  effectiveServers,
  scanWorkspace,
  WorkspaceApprovals,
  type AskInput,
  type OfferedServer,
  type WorkspaceScan,
} from './workspace';
import { WorkspaceSessions } from './workspaceSessions';
import { ServerPreparation } from './serverPreparation';
import { runToolCall, type CallContext, type ToolCallEvent, type ToolCallOutcome } from './toolCallRunner';

export interface CoreEvents {
  status: [SessionStatus];
  tools: [ToolsChange];
  log: [LogLine];
  toolCall: [ToolCallEvent];
  approval: [ApprovalRequest];
  /** A server asks the user something: sampling approval, a form, a URL to open. */
  interaction: [Interaction];
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
  /**
   * A project folder for this process (CLI `--workspace`): its approved workspace servers join or
   * override the global ones, and it is offered to servers as the MCP root (the `workspace/` room).
   */
  workspace?: string;
}

export class MooringCore extends EventEmitter<CoreEvents> {
  readonly paths: HomePaths;
  readonly pool: SessionPool;
  readonly broker = new ApprovalBroker();
  /** Install links the desktop shell received, waiting for the user's consent (nothing installs itself). */
  readonly installLinks = new InstallLinkInbox();
  readonly manager: ServerManager;
  /** Sampling, elicitation, roots, prompts/resources helpers, log level (the `clientFeatures/` room). */
  readonly features: ClientFeatures;
  /** OAuth for remote servers (the `auth/` room): tokens in the keychain, sign-in and sign-out. */
  readonly oauth: OAuthManager;
  /** One catalog per provider whose schema rules it follows; cleared when any session changes. */
  private catalogs = new Map<string, ToolCatalog>();
  private readonly preparation: ServerPreparation;
  private stopWatch?: () => void;
  private workspaceApprovals?: WorkspaceApprovals;
  /** Per-folder pools for the approved workspace servers of conversations tied to a folder. */
  readonly workspaces: WorkspaceSessions;
  private samplingComplete?: SamplingComplete;

  private constructor(
    readonly servers: ServersStore,
    readonly secrets: SecretStore,
    readonly approvals: ApprovalStore,
    readonly audit: AuditLog,
    readonly quarantine: ToolQuarantine,
    private currentSettings: Settings,
    private readonly opts: MooringCoreOptions,
    paths: HomePaths,
    /** Every secret value this process knows; masked out of logs, errors, test results and the audit log. */
    readonly redactor: SecretRedactor,
  ) {
    super();
    this.paths = paths;
    this.samplingComplete = opts.complete;
    this.manager = new ServerManager(servers, secrets);
    this.preparation = new ServerPreparation({
      secrets,
      env: () => opts.env ?? process.env,
      osvEndpoint: () => this.currentSettings.osvEndpoint,
      ...(opts.workspace ? { workspace: opts.workspace } : {}),
      log: (l) => this.emit('log', { ...l, text: redactor.redact(l.text) }),
      redactor,
    });
    this.features = createClientFeatures({
      // Sampling is answered by the model the host picked (setSamplingModel), else the default one.
      complete: (req, ctx) => (this.samplingComplete ?? this.defaultSampling())(req, ctx),
      ...(opts.openExternal ? { openExternal: opts.openExternal } : {}),
      logLevel: () => this.currentSettings.logLevel,
      log: (l) => {
        const actor = this.pool.get(l.server);
        if (actor) actor.hostLog(l.level, l.text);
        else this.emit('log', { ...l, text: redactor.redact(l.text) });
      },
    });
    this.oauth = new OAuthManager({
      secrets,
      redirectPort: () => this.currentSettings.oauthRedirectPort,
      onSecrets: (values) => redactor.add(values),
    });
    this.pool = new SessionPool({
      ...opts.session,
      authProviderFor: this.oauth.authFor,
      capabilities: this.features.capabilities,
      configureClient: this.features.configureClient,
      prepare: (config, ctx) => this.preparation.prepare(config, ctx.warn),
      fetchFor: (config) => this.preparation.fetchFor(config),
      redact: redactor.redact,
    });
    this.pool.on('status', (s) => {
      this.catalogs.clear();
      if (s.state === 'ready') {
        const actor = this.pool.get(s.name);
        if (actor) void this.features.onSessionReady(actor).catch(() => undefined);
      }
      this.emit('status', s);
    });
    this.features.broker.on('requested', (r) => this.emit('interaction', r));
    this.workspaces = new WorkspaceSessions({
      globalConfigs: () => this.serverConfigs(),
      scan: (dir) => this.scanWorkspace(dir),
      poolOptions: (workspace) => ({
        ...opts.session,
        authProviderFor: this.oauth.authFor,
        capabilities: this.features.capabilities,
        configureClient: this.features.configureClient,
        prepare: (config, ctx) => this.preparation.prepare(config, ctx.warn, workspace),
        fetchFor: (config) => this.preparation.fetchFor(config),
        redact: redactor.redact,
      }),
      onChange: () => this.catalogs.clear(),
    });
    this.pool.on('tools', (t) => {
      this.catalogs.clear();
      const actor = this.pool.get(t.server);
      if (actor) {
        const held = this.quarantine.observe(
          t.server,
          actor.tools().map((h) => ({ name: h.name, annotations: h.definition.annotations })),
        );
        for (const name of held)
          actor.hostLog(
            'warning',
            `new tool "${name}" is disabled until you enable it (it is not marked read-only)`,
          );
      }
      this.emit('tools', t);
    });
    this.pool.on('log', (l) => this.emit('log', l));
    this.broker.on('requested', (r) => this.emit('approval', r));
  }

  static async open(opts: MooringCoreOptions = {}): Promise<MooringCore> {
    const env = opts.env ?? process.env;
    const paths = homePaths(opts.home ?? resolveHome(env));
    const servers = new ServersStore({ file: paths.servers });
    const [settings, approvals, quarantine] = await Promise.all([
      loadSettings(paths.settings),
      ApprovalStore.open(paths.home),
      ToolQuarantine.open(paths.home),
    ]);
    const secrets = opts.secretStore ?? new KeytarSecretStore();
    const redactor = new SecretRedactor();
    const audit = new AuditLog(paths.home, () => redactor.values());
    return new MooringCore(servers, secrets, approvals, audit, quarantine, settings, opts, paths, redactor);
  }

  /** The model that answers server-initiated sampling requests (after the user approves each). */
  setSamplingModel(complete: SamplingComplete | undefined): void {
    this.samplingComplete = complete ?? this.opts.complete;
  }

  private defaultSampling(): SamplingComplete {
    const env = this.opts.env ?? process.env;
    const { provider, model } = resolveProvider(env.MOORING_MODEL ?? DEFAULT_MODEL_SPEC, {}, env);
    return providerCompletion(provider, model);
  }

  settings(): Settings {
    return this.currentSettings;
  }

  async reloadSettings(): Promise<Settings> {
    this.currentSettings = await loadSettings(this.paths.settings);
    this.catalogs.clear();
    await this.features.setLogLevel(this.currentSettings.logLevel, this.pool.list());
    return this.currentSettings;
  }

  /**
   * Every server this process runs: the file's, then the extra (quick config) ones, then — with a
   * workspace — its approved servers joining or overriding those. A broken workspace file is logged
   * with its location; the global servers keep working.
   */
  async serverConfigs(): Promise<ServerConfig[]> {
    const fromFile = await this.servers.list();
    const extra = this.opts.extraServers ?? [];
    const clash = extra.find((e) => fromFile.some((f) => f.name === e.name));
    if (clash)
      throw new MooringError(
        'usage',
        `The quick-config server "${clash.name}" (MOORING_MCP_SERVER_*) has the name of a server in mcp_servers.json`,
        `Rename or remove the "${clash.name}" server in the file, or unset MOORING_MCP_SERVER_STDIO / MOORING_MCP_SERVER_URL.`,
      );
    const global = [...fromFile, ...extra];
    if (!this.opts.workspace) return global;
    const eff = effectiveServers(global, await this.scanWorkspace(this.opts.workspace));
    for (const line of describeWorkspaceErrors(eff.errors))
      this.emit('log', { server: '*', at: Date.now(), source: 'host', level: 'error', text: line });
    for (const p of eff.pending)
      this.emit('log', {
        server: p.name,
        at: Date.now(),
        source: 'host',
        level: 'notice',
        text: `workspace server "${p.name}" from ${p.source} is not approved (${p.status}); it does not run`,
      });
    return eff.servers;
  }

  /** The servers a workspace offers (its own file, .vscode/.cursor/.mcp.json), each with its approval status. */
  async scanWorkspace(dir: string): Promise<WorkspaceScan> {
    this.workspaceApprovals ??= await WorkspaceApprovals.open(this.paths.home);
    return scanWorkspace(dir, { approvals: this.workspaceApprovals });
  }

  /** Approves one offered workspace server (pinned to its content); asks its VS Code inputs through `ask`. */
  async approveWorkspaceServer(dir: string, name: string, ask?: AskInput): Promise<OfferedServer> {
    const scan = await this.scanWorkspace(dir);
    const offered = scan.servers.find((s) => s.name === name);
    if (!offered)
      throw new MooringError(
        'not_found',
        `Workspace ${scan.workspace} offers no server named "${name}"`,
        `List them: mooring mcp list --workspace ${dir}`,
      );
    await approveWorkspaceServer({
      offered,
      approvals: this.workspaceApprovals!,
      secrets: this.secrets,
      ...(ask ? { ask } : {}),
      decidedBy: 'user',
    });
    return offered;
  }

  /** Connects every enabled server in parallel; a failing one is reported, the rest work. */
  async start(opts: { watch?: boolean } = {}): Promise<void> {
    if (this.opts.workspace) {
      await this.features.roots.setFolder('workspace', await canonicalWorkspace(this.opts.workspace));
      await this.features.roots.activate('workspace');
    }
    await this.pool.sync(await this.serverConfigs());
    if (opts.watch && !this.stopWatch) {
      this.stopWatch = await this.servers.watch((change) => {
        if (change.ok) void this.sync();
        else
          this.emit('log', {
            server: '*',
            at: Date.now(),
            source: 'host',
            level: 'error',
            text: change.error.message,
          });
      });
    }
  }

  /** Brings the sessions in line with the config file (after any edit). */
  async sync(): Promise<void> {
    await this.pool.sync(await this.serverConfigs());
  }

  /** Starts just these servers (the CLI connects only what a command needs). */
  async startOnly(names: string[]): Promise<void> {
    const all = await this.serverConfigs();
    const missing = names.filter((n) => !all.some((c) => c.name === n));
    if (missing.length)
      throw new MooringError(
        'not_found',
        `No server named ${missing.map((m) => `"${m}"`).join(', ')}`,
        'List the servers with: mooring mcp list',
      );
    await this.pool.sync(all.filter((c) => names.includes(c.name)).map((c) => ({ ...c, enabled: true })));
  }

  statuses(): SessionStatus[] {
    return this.pool.statuses();
  }

  logs(server: string): LogLine[] {
    return this.pool.get(server)?.logs.toArray() ?? [];
  }

  async refreshTools(server: string): Promise<void> {
    const actor = this.pool.get(server);
    if (!actor) throw new MooringError('not_found', `"${server}" is not running`, 'Enable it first.');
    await actor.refreshTools();
  }

  /**
   * The catalog over every live session, with model-facing schemas adapted to one provider's rules
   * (default anthropic), rebuilt only when a session's tools or state changed.
   */
  catalog(provider: Provider = 'anthropic', toolSetName?: string, workspace?: string): ToolCatalog {
    const key = `${provider}|${toolSetName ?? ''}|${workspace ?? ''}`;
    const cached = this.catalogs.get(key);
    if (cached) return cached;
    const toolSet = toolSetName ? this.toolSet(toolSetName) : undefined;
    const built = buildCatalog(
      this.workspaces.actors(workspace, this.pool.list()).map((a) => {
        const held = this.quarantine.quarantined(a.name);
        const config = held.length
          ? { ...a.config, excludeTools: [...a.config.excludeTools, ...held] }
          : a.config;
        return { server: a.name, config, tools: a.tools() };
      }),
      { provider, ...(toolSet ? { toolSet } : {}) },
    );
    this.catalogs.set(key, built);
    return built;
  }

  /** A named tool set from the settings; an unknown name is a clear error listing the ones there are. */
  toolSet(name: string): { name: string; tools: string[] } {
    const set = this.currentSettings.toolSets.find((t) => t.name === name);
    if (!set) {
      const names = this.currentSettings.toolSets.map((t) => `"${t.name}"`).join(', ');
      throw new MooringError(
        'not_found',
        `There is no tool set named "${name}"`,
        names ? `Tool sets: ${names}.` : 'Create one: mooring toolset add NAME mcp__server__tool …',
      );
    }
    return set;
  }

  // ---- servers -------------------------------------------------------------------------------

  /** Validates, moves secret values into the keychain, writes the file atomically, then syncs. */
  async addServer(input: ServerConfigInput, opts: { sync?: boolean } = {}): Promise<ServerConfig> {
    const saved = await this.manager.add(input);
    if (opts.sync !== false) await this.sync();
    return saved;
  }

  async updateServer(
    name: string,
    input: ServerConfigInput,
    opts: { sync?: boolean } = {},
  ): Promise<ServerConfig> {
    const saved = await this.manager.update(name, input);
    if (opts.sync !== false) await this.sync();
    return saved;
  }

  /** Adds imported servers in one atomic write (all or nothing), secret-looking values to the keychain. */
  async importServers(text: string, opts: { fileName: string; replaceExisting?: boolean }) {
    const result = await this.manager.import(text, opts);
    await this.sync();
    return result;
  }

  /** Signs in to a remote server (opens the browser through `opener`), then restarts its session. */
  async signIn(name: string, opts: SignInOptions): Promise<SignInResult> {
    const config = await this.servers.get(name);
    const result = await this.oauth.signIn(await this.preparation.prepare(config, () => undefined), opts);
    await this.pool.restart(name);
    return result;
  }

  async signOut(name: string): Promise<void> {
    await this.oauth.signOut(name);
    await this.pool.restart(name);
  }

  async removeServer(name: string): Promise<void> {
    await this.oauth.signOut(name).catch(() => undefined);
    await this.manager.remove(name);
    await this.sync();
  }

  /**
   * The default safe set for a server just enabled in the app (the `catalog/` room's filters): read-only tools on; destructive
   * and unannotated tools (possibly destructive, per the spec) off, written to its excludeTools.
   * Returns what it did, e.g. "3 destructive tools disabled by default".
   */
  async applySafeDefaults(name: string): Promise<{ disabledCount: number; message?: string }> {
    const actor = this.pool.get(name);
    if (!actor || actor.status().state !== 'ready') return { disabledCount: 0 };
    const safe = defaultExcludeTools(actor.tools().map((t) => t.definition));
    if (!safe.disabledCount) return { disabledCount: 0 };
    const c = await this.servers.get(name);
    await this.servers.update(name, {
      ...c,
      excludeTools: [...new Set([...c.excludeTools, ...safe.excludeTools])],
    });
    this.catalogs.clear();
    await this.sync();
    return { disabledCount: safe.disabledCount, ...(safe.message ? { message: safe.message } : {}) };
  }

  /** The tool toggle: writes the server's excludeTools (and includeTools when set), releases a quarantine. */
  async setToolEnabled(server: string, tool: string, enabled: boolean): Promise<void> {
    const c = await this.servers.get(server);
    const exclude = c.excludeTools.filter((t) => t !== tool);
    if (!enabled) exclude.push(tool);
    const include = c.includeTools
      ? enabled
        ? [...new Set([...c.includeTools, tool])]
        : c.includeTools.filter((t) => t !== tool)
      : undefined;
    if (enabled) this.quarantine.release(server, tool);
    this.catalogs.clear();
    await this.servers.update(server, {
      ...c,
      excludeTools: exclude,
      ...(include ? { includeTools: include } : {}),
    });
    await this.sync();
  }

  async setEnabled(name: string, enabled: boolean): Promise<void> {
    await this.servers.setEnabled(name, enabled);
    await this.sync();
  }

  /** A handshake and tools/list on a throwaway session, through the same safety checks as a real start. */
  testServer(config: ServerConfig): Promise<ConnectionTestResult> {
    return testConnection(config, {
      ...this.opts.session,
      authProviderFor: this.oauth.authFor,
      fetchFor: (c) => this.preparation.fetchFor(c),
      prepare: (c, ctx) => this.preparation.prepare(c, ctx.warn),
      redact: this.redactor.redact,
    });
  }

  // ---- tool calls ----------------------------------------------------------------------------

  callTool(name: string, args: unknown, ctx: CallContext = {}): Promise<ToolCallOutcome> {
    return runToolCall(
      {
        catalog: () => this.catalog('anthropic', undefined, ctx.workspace),
        actor: (s) => this.workspaces.actor(ctx.workspace, s) ?? this.pool.get(s),
        gate: {
          store: this.approvals,
          broker: this.broker,
          audit: this.audit,
          yolo: () => this.currentSettings.yolo,
        },
        broker: this.broker,
        emit: (e) => this.emit('toolCall', e),
      },
      name,
      args,
      ctx,
    );
  }

  async close(): Promise<void> {
    this.features.dispose();
    this.stopWatch?.();
    await Promise.all([this.pool.closeAll(), this.workspaces.closeAll()]);
    await this.preparation.close();
    await this.audit.close().catch(() => undefined);
  }
}
