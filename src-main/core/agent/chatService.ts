// The chat service (ARCHITECTURE.md, `agent/`): conversations and their turns for every host. The UI's
// turns start here and run in the background, each ChatEvent on the `chat` event tagged by conversation;
// `mooring chat` runs one turn in the foreground through `prepareTurn`. The core owns one service.
import type { AppOrigin } from '@shared/appViews';
import { EventEmitter } from 'node:events';
import { messageWithFiles, type AttachedTextFile } from '@shared/attachedFiles';
import {
  attachedResources,
  typedText,
  type AttachedResource,
  type ChatEvent,
  type ChatMessage,
  type ContentPart,
  type ConversationSummary,
  type ImagePart,
} from '@shared/chat';
import { DEFAULT_PROVIDER_URLS, SUGGESTED_MODELS, type ProviderId } from '@shared/providers';
import type { ToolCallEvent } from '@shared/toolCall';
import type { ProviderView, TurnState } from '@shared/wire';
import type { ToolService } from '../calls/toolService';
import type { RootsRegistry } from '../clientFeatures/roots';
import type { SamplingComplete } from '../clientFeatures/sampling';
import type { SettingsService } from '../config/settingsService';
import { MooringError, toErrorData } from '../errors';
import type { ChatPreferencesFile } from './chatPreferences';
import { runChatTurn, type ChatTurnResult } from './chatTurn';
import { titleFromText, type ConversationStore, type LoadedConversation } from './conversationStore';
import type { ConversationTitles } from './conversationTitles';
import { exportConversation, importConversation } from './conversationTransfer';
import { CoreToolRuntime } from './coreToolRuntime';
import type { ProviderAccess, ProviderCheck } from './providerAccess';
import { parseModelSpec } from './providers/resolveProvider';
import { providerCompletion } from './samplingCompletion';
import { deliveryMessageId, deliveryText, type DeliveredTask } from './taskDelivery';
import { UNATTENDED_NOTE } from './unattendedPolicy';
import { resultLimits } from './largeResults';
import type { RequestLimits } from './messagesForModel';
import { PROVIDER_IMAGE_LIMITS } from './modelImages';
import { contextWindow } from './providers/modelCapabilities';

export interface ChatServiceEvents {
  chat: [ChatEvent];
  turn: [TurnState];
}

export interface ChatServiceDeps {
  /**
   * What MCP App views in the conversation told the model (`ui/update-model-context`), labelled as the
   * apps', given with each turn's system prompt (apps/appViews.ts `contextFor`).
   */
  appContext?: (conversationId: string) => string | undefined;
  conversations: ConversationStore;
  /** Names a conversation with its model after its first answer (the core's one, shared with `serve`). */
  titles: ConversationTitles;
  prefs: ChatPreferencesFile;
  providers: ProviderAccess;
  settings: SettingsService;
  tools: ToolService;
  /** The roots offered to servers: each conversation's project folder, the active one current. */
  roots: RootsRegistry;
  /** Starts a folder's approved servers for its conversations; returns its canonical path. */
  ensureWorkspace: (dir: string) => Promise<string>;
  /** The model that answers server-initiated sampling (after the user approves each request). */
  setSamplingModel: (complete: SamplingComplete) => void;
  /** A server's resource as parts of a message (clientFeatures/resourcesService.ts `attachment`). */
  attach?: (server: string, uri: string) => Promise<ContentPart[]>;
  env: () => NodeJS.ProcessEnv;
}

export interface SendInput {
  conversationId?: string;
  text: string;
  /** `provider:model`; absent: the conversation's last model, else the default. */
  model?: string;
  /** For a new conversation: its project folder (the MCP root). */
  workspace?: string | null;
  /** A named tool set (settings.toolSets): the model is offered only those tools. */
  toolSet?: string;
  /** Resources to attach to the message (the composer's `@`): read now, sent with the text. */
  attachments?: AttachedResource[];
  /** Sent by an MCP App view (`ui/message`): labelled as the app's in the conversation and to the model. */
  app?: AppOrigin;
  /**
   * Edit-and-resend: the conversation goes on from just before this message of the person's (it and the
   * messages after it leave the conversation), with `text` in its place.
   */
  replaceFrom?: string;
  /** Images sent with the text (to a vision model as image parts). */
  images?: ImagePart[];
  /** Text files sent with the text, inline after it (shared/attachedFiles.ts); the title ignores them. */
  files?: AttachedTextFile[];
}

/** `mooring chat`: one turn in the foreground, with the terminal's answers to approvals. */
export interface TerminalTurnOptions {
  model: string;
  toolSet?: string;
  /** The CLI's --yes: approve what would be asked. */
  preApproved?: boolean;
  /** False when nobody can answer an approval (a script without --yes). */
  interactive?: boolean;
}

export interface TerminalTurnRun {
  message: string;
  conversationId?: string;
  /** For a new conversation: its project folder. */
  workspace?: string;
  signal?: AbortSignal;
  onEvent?: (event: ChatEvent) => void;
  /** Each lifecycle event of each tool call of the turn. */
  onPhase?: (e: ToolCallEvent) => void;
}

/** A turn nobody watches (a scheduled run): a new conversation under the unattended policy. */
export interface UnattendedTurn {
  model: string;
  toolSet?: string;
  /** Tools allowed although not read-only (unattendedPolicy.ts). */
  allow: string[];
  workspace: string | null;
  prompt: string;
  title: string;
  /** Who runs it, in refusals and the audit log: `schedule "Nightly report"`. */
  who: string;
  signal: AbortSignal;
  /** The conversation exists (before the model is asked). */
  onConversation?: (conversationId: string) => void;
  /** Each message once it is saved. */
  onMessage?: (message: ChatMessage) => void;
}

export type ConversationRow = ConversationSummary & { running: boolean };

/** The person's message as parts: the text (when there is any), then the images. */
const contentOf = (input: SendInput): ContentPart[] => {
  const text = input.files?.length ? messageWithFiles(input.text, input.files) : input.text;
  return [...(text.trim() ? [{ type: 'text' as const, text }] : []), ...(input.images ?? [])];
};

/** A resource that could not be read for a message, named, with the reason the server or session gave. */
function attachFailed(resource: AttachedResource, err: unknown): MooringError {
  const e = toErrorData(err);
  return new MooringError(
    e.code,
    `Could not attach ${resource.name ?? resource.uri} from "${resource.server}": ${e.message}`,
    e.hint ?? 'Remove it from the message or pick another resource, then send again.',
    { cause: err },
  );
}

const emptyToUndefined = (v: string | null | undefined) => (v && v.trim() ? v.trim() : undefined);

export class ChatService extends EventEmitter<ChatServiceEvents> {
  private readonly turns = new Map<string, AbortController>();
  private readonly runtimes = new Map<string, { key: string; runtime: CoreToolRuntime }>();
  /** Delivered tasks waiting for their conversation's turn to end. */
  private readonly waiting = new Map<string, DeliveredTask[]>();
  /** TurnState.seq: bumped as each turn starts and ends. */
  private turnSeq = 0;
  /** The model of the latest turn: it also answers server-initiated sampling (after approval). */
  private samplingSpec?: string;

  constructor(private readonly deps: ChatServiceDeps) {
    super();
    deps.setSamplingModel(async (req, ctx) => {
      const spec = this.samplingSpec ?? (await this.defaultModel());
      const { provider, model } = await deps.providers.providerFor(spec);
      return providerCompletion(provider, model)(req, ctx);
    });
  }

  // ---- conversations ---------------------------------------------------------------------------

  async list(): Promise<ConversationRow[]> {
    return (await this.deps.conversations.list()).map((c) => ({ ...c, running: this.isRunning(c.id) }));
  }

  async search(query: string): Promise<ConversationRow[]> {
    return (await this.deps.conversations.search(query)).map((c) => ({
      ...c,
      running: this.isRunning(c.id),
    }));
  }

  /**
   * One conversation with every message; it becomes the active one (its folder is the MCP root).
   * `running` is as of `turnSeq` (TurnState.seq).
   */
  async load(id: string): Promise<LoadedConversation & { running: boolean; turnSeq: number; model: string }> {
    const loaded = await this.deps.conversations.load(id);
    await this.open(id, loaded.summary.workspace);
    const model = await this.modelOf(id);
    return { ...loaded, running: this.isRunning(id), turnSeq: this.turnSeq, model };
  }

  rename(id: string, title: string): Promise<void> {
    return this.deps.conversations.rename(id, title);
  }

  isRunning(conversationId: string): boolean {
    return this.turns.has(conversationId);
  }

  async delete(conversationId: string): Promise<void> {
    this.cancel(conversationId);
    await this.deps.conversations.delete(conversationId);
    this.runtimes.delete(conversationId);
    await this.deps.roots.setFolder(conversationId, undefined);
    await this.deps.prefs.update((p) => {
      const { [conversationId]: _gone, ...rest } = p.conversationModels;
      return { ...p, conversationModels: rest };
    });
  }

  /** The conversation as a file to save: Markdown to read, JSON to import again. */
  exportConversation(id: string, format: 'markdown' | 'json') {
    return exportConversation(this.deps.conversations, id, format);
  }

  /** A JSON export as a new conversation (conversationTransfer.ts). */
  importConversation(text: string): Promise<ConversationSummary> {
    return importConversation(this.deps.conversations, text);
  }

  /** A conversation's project folder: offered as the MCP root; servers get roots/list_changed. */
  async setWorkspace(conversationId: string, workspace: string | null): Promise<void> {
    // Checked (absolute, existing folder) before it is written.
    await this.deps.roots.setFolder(conversationId, workspace ?? undefined);
    await this.deps.conversations.setWorkspace(conversationId, workspace);
  }

  /** The conversation the user looks at: its folder is the root the servers see. */
  async open(conversationId: string, workspace: string | null): Promise<void> {
    if (workspace && !this.deps.roots.folderOf(conversationId))
      await this.deps.roots.setFolder(conversationId, workspace).catch(() => undefined);
    await this.deps.roots.activate(conversationId);
  }

  // ---- models ----------------------------------------------------------------------------------

  /** Saved default, else MOORING_MODEL, else the default provider's suggested model. */
  async defaultModel(): Promise<string> {
    const saved = (await this.deps.prefs.get()).defaultModel;
    if (saved) return saved;
    const fromEnv = this.deps.env().MOORING_MODEL;
    if (fromEnv) return fromEnv;
    const provider = this.deps.settings.current().providers.default;
    return `${provider}:${SUGGESTED_MODELS[provider]}`;
  }

  async modelOf(conversationId: string | undefined): Promise<string> {
    const prefs = await this.deps.prefs.get();
    return (conversationId && prefs.conversationModels[conversationId]) || (await this.defaultModel());
  }

  async setModel(conversationId: string, spec: string): Promise<void> {
    parseModelSpec(spec);
    await this.deps.prefs.update((p) => ({
      ...p,
      conversationModels: { ...p.conversationModels, [conversationId]: spec },
    }));
  }

  /** Settings > Models: the default model, each provider, and whether a keychain holds keys. */
  async models(): Promise<{
    defaultModel: string;
    providers: ProviderView[];
    keychain: { ok: true } | { ok: false; reason: string };
    /** The plain-text key file offered when there is no keychain (null: this host has none). */
    keyFile: string | null;
    /** Whether conversations are named by their model (conversationTitles.ts). */
    titlesFromModel: boolean;
  }> {
    const [defaultModel, providers, keychain] = await Promise.all([
      this.defaultModel(),
      this.deps.providers.views(),
      this.deps.providers.keychain(),
    ]);
    return {
      defaultModel,
      providers,
      keychain,
      keyFile: this.deps.providers.keyFilePath(),
      titlesFromModel: this.deps.settings.current().titlesFromModel,
    };
  }

  /**
   * Writes the default model, the base URLs and (when given) whether the model names conversations;
   * validated by the settings schema, nothing written if bad.
   */
  async saveModels(input: {
    defaultModel: string;
    baseUrls: Partial<Record<ProviderId, string | null>>;
    titlesFromModel?: boolean;
  }): Promise<void> {
    const { provider } = parseModelSpec(input.defaultModel);
    const openai = emptyToUndefined(input.baseUrls.openai);
    const anthropic = emptyToUndefined(input.baseUrls.anthropic);
    await this.deps.settings.update((current) => ({
      ...current,
      ...(input.titlesFromModel !== undefined ? { titlesFromModel: input.titlesFromModel } : {}),
      providers: {
        default: provider,
        ollama: { baseUrl: emptyToUndefined(input.baseUrls.ollama) ?? DEFAULT_PROVIDER_URLS.ollama },
        openai: openai ? { baseUrl: openai } : {},
        anthropic: anthropic ? { baseUrl: anthropic } : {},
      },
    }));
    await this.deps.prefs.update((p) => ({ ...p, defaultModel: input.defaultModel }));
  }

  /** Whether the default model's provider answers: the chat's empty state points to Settings when not. */
  async modelStatus(): Promise<{ model: string; check: ProviderCheck }> {
    const model = await this.defaultModel();
    let provider: ProviderId;
    try {
      provider = parseModelSpec(model).provider;
    } catch (err) {
      return { model, check: { ok: false, error: toErrorData(err) } };
    }
    return { model, check: await this.deps.providers.check(provider, 4_000) };
  }

  // ---- turns -----------------------------------------------------------------------------------

  /**
   * Starts a turn and returns at once with its conversation and the TurnState.seq of its start; the
   * turn streams through events.
   */
  async send(input: SendInput): Promise<{ conversationId: string; model: string; turnSeq: number }> {
    if (!input.text.trim() && !input.images?.length && !input.files?.length && !input.attachments?.length)
      throw new MooringError('usage', 'The message is empty', 'Type a message to send');
    return this.startTurn(input);
  }

  /**
   * The outcome of a tool call's task that outlived its turn (agent/taskDelivery.ts says what "delivered"
   * means): appended to its conversation once, then a turn runs so the model answers it. While the
   * conversation's turn runs, it waits for that turn to end. When no model can run now, the message is
   * appended all the same, for the model's next turn.
   */
  async deliverTaskResult(task: DeliveredTask): Promise<void> {
    const cid = task.conversationId;
    const messageId = deliveryMessageId(task);
    const { messages } = await this.deps.conversations.load(cid);
    if (messages.some((m) => m.id === messageId)) return;
    if (this.turns.has(cid)) {
      this.waiting.set(cid, [...(this.waiting.get(cid) ?? []), task]);
      return;
    }
    const text = deliveryText(task);
    try {
      await this.startTurn({ conversationId: cid, text }, { origin: 'task', messageId });
    } catch {
      const message = { id: messageId, at: Date.now(), role: 'user' as const, origin: 'task' as const };
      await this.deps.conversations.append(cid, { ...message, content: [{ type: 'text', text }] });
      this.emit('chat', {
        type: 'message-complete',
        conversationId: cid,
        index: messages.length,
        message: { ...message, content: [{ type: 'text', text }] },
      });
    }
  }

  private async startTurn(
    input: SendInput,
    from: { origin?: 'task'; messageId?: string } = {},
  ): Promise<{ conversationId: string; model: string; turnSeq: number }> {
    const spec = input.model ?? (await this.modelOf(input.conversationId));
    parseModelSpec(spec); // a clear usage error before anything is written
    if (input.toolSet) this.deps.settings.toolSet(input.toolSet); // not_found, naming the sets there are
    // Attached resources are read before anything is written: one that cannot be read changes nothing.
    const message = await this.messageContent(input);
    let cid = input.conversationId;
    if (cid && this.turns.has(cid))
      throw new MooringError(
        'usage',
        'This conversation is still answering',
        'Wait for the answer, or press Cancel first',
      );
    if (!cid) {
      const created = await this.deps.conversations.create({
        title: titleFromText(input.text),
        titleFrom: 'first-words',
        workspace: input.workspace ?? null,
      });
      cid = created.id;
      if (created.workspace) await this.deps.roots.setFolder(cid, created.workspace);
    } else if (input.replaceFrom) {
      await this.deps.conversations.branchBefore(cid, input.replaceFrom);
    } else {
      await this.deps.conversations.load(cid); // not_found before anything starts
    }
    await this.deps.roots.activate(cid);
    if (input.model || !(await this.deps.prefs.get()).conversationModels[cid]) await this.setModel(cid, spec);
    const { provider, model } = await this.deps.providers.providerFor(spec);
    this.samplingSpec = spec;
    const caps = provider.capabilities(model);
    // A project folder brings its approved servers (overriding globals of the same name, for this
    // conversation only); a folder that is gone or unreadable leaves the global servers in use.
    const folder = this.deps.roots.folderOf(cid);
    const workspace = folder ? await this.deps.ensureWorkspace(folder).catch(() => undefined) : undefined;
    const runtime = this.runtimeFor(cid, { vision: caps.vision, provider: provider.id, input, workspace });
    const ac = new AbortController();
    this.turns.set(cid, ac);
    const conversationId = cid;
    const appContext = this.deps.appContext?.(cid);
    const started = ++this.turnSeq;
    this.emit('turn', { conversationId, running: true, seq: started });
    void runChatTurn({
      store: this.deps.conversations,
      provider,
      model,
      runtime,
      conversationId,
      message,
      ...from,
      ...(input.app ? { app: input.app } : {}),
      signal: ac.signal,
      maxToolIterations: this.deps.settings.current().maxToolIterations,
      limits: this.limitsFor(provider.id, model),
      ...(appContext ? { system: appContext } : {}),
      onEvent: (e) => this.emit('chat', e),
    })
      .then((result) =>
        this.deps.titles.afterTurn({
          conversationId,
          provider,
          model,
          result,
          onEvent: (e) => this.emit('chat', e),
        }),
      )
      .catch((err: unknown) => {
        // runChatTurn already reported the failure as an `error` event and a note; cancel is a note.
        const e = toErrorData(err);
        if (e.code !== 'cancelled' && !(err instanceof MooringError))
          this.emit('chat', { type: 'error', conversationId, error: e });
      })
      .finally(() => {
        this.turns.delete(conversationId);
        this.emit('turn', { conversationId, running: false, seq: ++this.turnSeq });
        // A task delivered while this turn ran goes in now, one at a time.
        const next = this.waiting.get(conversationId)?.shift();
        if (next) void this.deliverTaskResult(next).catch(() => undefined);
      });
    return { conversationId, model: spec, turnSeq: started };
  }

  /**
   * Regenerate: the person's last message is sent again (with its images), in place of itself and the
   * answer it got.
   */
  async regenerate(
    input: Omit<SendInput, 'text' | 'replaceFrom' | 'images' | 'workspace'> & {
      conversationId: string;
    },
  ): Promise<{ conversationId: string; model: string; turnSeq: number }> {
    const { messages } = await this.deps.conversations.load(input.conversationId);
    const last = messages.findLast((m) => m.role === 'user' && m.origin !== 'protocol');
    if (!last || last.role !== 'user')
      throw new MooringError('usage', 'There is no message to answer again', 'Send a message first');
    // The attached resources are read again (they are read when a message is sent), not resent as text.
    const text = typedText(last.content);
    const images = last.content.filter((p): p is ImagePart => p.type === 'image' && !p.resource);
    const attachments = attachedResources(last.content);
    return this.send({
      ...input,
      text,
      images,
      ...(attachments.length ? { attachments } : {}),
      replaceFrom: last.id,
    });
  }

  /**
   * `mooring chat`: checks the tool set and the model first (a typo fails before any server starts),
   * makes that model answer sampling, and returns the turn to run once the servers are up.
   */
  async prepareTurn(
    opts: TerminalTurnOptions,
  ): Promise<{ run: (r: TerminalTurnRun) => Promise<ChatTurnResult> }> {
    const toolSet = opts.toolSet ? this.deps.settings.toolSet(opts.toolSet).name : undefined;
    const { provider, model } = await this.deps.providers.providerFor(opts.model);
    this.deps.setSamplingModel(providerCompletion(provider, model));
    return {
      run: async (r) => {
        const result = await runChatTurn({
          store: this.deps.conversations,
          provider,
          model,
          runtime: this.toolRuntime({
            provider: provider.id,
            ...(toolSet ? { toolSet } : {}),
            vision: provider.capabilities(model).vision,
            ...(opts.preApproved ? { preApproved: true } : {}),
            ...(opts.interactive === false ? { interactive: false } : {}),
            maxChars: Infinity,
          }),
          limits: this.limitsFor(provider.id, model),
          message: r.message,
          ...(r.conversationId ? { conversationId: r.conversationId } : {}),
          ...(r.workspace && !r.conversationId ? { workspace: r.workspace } : {}),
          maxToolIterations: this.deps.settings.current().maxToolIterations,
          ...(r.signal ? { signal: r.signal } : {}),
          ...(r.onEvent ? { onEvent: r.onEvent } : {}),
          ...(r.onPhase ? { onPhase: r.onPhase } : {}),
        });
        // In the background: the command waits for it (`titles.settled`) after printing the answer.
        this.deps.titles.afterTurn({
          conversationId: result.conversationId,
          provider,
          model,
          result,
          ...(r.onEvent ? { onEvent: r.onEvent } : {}),
        });
        return result;
      },
    };
  }

  /**
   * The person's message as parts: the text (with its files), each attached resource as read now (a
   * resource that cannot be read fails the send, naming it), then the images. A resource's parts are
   * marked with it (shared/chat.ts `AttachedResource`).
   */
  private async messageContent(input: SendInput): Promise<ContentPart[]> {
    const parts = contentOf(input);
    if (!input.attachments?.length) return parts;
    const attach = this.deps.attach;
    if (!attach) throw new MooringError('usage', 'This host cannot attach resources');
    const resources: ContentPart[] = [];
    for (const a of input.attachments) {
      const resource: AttachedResource = {
        server: a.server,
        uri: a.uri,
        ...(a.name ? { name: a.name } : {}),
      };
      const read = await attach(a.server, a.uri).catch((err: unknown) => {
        throw attachFailed(resource, err);
      });
      resources.push(...read.map((p) => ({ ...p, resource })));
    }
    return [
      ...parts.filter((p) => p.type === 'text'),
      ...resources,
      ...parts.filter((p) => p.type !== 'text'),
    ];
  }

  /**
   * A turn nobody watches, in a new conversation the user can open, continue and delete like any other: it
   * shows as running in the chat (and its Cancel works), and its tool calls go through the one gated call
   * path under the unattended policy (agent/unattendedPolicy.ts).
   */
  async runUnattended(r: UnattendedTurn): Promise<ChatTurnResult> {
    const toolSet = r.toolSet ? this.deps.settings.toolSet(r.toolSet).name : undefined;
    const { provider, model } = await this.deps.providers.providerFor(r.model);
    const created = await this.deps.conversations.create({ title: r.title, workspace: r.workspace });
    const conversationId = created.id;
    await this.setModel(conversationId, r.model);
    r.onConversation?.(conversationId);
    if (created.workspace)
      await this.deps.roots.setFolder(conversationId, created.workspace).catch(() => undefined);
    const workspace = created.workspace
      ? await this.deps.ensureWorkspace(created.workspace).catch(() => undefined)
      : undefined;
    const runtime = this.toolRuntime({
      provider: provider.id,
      vision: provider.capabilities(model).vision,
      client: r.who,
      unattended: { who: r.who, allow: r.allow },
      maxChars: Infinity,
      ...(toolSet ? { toolSet } : {}),
      ...(workspace ? { workspace } : {}),
    });
    const ac = new AbortController();
    const onAbort = () => ac.abort(r.signal.reason);
    r.signal.addEventListener('abort', onAbort, { once: true });
    if (r.signal.aborted) onAbort();
    this.turns.set(conversationId, ac);
    this.emit('turn', { conversationId, running: true, seq: ++this.turnSeq });
    try {
      return await runChatTurn({
        store: this.deps.conversations,
        provider,
        model,
        runtime,
        conversationId,
        message: r.prompt,
        system: UNATTENDED_NOTE,
        limits: this.limitsFor(provider.id, model),
        signal: ac.signal,
        maxToolIterations: this.deps.settings.current().maxToolIterations,
        onEvent: (e) => {
          this.emit('chat', e);
          if (e.type === 'message-complete') r.onMessage?.(e.message);
        },
      });
    } finally {
      r.signal.removeEventListener('abort', onAbort);
      this.turns.delete(conversationId);
      this.emit('turn', { conversationId, running: false, seq: ++this.turnSeq });
    }
  }

  /** Aborts the turn: the model stream stops, running calls get notifications/cancelled. */
  cancel(conversationId: string): boolean {
    const ac = this.turns.get(conversationId);
    if (!ac) return false;
    ac.abort(new MooringError('cancelled', 'Cancelled by the user'));
    return true;
  }

  cancelAll(): void {
    this.waiting.clear();
    for (const ac of this.turns.values())
      ac.abort(new MooringError('cancelled', 'Mooring closed before the call finished'));
  }

  /**
   * What one request to this model may hold: a tool result is cut at a share of its context window (the
   * rest read with read_result), images are scaled to the provider's limits (ARCHITECTURE.md, "Results too
   * large for the model"). The runtimes of these turns keep every result whole for the conversation.
   */
  limitsFor(providerId: string, model: string): RequestLimits {
    const s = this.deps.settings.current().largeResults;
    const images = PROVIDER_IMAGE_LIMITS[providerId];
    return {
      results: resultLimits({
        contextTokens: contextWindow(providerId, model, s.contextWindows),
        share: s.share,
        ...(s.maxChars ? { maxChars: s.maxChars } : {}),
      }),
      ...(images ? { images } : {}),
    };
  }

  /** A tool runtime over the core's one gated call path (the chat's, and `mooring serve`'s agent). */
  toolRuntime(opts: ConstructorParameters<typeof CoreToolRuntime>[1]): CoreToolRuntime {
    return new CoreToolRuntime(
      { tools: this.deps.tools, settings: () => this.deps.settings.current() },
      opts,
    );
  }

  /**
   * One runtime per conversation, model kind, tool set and project folder: the tool schemas follow the
   * provider's rules, the tools the set and the folder's servers.
   */
  private runtimeFor(
    conversationId: string,
    o: { vision: boolean; provider: string; input: SendInput; workspace: string | undefined },
  ): CoreToolRuntime {
    const toolSet = o.input.toolSet;
    const key = JSON.stringify([o.vision, o.provider, toolSet ?? null, o.workspace ?? null]);
    const held = this.runtimes.get(conversationId);
    if (held && held.key === key) return held.runtime;
    const runtime = this.toolRuntime({
      vision: o.vision,
      provider: o.provider,
      interactive: true,
      maxChars: Infinity,
      ...(toolSet ? { toolSet } : {}),
      ...(o.workspace ? { workspace: o.workspace } : {}),
    });
    this.runtimes.set(conversationId, { key, runtime });
    return runtime;
  }
}
