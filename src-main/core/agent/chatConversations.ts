// The chat's conversations (ARCHITECTURE.md, "The core as one object"): the list and its search, one
// conversation as the Chat screen opens it (with whether a turn runs and its model), rename, delete,
// export and import, and its project folder, which is the MCP root while it is the open one.
import type { ConversationSummary } from '@shared/chat';
import type { RootsRegistry } from '../clientFeatures/roots';
import type { ChatModels } from './chatModels';
import type { ConversationStore, LoadedConversation } from './conversationStore';
import { exportConversation, importConversation } from './conversationTransfer';

/** What the conversations ask of the chat's turns (agent/chatService.ts). */
export interface ConversationTurns {
  isRunning(conversationId: string): boolean;
  /** TurnState.seq now. */
  readonly turnSeq: number;
  /** A deleted conversation: its turn is cancelled and what it held goes. */
  forget(conversationId: string): void;
}

export interface ChatConversationsDeps {
  store: ConversationStore;
  turns: ConversationTurns;
  models: Pick<ChatModels, 'modelOf' | 'codeModeOf' | 'forget'>;
  /** The roots offered to servers: each conversation's project folder, the active one current. */
  roots: RootsRegistry;
}

export type ConversationRow = ConversationSummary & { running: boolean };

export class ChatConversations {
  constructor(private readonly deps: ChatConversationsDeps) {}

  async list(): Promise<ConversationRow[]> {
    return this.withRunning(await this.deps.store.list());
  }

  async search(query: string): Promise<ConversationRow[]> {
    return this.withRunning(await this.deps.store.search(query));
  }

  /**
   * One conversation with every message; it becomes the active one (its folder is the MCP root).
   * `running` is as of `turnSeq` (TurnState.seq).
   */
  async load(
    id: string,
  ): Promise<LoadedConversation & { running: boolean; turnSeq: number; model: string; codeMode: boolean }> {
    const loaded = await this.deps.store.load(id);
    await this.open(id, loaded.summary.workspace);
    const model = await this.deps.models.modelOf(id);
    const { turns } = this.deps;
    const codeMode = await this.deps.models.codeModeOf(id);
    return { ...loaded, running: turns.isRunning(id), turnSeq: turns.turnSeq, model, codeMode };
  }

  rename(id: string, title: string): Promise<void> {
    return this.deps.store.rename(id, title);
  }

  async delete(conversationId: string): Promise<void> {
    this.deps.turns.forget(conversationId);
    await this.deps.store.delete(conversationId);
    await this.deps.roots.setFolder(conversationId, undefined);
    await this.deps.models.forget(conversationId);
  }

  /** The conversation as a file to save: Markdown to read, JSON to import again. */
  export(id: string, format: 'markdown' | 'json') {
    return exportConversation(this.deps.store, id, format);
  }

  /** A JSON export as a new conversation (conversationTransfer.ts). */
  import(text: string): Promise<ConversationSummary> {
    return importConversation(this.deps.store, text);
  }

  /** A conversation's project folder: offered as the MCP root; servers get roots/list_changed. */
  async setWorkspace(conversationId: string, workspace: string | null): Promise<void> {
    // Checked (absolute, existing folder) before it is written.
    await this.deps.roots.setFolder(conversationId, workspace ?? undefined);
    await this.deps.store.setWorkspace(conversationId, workspace);
  }

  /** The conversation the user looks at: its folder is the root the servers see. */
  async open(conversationId: string, workspace: string | null): Promise<void> {
    const { roots } = this.deps;
    // Opened to be read: its messages do not wait for the servers to read the roots again; its next turn
    // does (roots.ts).
    if (workspace && !roots.folderOf(conversationId))
      await roots.setFolder(conversationId, workspace, { wait: false }).catch(() => undefined);
    await roots.activate(conversationId, { wait: false });
  }

  private withRunning(rows: ConversationSummary[]): ConversationRow[] {
    return rows.map((c) => ({ ...c, running: this.deps.turns.isRunning(c.id) }));
  }
}
