// The composition root's third part (ARCHITECTURE.md, "The core as one object"): conversations and the chat,
// the features beyond tools (prompts, resources, what `mooring serve` serves of them), MCP Apps, scheduled prompts
// and Mooring as a server started from the app. Built on the sessions and the tool-call path (coreSessions.ts,
// coreServers.ts), each part registered with the root as it is built (mooringCore.ts); its last registration
// is where closing starts.
import type { LogLine } from '@shared/session';
import type { CoreEvents } from '@shared/wire';
import { ChatModels } from './agent/chatModels';
import { ChatPreferencesFile } from './agent/chatPreferences';
import { ChatService } from './agent/chatService';
import { ConversationStore } from './agent/conversationStore';
import { ConversationTitles } from './agent/conversationTitles';
import { ProviderKeyFile } from './agent/providerKeyFile';
import { ProviderAccess } from './agent/providerAccess';
import { parseModelSpec } from './agent/providers/resolveProvider';
import { skillAttachment } from './agent/skillTool';
import { AppViews } from './apps/appViews';
import type { ToolService } from './calls/toolService';
import { PromptsService } from './clientFeatures/prompts';
import { ResourcesService } from './clientFeatures/resourcesService';
import { createServedFeatures } from './clientFeatures/servedFeaturesSource';
import type { SettingsService } from './config/settingsService';
import { Later, type Sessions } from './coreSessions';
import { listen, toDisposable, type Disposable } from './disposable';
import type { EventBus } from './eventBus';
import type { HomePaths } from './home';
import { MemoryStore } from './memory/memoryStore';
import type { SecretRedactor } from './safety/redact';
import type { SecretStore } from './secrets/secretStore';
import type { SelfLaunch } from './serve/launchCommand';
import type { ServedFeatures } from './serve/servedCore';
import { Sharing } from './serve/sharing';
import type { SkillsService } from './skills/skillsService';
import { scheduledTurns } from './schedules/scheduledTurn';
import { ScheduleService } from './schedules/scheduleService';
import { declineUnattendedInteractions } from './schedules/unattendedInteractions';

export interface ConversationsInput {
  opts: { env?: NodeJS.ProcessEnv; openExternal?: (url: string) => Promise<void>; selfLaunch?: SelfLaunch };
  paths: HomePaths;
  secrets: SecretStore;
  bus: EventBus<CoreEvents>;
  settings: SettingsService;
  redactor: SecretRedactor;
  sessions: Sessions;
  tools: ToolService;
  /** The servers' skills: approved ones are offered to the chat's model through load_skill (docs/skills.md). */
  skills: SkillsService;
  /** Ties a part to the root's lifetime: disposed when the core closes, in reverse order. */
  register: <T extends Disposable>(d: T) => T;
}

export interface Conversations {
  providers: ProviderAccess;
  conversations: ConversationStore;
  titles: ConversationTitles;
  memory: MemoryStore;
  prompts: PromptsService;
  resources: ResourcesService;
  servedFeatures: ServedFeatures;
  sharing: Sharing;
  apps: AppViews;
  models: ChatModels;
  chat: ChatService;
  schedules: ScheduleService;
}

export function buildConversations(i: ConversationsInput): Conversations {
  const { opts, paths, secrets, bus, settings, tools, register } = i;
  const { features, pool, workspaces, tasks, samplingModel } = i.sessions;
  const interactions = features.broker;
  const env = () => opts.env ?? process.env;
  const log = (l: LogLine) => bus.emit('log', l);
  const redactedLog = (l: LogLine) => log({ ...l, text: i.redactor.redact(l.text) });
  // The cycle of this part: an MCP App view sends messages into the chat, which tells the model what views said.
  const chats = new Later<ChatService>('The chat');

  const providers = new ProviderAccess({
    secrets,
    keyFile: new ProviderKeyFile(paths.home),
    settings: () => settings.current(),
    env,
  });
  const conversations = ConversationStore.forHome(paths.home);
  const titles = new ConversationTitles({
    store: conversations,
    enabled: () => settings.current().titlesFromModel,
    log: redactedLog,
  });
  register(toDisposable(() => titles.close()));
  const memory = MemoryStore.forHome(paths.home);
  const prompts = new PromptsService(pool);
  const resources = new ResourcesService({ sessions: pool, subscriptions: features.resources });
  register(listen(features.resources, 'updated', (u) => bus.emit('resourceUpdated', u)));
  register(listen(features.resources, 'listChanged', (c) => bus.emit('listChanged', c)));
  const servedFeatures = createServedFeatures({
    sessions: () => pool.list(),
    onLogLine: (fn) => {
      const sub = bus.on('log', fn);
      return () => void sub.dispose();
    },
    resources: features.resources,
  });
  const sharing = new Sharing(
    {
      tools,
      conversations,
      titles,
      memory,
      providers,
      settings,
      servedFeatures,
    },
    { ...(opts.selfLaunch ? { selfLaunch: opts.selfLaunch } : {}), ...(opts.env ? { env: opts.env } : {}) },
  );
  register(toDisposable(() => sharing.stop().catch(() => undefined)));
  const apps = register(
    new AppViews({
      tools,
      pool,
      workspaceOf: async (cid) => {
        const folder = features.roots.folderOf(cid);
        return folder ? workspaces.ensure(folder) : undefined;
      },
      folderSession: (workspace, server) => workspaces.sessions.actor(workspace, server),
      resources: features.resources,
      interactions,
      ...(opts.openExternal ? { openExternal: opts.openExternal } : {}),
      sendMessage: async (m) => {
        await chats.get().send({ conversationId: m.conversationId, text: m.text, app: m.app });
      },
    }),
  );
  register(listen(apps, 'updated', (u) => bus.emit('appViewUpdated', u)));
  register(listen(apps.calls, 'done', (d) => bus.emit('appCallDone', d)));
  // The chat's models; the latest turn's model, else the default, answers sampling from here on.
  const models = new ChatModels({
    prefs: new ChatPreferencesFile(paths.home),
    providers,
    settings,
    setSamplingModel: (complete) => samplingModel.pick(complete),
    env,
  });
  const chat = chats.set(
    new ChatService({
      appContext: (cid) => apps.contextFor(cid),
      store: conversations,
      titles,
      models,
      providers,
      settings,
      tools,
      roots: features.roots,
      ensureWorkspace: (dir) => workspaces.ensure(dir),
      // A skill attached in the composer is loaded like the model's load_skill (agent/skillTool.ts).
      attach: (r, ctx) =>
        r.skill ? skillAttachment(i.skills, r, ctx) : resources.attachment(r.server, r.uri),
      skills: i.skills,
    }),
  );
  register(listen(chat, 'chat', (e) => bus.emit('chat', e)));
  register(listen(chat, 'turn', (t) => bus.emit('turn', t)));
  const schedules = new ScheduleService({
    home: paths.home,
    runPrompt: scheduledTurns((turn) => chat.runUnattended(turn)),
    checkModel: (spec) => void parseModelSpec(spec),
    checkToolSet: (name) => void settings.toolSet(name),
    onError: (err) =>
      log({
        server: 'mooring',
        at: Date.now(),
        source: 'host',
        level: 'error',
        text: `schedules: ${err instanceof Error ? err.message : String(err)}`,
      }),
  });
  register(toDisposable(() => schedules.close()));
  register(listen(schedules, 'event', (e) => bus.emit('schedule', e)));
  // What servers ask while only scheduled runs use them is declined.
  register(
    toDisposable(declineUnattendedInteractions({ broker: interactions, calls: () => tools.snapshot() })),
  );
  // Closing starts here. A conversation's task keeps running on the server, for the next start (not
  // cancelled): its followers stop now, and in the same tick every turn is cancelled, so a turn does not
  // take the call's "Mooring closed" as an answer and ask the model again while Mooring closes.
  register(
    toDisposable(async () => {
      const suspended = tasks.suspend();
      chat.cancelAll();
      titles.close();
      await suspended;
    }),
  );
  return {
    providers,
    conversations,
    titles,
    memory,
    prompts,
    resources,
    servedFeatures,
    sharing,
    apps,
    models,
    chat,
    schedules,
  };
}
