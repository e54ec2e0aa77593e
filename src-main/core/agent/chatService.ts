// The UI's chat turns on the server side (issue 5 "Chat", issue 6 "The tool loop"): the same
// runChatTurn as `mooring chat` (src-main/cli/chatCommand.ts), but started by the router and run in the
// background; every ChatEvent goes to the one `events` stream, tagged by conversation. One service per
// core (the router and the event stream find it through `chatServiceFor`).
import { EventEmitter } from 'node:events';
import type { ChatEvent } from '@shared/chat';
import { SUGGESTED_MODELS } from '@shared/providers';
import type { TurnState } from '@shared/wire';
import { ConversationStore, parseModelSpec, runChatTurn, titleFromText } from './';
import { CoreToolRuntime } from './coreToolRuntime';
import { providerCompletion } from './samplingCompletion';
import { MooringError, toErrorData } from '../errors';
import type { MooringCore } from '../mooringCore';
import { ChatPreferencesFile } from './chatPreferences';
import { providerFor } from './providerAccess';

export interface ChatServiceEvents {
  chat: [ChatEvent];
  turn: [TurnState];
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
}

export class ChatService extends EventEmitter<ChatServiceEvents> {
  readonly store: ConversationStore;
  readonly prefs: ChatPreferencesFile;
  private readonly turns = new Map<string, AbortController>();
  private readonly runtimes = new Map<string, { key: string; runtime: CoreToolRuntime }>();
  /** The model of the latest turn: it also answers server-initiated sampling (after approval). */
  private samplingSpec?: string;

  constructor(private readonly core: MooringCore) {
    super();
    this.store = ConversationStore.forHome(core.paths.home);
    this.prefs = new ChatPreferencesFile(core.paths.home);
    core.setSamplingModel(async (req, ctx) => {
      const { provider, model } = await providerFor(core, this.samplingSpec ?? (await this.defaultModel()));
      return providerCompletion(provider, model)(req, ctx);
    });
  }

  /** Saved default, else MOORING_MODEL, else the default provider's suggested model. */
  async defaultModel(): Promise<string> {
    const saved = (await this.prefs.get()).defaultModel;
    if (saved) return saved;
    if (process.env.MOORING_MODEL) return process.env.MOORING_MODEL;
    const provider = this.core.settings().providers.default;
    return `${provider}:${SUGGESTED_MODELS[provider]}`;
  }

  async modelOf(conversationId: string | undefined): Promise<string> {
    const prefs = await this.prefs.get();
    return (conversationId && prefs.conversationModels[conversationId]) || (await this.defaultModel());
  }

  async setModel(conversationId: string, spec: string): Promise<void> {
    parseModelSpec(spec);
    await this.prefs.update((p) => ({
      ...p,
      conversationModels: { ...p.conversationModels, [conversationId]: spec },
    }));
  }

  isRunning(conversationId: string): boolean {
    return this.turns.has(conversationId);
  }

  /** Starts a turn and returns at once with its conversation; the turn streams through events. */
  async send(input: SendInput): Promise<{ conversationId: string; model: string }> {
    if (!input.text.trim()) throw new MooringError('usage', 'The message is empty', 'Type a message to send');
    const spec = input.model ?? (await this.modelOf(input.conversationId));
    parseModelSpec(spec); // a clear usage error before anything is written
    if (input.toolSet) this.core.toolSet(input.toolSet); // not_found, naming the sets there are
    let cid = input.conversationId;
    if (cid && this.turns.has(cid))
      throw new MooringError(
        'usage',
        'This conversation is still answering',
        'Wait for the answer, or press Cancel first',
      );
    if (!cid) {
      const created = await this.store.create({
        title: titleFromText(input.text),
        workspace: input.workspace ?? null,
      });
      cid = created.id;
      if (created.workspace) await this.core.features.roots.setFolder(cid, created.workspace);
    } else {
      await this.store.load(cid); // not_found before anything starts
    }
    await this.core.features.roots.activate(cid);
    if (input.model || !(await this.prefs.get()).conversationModels[cid]) await this.setModel(cid, spec);
    const { provider, model } = await providerFor(this.core, spec);
    this.samplingSpec = spec;
    const caps = provider.capabilities(model);
    // A project folder brings its approved servers (overriding globals of the same name, for this
    // conversation only); a folder that is gone or unreadable leaves the global servers in use.
    const folder = this.core.features.roots.folderOf(cid);
    const workspace = folder ? await this.core.workspaces.ensure(folder).catch(() => undefined) : undefined;
    const runtime = this.runtimeFor(cid, caps.vision, provider.id, input.toolSet, workspace);
    const ac = new AbortController();
    this.turns.set(cid, ac);
    const conversationId = cid;
    this.emit('turn', { conversationId, running: true });
    void runChatTurn({
      store: this.store,
      provider,
      model,
      runtime,
      conversationId,
      message: input.text,
      signal: ac.signal,
      maxToolIterations: this.core.settings().maxToolIterations,
      onEvent: (e) => this.emit('chat', e),
    })
      .catch((err: unknown) => {
        // runChatTurn already reported the failure as an `error` event and a note; cancel is a note.
        const e = toErrorData(err);
        if (e.code !== 'cancelled' && !(err instanceof MooringError))
          this.emit('chat', { type: 'error', conversationId, error: e });
      })
      .finally(() => {
        this.turns.delete(conversationId);
        this.emit('turn', { conversationId, running: false });
      });
    return { conversationId, model: spec };
  }

  /** Aborts the turn: the model stream stops, running calls get notifications/cancelled. */
  cancel(conversationId: string): boolean {
    const ac = this.turns.get(conversationId);
    if (!ac) return false;
    ac.abort(new MooringError('cancelled', 'Cancelled by the user'));
    return true;
  }

  async delete(conversationId: string): Promise<void> {
    this.cancel(conversationId);
    await this.store.delete(conversationId);
    this.runtimes.delete(conversationId);
    await this.core.features.roots.setFolder(conversationId, undefined);
    await this.prefs.update((p) => {
      const { [conversationId]: _gone, ...rest } = p.conversationModels;
      return { ...p, conversationModels: rest };
    });
  }

  /** A conversation's project folder: offered as the MCP root; servers get roots/list_changed. */
  async setWorkspace(conversationId: string, workspace: string | null): Promise<void> {
    // Checked (absolute, existing folder) before it is written.
    await this.core.features.roots.setFolder(conversationId, workspace ?? undefined);
    await this.store.setWorkspace(conversationId, workspace);
  }

  /** The conversation the user looks at: its folder is the root the servers see. */
  async open(conversationId: string, workspace: string | null): Promise<void> {
    if (workspace && !this.core.features.roots.folderOf(conversationId))
      await this.core.features.roots.setFolder(conversationId, workspace).catch(() => undefined);
    await this.core.features.roots.activate(conversationId);
  }

  cancelAll(): void {
    for (const ac of this.turns.values()) ac.abort(new MooringError('cancelled', 'Mooring is closing'));
  }

  /**
   * One runtime per conversation, model kind, tool set and project folder: the tool schemas follow the
   * provider's rules, the tools the set and the folder's servers.
   */
  private runtimeFor(
    conversationId: string,
    vision: boolean,
    provider: string,
    toolSet?: string,
    workspace?: string,
  ): CoreToolRuntime {
    const key = JSON.stringify([vision, provider, toolSet ?? null, workspace ?? null]);
    const held = this.runtimes.get(conversationId);
    if (held && held.key === key) return held.runtime;
    const runtime = new CoreToolRuntime(this.core, {
      vision,
      provider,
      interactive: true,
      ...(toolSet ? { toolSet } : {}),
      ...(workspace ? { workspace } : {}),
    });
    this.runtimes.set(conversationId, { key, runtime });
    return runtime;
  }
}

const services = new WeakMap<MooringCore, ChatService>();

export function chatServiceFor(core: MooringCore): ChatService {
  let s = services.get(core);
  if (!s) {
    s = new ChatService(core);
    services.set(core, s);
  }
  return s;
}
