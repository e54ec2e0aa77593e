// Mooring's memory: short entries the user or a model saved, shared by the app, the
// CLI and Mooring's own MCP server. One append-only JSONL file (docs/data-on-disk.md "Data on disk"): an
// `add` line per entry and a `delete` line per removal, each fsync'd, so a crash loses at most the line
// in flight and a torn last line is skipped on load. Several processes (the app and `mooring serve`)
// may append to it; every read folds the whole file again, so each sees the others' writes.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { z } from 'zod';
import { jsonlAppender } from '../config/jsonlAppender';
import { MooringError } from '../errors';

export const MEMORY_TEXT_MAX = 20_000;
const ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

export interface MemoryEntry {
  id: string;
  /** A short label; defaults to the first line of the text. */
  title: string;
  text: string;
  tags: string[];
  createdAt: number;
  /** Who saved it: `user`, or an MCP client's name / token label. */
  source: string;
}

export interface MemoryInput {
  text: string;
  title?: string;
  tags?: string[];
  source?: string;
}

export interface MemorySearchHit {
  entry: MemoryEntry;
  score: number;
}

const EntrySchema = z.object({
  id: z.string().regex(ID_PATTERN),
  title: z.string(),
  text: z.string(),
  tags: z.array(z.string()),
  createdAt: z.number(),
  source: z.string(),
});

const RecordSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('add'), entry: EntrySchema }),
  z.object({ kind: z.literal('delete'), id: z.string(), at: z.number() }),
]);
type MemoryRecord = z.infer<typeof RecordSchema>;

const firstLine = (text: string) => {
  const line = text.trim().split('\n')[0]!.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
};

export class MemoryStore {
  constructor(
    readonly file: string,
    private readonly onWarning: (warning: string) => void = () => {},
  ) {}

  static forHome(home: string, onWarning?: (warning: string) => void): MemoryStore {
    return new MemoryStore(join(home, 'memory.jsonl'), onWarning);
  }

  async create(input: MemoryInput): Promise<MemoryEntry> {
    const text = input.text.trim();
    if (!text)
      throw new MooringError('usage', 'A memory entry needs some text', 'Pass the text to remember.');
    if (text.length > MEMORY_TEXT_MAX)
      throw new MooringError(
        'usage',
        `A memory entry is at most ${MEMORY_TEXT_MAX} characters (this one has ${text.length})`,
        'Save a shorter summary, or split it into several entries.',
      );
    const entry: MemoryEntry = {
      id: randomUUID(),
      title: (input.title?.trim() || firstLine(text)).slice(0, 200),
      text,
      tags: [...new Set((input.tags ?? []).map((t) => t.trim()).filter(Boolean))],
      createdAt: Date.now(),
      source: input.source ?? 'user',
    };
    await this.append({ kind: 'add', entry });
    return entry;
  }

  /** Every entry, newest first. */
  async list(): Promise<MemoryEntry[]> {
    return [...(await this.load()).values()].sort((a, b) => b.createdAt - a.createdAt);
  }

  async get(id: string): Promise<MemoryEntry> {
    const entry = (await this.load()).get(id);
    if (!entry) throw notFound(id);
    return entry;
  }

  async delete(id: string): Promise<void> {
    await this.get(id);
    await this.append({ kind: 'delete', id, at: Date.now() });
  }

  /** Ranked full-text search over title, text and tags (prefix and small typos match); empty query lists all. */
  async search(query: string, opts: { limit?: number } = {}): Promise<MemorySearchHit[]> {
    const entries = await this.list();
    const limit = opts.limit ?? 20;
    if (!query.trim()) return entries.slice(0, limit).map((entry) => ({ entry, score: 0 }));
    const index = new MiniSearch<MemoryEntry & { tagText: string }>({
      fields: ['title', 'text', 'tagText'],
      storeFields: [],
      searchOptions: { prefix: true, fuzzy: 0.2, boost: { title: 2, tagText: 2 }, combineWith: 'AND' },
    });
    index.addAll(entries.map((e) => ({ ...e, tagText: e.tags.join(' ') })));
    const byId = new Map(entries.map((e) => [e.id, e]));
    return index
      .search(query)
      .slice(0, limit)
      .map((r) => ({ entry: byId.get(r.id as string)!, score: r.score }));
  }

  private async load(): Promise<Map<string, MemoryEntry>> {
    let raw: string;
    try {
      raw = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
      throw err;
    }
    const entries = new Map<string, MemoryEntry>();
    raw.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      let rec: MemoryRecord;
      try {
        rec = RecordSchema.parse(JSON.parse(line));
      } catch {
        this.onWarning(`${this.file}: skipped line ${i + 1}, a torn or damaged write`);
        return;
      }
      if (rec.kind === 'add') entries.set(rec.entry.id, rec.entry);
      else entries.delete(rec.id);
    });
    return entries;
  }

  /** Through the home's one appender: in call order, fsync'd, whole lines across processes. */
  private append(record: MemoryRecord): Promise<void> {
    return jsonlAppender(this.file).append(record);
  }
}

function notFound(id: string): MooringError {
  return new MooringError(
    'not_found',
    `No memory entry "${id}"`,
    'Search or list the memory to find its id.',
  );
}
