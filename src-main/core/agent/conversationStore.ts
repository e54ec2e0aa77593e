// Conversations on disk (docs/data-on-disk.md, "Data on disk"): one append-only JSONL file per
// conversation under <home>/conversations. Each record is written and fsync'd as its step completes,
// so a crash loses at most the step in flight. A torn line (crash mid-write) is skipped with a
// warning on load; the next append starts on a fresh line so the fragment never swallows new data.
import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatMessage, ConversationSummary, UserChatMessage } from '@shared/chat';
import { closeJsonlAppender, jsonlAppender } from '../config/jsonlAppender';
import { MooringError } from '../errors';
import { homePaths } from '../home';

/** One line of a conversation file. The first line is always `meta`. */
export type ConversationRecord =
  | {
      kind: 'meta';
      id: string;
      title: string;
      createdAt: number;
      workspace: string | null;
      /** 'first-words': the title is the first message's opening words, for the model to replace. */
      titleFrom?: 'first-words';
    }
  | { kind: 'message'; message: ChatMessage }
  /**
   * A new title. Without `by` it is the person's (every rename a file written before model titles holds);
   * `by: 'model'` is the one the conversation's model suggested (conversationTitles.ts), which counts only
   * while the title is still the first words: it never replaces a title the person chose.
   */
  | { kind: 'rename'; title: string; at: number; by?: 'model' }
  | { kind: 'workspace'; workspace: string | null; at: number }
  /**
   * Edit-and-resend or regenerate: the conversation goes on from its first `keep` messages (the later
   * ones stay in the file, above this line, but are no longer part of it).
   */
  | { kind: 'branch'; keep: number; at: number };

/**
 * Where the title comes from: the first message's words, the model, the person (a rename), or given at
 * creation (an import, a schedule's run, a file from before this was recorded).
 */
export type TitleSource = 'first-words' | 'model' | 'user' | 'given';

export interface LoadedConversation {
  summary: ConversationSummary;
  titleSource: TitleSource;
  messages: ChatMessage[];
  /** Lines that could not be read (a torn write), each described; the rest loaded. */
  warnings: string[];
}

const ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;
const FILE_SUFFIX = '.jsonl';
const MAX_TITLE = 200;

export function titleFromText(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 57)}...` : line || 'New conversation';
}

export class ConversationStore {
  readonly dir: string;
  private readonly onWarning: (warning: string) => void;

  constructor(opts: { dir: string; onWarning?: (warning: string) => void }) {
    this.dir = opts.dir;
    this.onWarning = opts.onWarning ?? (() => {});
  }

  static forHome(home: string, onWarning?: (warning: string) => void): ConversationStore {
    return new ConversationStore({ dir: homePaths(home).conversations, onWarning });
  }

  private file(id: string): string {
    if (!ID_PATTERN.test(id)) {
      throw new MooringError(
        'usage',
        `"${id}" is not a conversation id`,
        'Use an id from `mooring chat --list`',
      );
    }
    return join(this.dir, id + FILE_SUFFIX);
  }

  async create(
    opts: {
      title?: string;
      /** The title is the first message's words (titleFromText): the model may name it after the first answer. */
      titleFrom?: 'first-words';
      workspace?: string | null;
      id?: string;
    } = {},
  ): Promise<ConversationSummary> {
    const id = opts.id ?? randomUUID();
    const path = this.file(id);
    await mkdir(this.dir, { recursive: true });
    const createdAt = Date.now();
    const meta: ConversationRecord = {
      kind: 'meta',
      id,
      title: (opts.title ?? 'New conversation').slice(0, MAX_TITLE),
      createdAt,
      workspace: opts.workspace ?? null,
      ...(opts.titleFrom ? { titleFrom: opts.titleFrom } : {}),
    };
    // 'wx': never overwrite an existing conversation.
    const fh = await open(path, 'wx').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'EEXIST') throw new MooringError('usage', `Conversation ${id} already exists`);
      throw err;
    });
    try {
      await fh.write(JSON.stringify(meta) + '\n');
      await fh.sync();
    } finally {
      await fh.close();
    }
    await syncDir(this.dir);
    return { id, title: meta.title, createdAt, updatedAt: createdAt, workspace: meta.workspace };
  }

  append(id: string, message: ChatMessage): Promise<void> {
    return this.appendRecord(id, { kind: 'message', message });
  }

  rename(id: string, title: string): Promise<void> {
    const clean = title.replace(/\s+/g, ' ').trim();
    if (!clean)
      return Promise.reject(
        new MooringError('usage', 'A conversation title cannot be empty', 'Type a title'),
      );
    return this.appendRecord(id, { kind: 'rename', title: clean.slice(0, MAX_TITLE), at: Date.now() });
  }

  /**
   * The title the conversation's model suggested, already made safe (conversationTitles.ts). It counts on
   * load only while the title is still the first words, so a rename the person makes meanwhile wins, even
   * from another process.
   */
  setModelTitle(id: string, title: string): Promise<void> {
    return this.appendRecord(id, {
      kind: 'rename',
      title: title.slice(0, MAX_TITLE),
      at: Date.now(),
      by: 'model',
    });
  }

  setWorkspace(id: string, workspace: string | null): Promise<void> {
    return this.appendRecord(id, { kind: 'workspace', workspace, at: Date.now() });
  }

  /**
   * The conversation goes on from just before the person's message `messageId`: it and everything after
   * it leave the conversation. Returns that message (its content is what a regenerate sends again).
   */
  async branchBefore(id: string, messageId: string): Promise<UserChatMessage> {
    const { messages } = await this.load(id);
    const keep = messages.findIndex((m) => m.id === messageId);
    const from = messages[keep];
    if (!from || from.role !== 'user' || from.origin === 'protocol')
      throw new MooringError(
        'not_found',
        'That message is not one of yours in this conversation',
        'Reload the conversation and try again',
      );
    await this.appendRecord(id, { kind: 'branch', keep, at: Date.now() });
    return from;
  }

  /**
   * Through the home's one appender: in call order, fsync'd, whole lines even when two processes write
   * one conversation. Only to a conversation that exists (its header line was written by `create`).
   */
  private appendRecord(id: string, record: ConversationRecord): Promise<void> {
    return jsonlAppender(this.file(id), { mustExist: true })
      .append(record)
      .catch((err: NodeJS.ErrnoException) => {
        throw err.code === 'ENOENT' ? notFound(id) : err;
      });
  }

  async load(id: string): Promise<LoadedConversation> {
    const path = this.file(id);
    let raw: string;
    try {
      raw = await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(id);
      throw err;
    }
    const mtime = (await stat(path)).mtimeMs;
    const warnings: string[] = [];
    const messages: ChatMessage[] = [];
    let summary: ConversationSummary | undefined;
    let titleSource: TitleSource = 'given';
    const lines = raw.split('\n');
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      let rec: ConversationRecord;
      try {
        rec = JSON.parse(line) as ConversationRecord;
      } catch {
        const where = i === lines.length - 1 ? 'the last line' : `line ${i + 1}`;
        warnings.push(`${id}: skipped ${where}, a torn or damaged write (${line.length} bytes)`);
        return;
      }
      if (rec.kind === 'meta') {
        summary = {
          id,
          title: rec.title,
          createdAt: rec.createdAt,
          updatedAt: rec.createdAt,
          workspace: rec.workspace ?? null,
        };
        titleSource = rec.titleFrom === 'first-words' ? 'first-words' : 'given';
      } else if (rec.kind === 'message' && rec.message) {
        messages.push(rec.message);
        if (summary) summary.updatedAt = Math.max(summary.updatedAt, rec.message.at);
      } else if (rec.kind === 'rename' && rec.by === 'model' && summary) {
        // Not activity: the list keeps its order.
        if (titleSource === 'first-words') [summary.title, titleSource] = [rec.title, 'model'];
      } else if (rec.kind === 'rename' && summary) {
        summary.title = rec.title;
        titleSource = 'user';
        summary.updatedAt = Math.max(summary.updatedAt, rec.at);
      } else if (rec.kind === 'workspace' && summary) {
        summary.workspace = rec.workspace;
      } else if (rec.kind === 'branch') {
        messages.length = Math.min(messages.length, rec.keep);
        if (summary) summary.updatedAt = Math.max(summary.updatedAt, rec.at);
      }
    });
    if (!summary) {
      // The meta line itself was torn (crash during create): keep what there is under a plain title.
      warnings.push(`${id}: the header line is missing or damaged; the conversation is shown untitled`);
      summary = { id, title: 'Untitled conversation', createdAt: mtime, updatedAt: mtime, workspace: null };
    }
    for (const w of warnings) this.onWarning(w);
    return { summary, titleSource, messages, warnings };
  }

  /** Most recently updated first. Damaged files are listed from what can be read, never dropped. */
  async list(): Promise<ConversationSummary[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const ids = names.filter((n) => n.endsWith(FILE_SUFFIX)).map((n) => n.slice(0, -FILE_SUFFIX.length));
    const out: ConversationSummary[] = [];
    for (const id of ids.filter((i) => ID_PATTERN.test(i))) {
      try {
        out.push((await this.load(id)).summary);
      } catch (err) {
        if (!(err instanceof MooringError && err.code === 'not_found')) throw err;
      }
    }
    return out.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** Case-insensitive title search. */
  async search(query: string): Promise<ConversationSummary[]> {
    const q = query.trim().toLowerCase();
    const all = await this.list();
    return q ? all.filter((c) => c.title.toLowerCase().includes(q)) : all;
  }

  async delete(id: string): Promise<void> {
    const path = this.file(id);
    await closeJsonlAppender(path); // after its pending appends; a later one fails as not found
    try {
      await stat(path);
    } catch {
      throw notFound(id);
    }
    await rm(path);
  }
}

function notFound(id: string): MooringError {
  return new MooringError('not_found', `No conversation ${id}`, 'List conversations to find the right id');
}

async function syncDir(dir: string): Promise<void> {
  // Makes the new file's directory entry durable; not supported on every platform (Windows).
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    /* best effort */
  }
}
