// The chat service (ARCHITECTURE.md, "The core as one object"): the chat's turns for every host, and its
// conversations (`conversations`, agent/chatConversations.ts). The UI's turns start here and run in the
// background, each ChatEvent on the `chat` event tagged by conversation; `mooring chat` runs one turn in
// the foreground (`prepareTurn`, agent/terminalTurn.ts); a schedule runs one nobody watches
// (`runUnattended`); a task's outcome that outlived its turn is delivered into its conversation. The
// models are agent/chatModels.ts's (`core.models`).
import { EventEmitter } from 'node:events';
import { attachedResources, typedText, type ChatEvent, type ChatMessage, type ImagePart } from '@shared/chat';
import type { TurnState } from '@shared/wire';
import type { ToolService } from '../calls/toolService';
import type { RootsRegistry } from '../clientFeatures/roots';
import type { SettingsService } from '../config/settingsService';
import { MooringError, toErrorData } from '../errors';
import { ChatConversations } from './chatConversations';
import type { ChatModels } from './chatModels';
import { runChatTurn, type ChatTurnResult } from './chatTurn';
import { titleFromText, type ConversationStore } from './conversationStore';
import type { ConversationTitles } from './conversationTitles';
import type { ProviderAccess } from './providerAccess';
import { parseModelSpec } from './providers/resolveProvider';
import { deliveryMessageId, deliveryText, type DeliveredTask } from './taskDelivery';
import { prepareTerminalTurn, type TerminalTurnOptions, type TerminalTurnRun } from './terminalTurn';
import { isEmptyMessage, messageContent, type AttachResource, type SendInput } from './turnMessage';
import type { SkillAccess } from './skillTool';
import { TurnRuntimes } from './turnRuntimes';
import { UNATTENDED_NOTE } from './unattendedPolicy';

export type { SendInput, TerminalTurnOptions, TerminalTurnRun };

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
  store: ConversationStore;
  /** Names a conversation with its model after its first answer (the core's one, shared with `serve`). */
  titles: ConversationTitles;
  models: ChatModels;
  providers: ProviderAccess;
  settings: SettingsService;
  tools: ToolService;
  /** The roots offered to servers: each conversation's project folder, the active one current. */
  roots: RootsRegistry;
  /** Starts a folder's approved servers for its conversations; returns its canonical path. */
  ensureWorkspace: (dir: string) => Promise<string>;
  /** A server's resource as parts of a message (clientFeatures/resourcesService.ts `attachment`). */
  attach?: AttachResource;
  /** Approved skills and the skill-loading path, offered to the model as `load_skill` (docs/skills.md). */
  skills?: SkillAccess;
}

/** A turn nobody watches (a scheduled run): a new conversation under the unattended policy. */
export interface UnattendedTurn {
  model: string;
  toolSet?: string;
  /** Tools allowed although not read-only (unattendedPolicy.ts). */
  allow: string[];
  workspace: string | null;
  /** The run's model writes programs (docs/code-mode.md); each call they make is under the same policy. */
  codeMode?: boolean;
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

export class ChatService extends EventEmitter<ChatServiceEvents> {
  /** The conversations: list, load, rename, delete, export and import, their folders. */
  readonly conversations: ChatConversations;
  private readonly turns = new Map<string, AbortController>();
  /** Delivered tasks waiting for their conversation's turn to end. */
  private readonly waiting = new Map<string, DeliveredTask[]>();
  /** TurnState.seq: bumped as each turn starts and ends. */
  private seq = 0;
  private readonly runtimes: TurnRuntimes;

  constructor(private readonly deps: ChatServiceDeps) {
    super();
    this.runtimes = new TurnRuntimes({ tools: deps.tools, settings: deps.settings, skills: deps.skills });
    this.conversations = new ChatConversations({
      store: deps.store,
      turns: this,
      models: deps.models,
      roots: deps.roots,
    });
  }

  /** TurnState.seq now: what `running` answers are as of. */
  get turnSeq(): number {
    return this.seq;
  }

  isRunning(conversationId: string): boolean {
    return this.turns.has(conversationId);
  }

  /**
   * Starts a turn and returns at once with its conversation and the TurnState.seq of its start; the
   * turn streams through events.
   */
  async send(input: SendInput): Promise<{ conversationId: string; model: string; turnSeq: number }> {
    if (isEmptyMessage(input))
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
    const { messages } = await this.deps.store.load(cid);
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
      await this.deps.store.append(cid, { ...message, content: [{ type: 'text', text }] });
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
    const { models, roots } = this.deps;
    const spec = input.model ?? (await models.modelOf(input.conversationId));
    parseModelSpec(spec); // a clear usage error before anything is written
    if (input.toolSet) this.deps.settings.toolSet(input.toolSet); // not_found, naming the sets there are
    // Attached resources are read before anything is written: one that cannot be read changes nothing. Read
    // once the servers have the roots of the conversation just opened (roots.ts).
    await roots.settled();
    const message = await messageContent(input, this.deps.attach);
    const isNew = !input.conversationId;
    const conversationId = await this.conversationFor(input);
    await roots.activate(conversationId);
    if (input.model || !(await models.hasOwnModel(conversationId)))
      await models.setModel(conversationId, spec);
    const { provider, model } = await this.deps.providers.providerFor(spec);
    models.answerSampling(spec);
    // Code mode as the turn says; a new conversation the turn says nothing of starts as its model does.
    const codeMode = input.codeMode ?? (isNew && models.startsInCodeMode(spec) ? true : undefined);
    if (codeMode !== undefined) await models.setCodeMode(conversationId, codeMode);
    // A project folder brings its approved servers (overriding globals of the same name, for this
    // conversation only); a folder that is gone or unreadable leaves the global servers in use.
    const folder = roots.folderOf(conversationId);
    const workspace = folder ? await this.deps.ensureWorkspace(folder).catch(() => undefined) : undefined;
    const runtime = this.runtimes.forConversation(conversationId, {
      provider: provider.id,
      toolSet: input.toolSet,
      workspace,
      codeMode: await models.codeModeOf(conversationId),
    });
    const ac = new AbortController();
    this.turns.set(conversationId, ac);
    const appContext = this.deps.appContext?.(conversationId);
    const started = ++this.seq;
    this.emit('turn', { conversationId, running: true, seq: started });
    void runChatTurn({
      store: this.deps.store,
      provider,
      model,
      runtime,
      conversationId,
      message,
      ...from,
      ...(input.app ? { app: input.app } : {}),
      signal: ac.signal,
      maxToolIterations: this.deps.settings.current().maxToolIterations,
      limits: this.runtimes.limitsFor(provider.id, model),
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
        this.emit('turn', { conversationId, running: false, seq: ++this.seq });
        // A task delivered while this turn ran goes in now, one at a time.
        const next = this.waiting.get(conversationId)?.shift();
        if (next) void this.deliverTaskResult(next).catch(() => undefined);
      });
    return { conversationId, model: spec, turnSeq: started };
  }

  /** The turn's conversation: a new one, the existing one (branched for an edit), never a running one. */
  private async conversationFor(input: SendInput): Promise<string> {
    const cid = input.conversationId;
    if (cid && this.turns.has(cid))
      throw new MooringError(
        'usage',
        'This conversation is still answering',
        'Wait for the answer, or press Cancel first',
      );
    if (!cid) {
      const created = await this.deps.store.create({
        title: titleFromText(input.text),
        titleFrom: 'first-words',
        workspace: input.workspace ?? null,
      });
      if (created.workspace) await this.deps.roots.setFolder(created.id, created.workspace);
      return created.id;
    }
    if (input.replaceFrom) await this.deps.store.branchBefore(cid, input.replaceFrom);
    else await this.deps.store.load(cid); // not_found before anything starts
    return cid;
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
    const { messages } = await this.deps.store.load(input.conversationId);
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

  /** `mooring chat`: see agent/terminalTurn.ts. */
  prepareTurn(opts: TerminalTurnOptions): Promise<{ run: (r: TerminalTurnRun) => Promise<ChatTurnResult> }> {
    const { store, titles, models, providers, settings } = this.deps;
    return prepareTerminalTurn({ store, titles, models, providers, settings, runtimes: this.runtimes }, opts);
  }

  /**
   * A turn nobody watches, in a new conversation the user can open, continue and delete like any other: it
   * shows as running in the chat (and its Cancel works), and its tool calls go through the one gated call
   * path under the unattended policy (agent/unattendedPolicy.ts).
   */
  async runUnattended(r: UnattendedTurn): Promise<ChatTurnResult> {
    const toolSet = r.toolSet ? this.deps.settings.toolSet(r.toolSet).name : undefined;
    const { provider, model } = await this.deps.providers.providerFor(r.model);
    const created = await this.deps.store.create({ title: r.title, workspace: r.workspace });
    const conversationId = created.id;
    await this.deps.models.setModel(conversationId, r.model);
    r.onConversation?.(conversationId);
    if (created.workspace)
      await this.deps.roots.setFolder(conversationId, created.workspace).catch(() => undefined);
    const workspace = created.workspace
      ? await this.deps.ensureWorkspace(created.workspace).catch(() => undefined)
      : undefined;
    const runtime = this.runtimes.turnRuntime({
      ...(r.codeMode ? { codeMode: true } : {}),
      provider: provider.id,
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
    this.emit('turn', { conversationId, running: true, seq: ++this.seq });
    try {
      return await runChatTurn({
        store: this.deps.store,
        provider,
        model,
        runtime,
        conversationId,
        message: r.prompt,
        system: UNATTENDED_NOTE,
        limits: this.runtimes.limitsFor(provider.id, model),
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
      this.emit('turn', { conversationId, running: false, seq: ++this.seq });
    }
  }

  /** Aborts the turn: the model stream stops, running calls get notifications/cancelled. */
  cancel(conversationId: string): boolean {
    const ac = this.turns.get(conversationId);
    if (!ac) return false;
    ac.abort(new MooringError('cancelled', 'Cancelled by the user'));
    return true;
  }

  /** A deleted conversation: its turn is cancelled and its runtime goes. */
  forget(conversationId: string): void {
    this.cancel(conversationId);
    this.runtimes.forget(conversationId);
  }

  cancelAll(): void {
    this.waiting.clear();
    for (const ac of this.turns.values())
      ac.abort(new MooringError('cancelled', 'Mooring closed before the call finished'));
  }

  /** A tool runtime over the core's one gated call path (agent/turnRuntimes.ts). */
  toolRuntime(opts: Parameters<TurnRuntimes['toolRuntime']>[0]) {
    return this.runtimes.toolRuntime(opts);
  }
}
