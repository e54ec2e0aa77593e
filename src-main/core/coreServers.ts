// The composition root's second part (ARCHITECTURE.md, "The core as one object"): the one tool-call path and
// what keeps its catalogs current, the icons the UI may show, and the configured servers with what follows
// from them (sign-in, other apps' configs, permissions, installs). Built on the sessions (coreSessions.ts),
// each part registered with the root as it is built (mooringCore.ts).
import { homedir } from 'node:os';
import type { ServerConfig } from '@shared/config';
import type { CoreEvents } from '@shared/wire';
import { AuthService } from './auth/authService';
import { ToolService } from './calls/toolService';
import { ServerManager } from './config/serverManager';
import { ServersStore } from './config/serversStore';
import type { SettingsService } from './config/settingsService';
import type { Sessions } from './coreSessions';
import { listen, toDisposable, type Disposable } from './disposable';
import type { EventBus } from './eventBus';
import type { HomePaths } from './home';
import { removeInstalledFiles } from './install/bundleFiles';
import { InstallService } from './install/installService';
import { registryUrlFrom } from './install/registryClient';
import type { ApprovalBroker } from './safety/approvalBroker';
import { WaitingQuestions } from './safety/waitingQuestions';
import type { ApprovalStore } from './safety/approvalStore';
import type { AuditLog } from './safety/auditLog';
import { ConversationGrants } from './safety/conversationGrants';
import type { ToolPins } from './safety/toolPins';
import type { ToolQuarantine } from './safety/toolQuarantine';
import type { SecretStore } from './secrets/secretStore';
import { ConfiguredServers } from './services/configuredServers';
import { DetectedClients } from './services/detectedClients';
import type { SkillsService } from './skills/skillsService';
import { PermissionsService } from './services/permissions';
import { ServerIcons } from './services/serverIcons';
import type { FlowPermissions } from './safety/flowPermissions';

export interface ServersInput {
  opts: {
    env?: NodeJS.ProcessEnv;
    openExternal?: unknown;
    extraServers?: ServerConfig[];
    workspace?: string;
  };
  paths: HomePaths;
  secrets: SecretStore;
  bus: EventBus<CoreEvents>;
  settings: SettingsService;
  audit: AuditLog;
  approvalStore: ApprovalStore;
  quarantine: ToolQuarantine;
  pins: ToolPins;
  /** The pairs of servers data may flow between (docs/trust.md). */
  flows: FlowPermissions;
  approvals: ApprovalBroker;
  sessions: Sessions;
  /** The servers' skills and their approvals (docs/skills.md), for Permissions. */
  skills: SkillsService;
  /** Ties a part to the root's lifetime: disposed when the core closes, in reverse order. */
  register: <T extends Disposable>(d: T) => T;
}

export interface Servers {
  tools: ToolService;
  icons: ServerIcons;
  servers: ConfiguredServers;
  auth: AuthService;
  clients: DetectedClients;
  permissions: PermissionsService;
  install: InstallService;
}

export function buildServers(i: ServersInput): Servers {
  const { opts, paths, secrets, bus, settings, quarantine, approvalStore, register } = i;
  const { confinement, features, oauth, pool, workspaces, connect, sessionOptions } = i.sessions;
  const env = () => opts.env ?? process.env;
  const log = (l: Parameters<typeof bus.emit<'log'>>[1]) => bus.emit('log', l);
  /** "Allow for this conversation" answers: in memory, per conversation. */
  const grants = new ConversationGrants();
  // The managed policy may forbid "always allow" and YOLO (docs/managed-policy.md).
  approvalStore.rememberingAllowed = () => confinement.allowsAlwaysAllow();

  const tools = register(
    new ToolService({
      tasks: i.sessions.tasks,
      // A host that cannot open links declares no URL elicitation, and a -32042 fails with why.
      ...(opts.openExternal ? { urlElicitation: features.urlElicitations } : {}),
      pool,
      sessionsFor: (workspace, global) => workspaces.sessions.actors(workspace, global),
      folderSession: (workspace, server) => workspaces.sessions.actor(workspace, server),
      quarantine,
      gate: {
        store: approvalStore,
        audit: i.audit,
        yolo: () => settings.current().yolo && confinement.allowsYolo(),
        grants,
        pins: i.pins,
        flows: i.flows,
        questions: new WaitingQuestions(),
        skillTools: i.skills,
      },
      approvals: i.approvals,
      toolSet: (name) => settings.toolSet(name),
    }),
  );
  register(listen(tools, 'toolCall', (e) => bus.emit('toolCall', e)));
  // A settings change makes the catalogs stale and may change the servers' log level.
  register(
    settings.onChange(async (s) => {
      tools.invalidate();
      await Promise.all(pool.list().map((a) => features.setLogLevel(a.config.logLevel ?? s.logLevel, [a])));
    }),
  );
  register(workspaces.onChange(() => tools.invalidate()));
  const icons = register(
    new ServerIcons({
      configOf: (server) => pool.get(server)?.config,
      fetchFor: (config) => i.sessions.preparation.fetchFor(config),
      // The UI lists servers and tools again on a status event.
      onResolved: () => pool.statuses().forEach((s) => bus.emit('status', s)),
    }),
  );

  const servers = register(
    new ConfiguredServers({
      manager: new ServerManager(new ServersStore({ file: paths.servers }), secrets),
      safeSet: quarantine,
      pool,
      tools,
      // The capabilities of a real session: a server lists the tools it would list there.
      testSession: { ...sessionOptions(), clientHandlers: features.testClientHandlers },
      forgetSignIn: (name) => oauth.signOut(name),
      removeInstalledFiles: async (name) => {
        await removeInstalledFiles(paths.home, name);
        await confinement.forgetServer(name);
      },
      admit: (config, how) => confinement.check(config, how),
      confinement: (configs) => confinement.views(configs),
      extraServers: opts.extraServers ?? [],
      ...(opts.workspace ? { workspace: opts.workspace } : {}),
      scanWorkspace: (dir) => workspaces.scan(dir),
      log,
      onFileChange: (ok) => bus.emit('serversFile', { ok }),
      serverIcon: (name) => icons.iconOf(name, pool.get(name)?.serverIcons()),
    }),
  );
  // A refused access changes the server card's count: the UI lists the servers again on a status event.
  register(
    toDisposable(
      confinement.onViolation((v) => {
        const s = pool.get(v.server)?.status();
        if (s) bus.emit('status', s);
      }),
    ),
  );
  const auth = new AuthService({
    oauth,
    serverConfig: (name) => servers.get(name),
    session: connect,
    restart: (name) => pool.restart(name),
    log,
  });
  const names = async () => (await servers.configs()).map((c) => c.name);
  const clients = new DetectedClients({
    environment: () => ({ platform: process.platform, home: homedir(), env: env() }),
    existing: names,
  });
  const permissions = new PermissionsService({
    approvals: approvalStore,
    flows: i.flows,
    grants,
    workspaces,
    servers,
    signIns: { state: (config) => oauth.signInState(config), signOut: (name) => auth.signOut(name) },
    skills: i.skills,
  });
  const install = new InstallService({
    home: paths.home,
    registryUrl: () => confinement.registryUrl() ?? registryUrlFrom(env(), settings.current().registryUrl),
    osvEndpoint: () => settings.current().osvEndpoint,
    add: (input, o) => servers.add(input, o),
    existingNames: names,
  });
  return { tools, icons, servers, auth, clients, permissions, install };
}
