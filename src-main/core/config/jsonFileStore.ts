// The one way the core keeps a JSON file in the home (docs/data-on-disk.md, "Data on disk"): servers,
// settings, approvals, workspace approvals, known tools, chat preferences. Every file gets the same rules:
// - read: parsed strictly and validated with the file's zod schema; a problem is reported with
//   file:line:column (jsonDiagnostics), and an invalid file is never overwritten;
// - change: read-modify-write under the file's lock (fileLock: one process at a time, one store
//   instance at a time), re-reading the file under the lock, so a change made meanwhile by another
//   process (or by hand) is kept;
// - write: validated first, then atomic (write-file-atomic: temp file, fsync, rename), mode 0600;
// - watch: every content change by anyone, parsed (fileWatch);
// - readIfChanged: for a copy kept in memory on the tool-call path (remembered approvals, the new-tool
//   quarantine), one stat tells whether anyone changed the file since this store last read or wrote it,
//   so a change made by another process applies at its next lookup, not at its next write.
import type { z } from 'zod';
import { MooringError } from '../errors';
import {
  fileStamp,
  fileStampSync,
  readTextIfExists,
  readTextIfExistsSync,
  writeJsonAtomic,
  type FileStamp,
} from './atomicJson';
import { settled, withFileLock, type FileLockOptions } from './fileLock';
import { watchParsedFile, type FileWatch, type Parsed } from './fileWatch';
import { ConfigInvalidError, issuesWithoutFile, parseAndValidate } from './jsonDiagnostics';

/** What one kind of file holds and how it is shown to the user when it is wrong. */
export interface JsonFileFormat<T, In = T> {
  /** Validates what is read and what is about to be written. */
  schema: z.ZodType<T, In>;
  /** The value of a missing (or whitespace-only) file. */
  empty: () => T;
  /** What to do about an invalid file, shown after its issues: it names the file and says Mooring left it alone. */
  fileHint: (file: string) => string;
  /** What to do about an invalid change, e.g. "Correct the settings named above and try again." */
  changeHint: string;
  /** Text → value with diagnostics of its own (the servers file adds duplicate names); default: the schema. */
  parse?: (text: string, file: string) => T;
  /** The value as written (the servers file leaves defaults out); default: the value itself. */
  toDisk?: (value: T) => unknown;
}

export interface JsonFileStoreOptions<T, In> {
  file: string;
  format: JsonFileFormat<T, In>;
  /** Debounce of `watch`, default 100 ms. */
  watchDebounceMs?: number;
  lock?: FileLockOptions;
}

export type { Parsed };

export class JsonFileStore<T, In = T> {
  readonly file: string;
  private readonly format: JsonFileFormat<T, In>;
  private readonly debounceMs: number;
  private readonly lockOptions: FileLockOptions;
  private readonly watches = new Set<FileWatch>();
  /** The file as this store last read or wrote it (undefined: not yet), for `readIfChanged`. */
  private seen: FileStamp | undefined;

  constructor(opts: JsonFileStoreOptions<T, In>) {
    this.file = opts.file;
    this.format = opts.format;
    this.debounceMs = opts.watchDebounceMs ?? 100;
    this.lockOptions = opts.lock ?? {};
  }

  /** The file's current content; a missing file is `empty()`. Throws `config_invalid` listing every issue. */
  async read(): Promise<T> {
    // Stamped before reading: the text read is at least as new as the stamp kept.
    const stamp = await fileStamp(this.file).catch(() => undefined);
    const text = await this.readText();
    this.seen = stamp;
    return this.parse(text);
  }

  /**
   * The file's content when it changed on disk since this store last read or wrote it (by another
   * process, or by hand), else undefined. One `stat` when nothing changed; synchronous, so a lookup on
   * the tool-call path can call it without a promise. A changed file that is invalid throws
   * `config_invalid` once; the same invalid content is not reported again.
   */
  readIfChanged(): T | undefined {
    let stamp: FileStamp;
    try {
      stamp = fileStampSync(this.file);
    } catch {
      return undefined; // unreadable folder: the next read or change reports it
    }
    if (stamp === this.seen) return undefined;
    let text: string | null;
    try {
      text = readTextIfExistsSync(this.file);
    } catch (err) {
      this.seen = stamp;
      throw new MooringError(
        'config_invalid',
        `${this.file}: cannot be read (${(err as Error).message})`,
        'Check that the path is a readable file, or set MOORING_HOME to another directory.',
        { cause: err },
      );
    }
    this.seen = stamp;
    return this.parse(text);
  }

  private async readText(): Promise<string | null> {
    try {
      return await readTextIfExists(this.file);
    } catch (err) {
      throw new MooringError(
        'config_invalid',
        `${this.file}: cannot be read (${(err as Error).message})`,
        'Check that the path is a readable file, or set MOORING_HOME to another directory.',
        { cause: err },
      );
    }
  }

  /** Parses text as this file's content (null = missing). Throws `config_invalid` with file:line:column. */
  parse(text: string | null): T {
    if (text === null || text.trim() === '') return this.format.empty();
    if (this.format.parse) return this.format.parse(text, this.file);
    return parseAndValidate(text, this.format.schema, {
      fileName: this.file,
      hint: this.format.fileHint(this.file),
    });
  }

  /** Validates a value about to be written; throws `config_invalid` naming every wrong field. */
  validate(value: In): T {
    const result = this.format.schema.safeParse(value);
    if (!result.success)
      throw new ConfigInvalidError(
        issuesWithoutFile(result.error.issues),
        `Nothing was written. ${this.format.changeHint}`,
      );
    return result.data;
  }

  /**
   * Applies `change` to the file's content as it is on disk now and writes the result, all or nothing:
   * under the file's lock, after every other change from any process. If the file is invalid, or
   * `change` throws, or its result is invalid, nothing is written. A result equal to the file's content
   * is not written again (a hand-formatted file keeps its formatting). Returns the content as it is now. `change` must not change this file itself.
   */
  update(change: (current: T) => In | Promise<In>): Promise<T> {
    return withFileLock(
      this.file,
      async (lock) => {
        const text = await this.readText();
        const current = this.parse(text);
        const next = this.validate(await change(structuredClone(current)));
        if (text === null || this.textOf(next) !== this.textOf(current)) {
          lock.assertHeld();
          await writeJsonAtomic(this.file, this.toDisk(next));
        }
        // Still under the lock: no other Mooring process has written since, so this stamp is `next`'s.
        this.seen = await fileStamp(this.file).catch(() => undefined);
        return next;
      },
      this.lockOptions,
    );
  }

  /**
   * Calls `onChange` whenever the file's content changes (by anyone, this store included): with the
   * parsed value, or with the error when the file became invalid. Returns an unsubscribe.
   */
  async watch(onChange: (change: Parsed<T>) => void): Promise<() => void> {
    const w = await watchParsedFile({
      file: this.file,
      debounceMs: this.debounceMs,
      parse: (text) => this.parse(text),
      onChange,
    });
    this.watches.add(w);
    return () => {
      w.close();
      this.watches.delete(w);
    };
  }

  /** Stops every watch and waits for the changes queued in this process. */
  async close(): Promise<void> {
    for (const w of this.watches) w.close();
    this.watches.clear();
    await settled(this.file);
  }

  private toDisk(value: T): unknown {
    return this.format.toDisk ? this.format.toDisk(value) : value;
  }

  private textOf(value: T): string {
    return JSON.stringify(this.toDisk(value));
  }
}
