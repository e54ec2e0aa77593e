// The one appender of the home's append-only logs (docs/data-on-disk.md, "Data on disk"): the audit log,
// conversations and memory. One JSON record per line, and:
// - group commit: records that arrive while a write is in flight go out together in the next single
//   write, and each caller waits for its own record to be on disk (the audit log is on the tool-call path);
// - fsync'd: a record whose append resolved survives a crash or a power cut. The audit log, which is on
//   the tool-call path, waits only until its record is written (`wait: 'written'`): then it is in the
//   kernel's hands and survives this process being killed; the fsync follows in the background, off the
//   call's path, and `close` waits for it (a clean exit has every record on disk);
// - one write per tick for 'written' records: the first of a tick is written in place, at once; those
//   that follow in the same tick (calls whose answers arrived together) go out together in one write at
//   the end of the tick, and each caller's promise resolves once its record is written;
// - one open handle per file in this process, shared by every store on it and closed when idle;
// - several processes at once: the handle is O_APPEND, so each write lands whole at the end of the file,
//   never inside another process's line;
// - crash-safe: a crash mid-write can leave a torn last line, which readers skip; the next write starts
//   on a fresh line first, so the fragment never swallows a record (a spare newline is harmless).
import { constants, fstatSync, readSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ensurePrivateDir } from './atomicJson';

export interface AppenderOptions {
  /**
   * Append only to a file that exists (a conversation is created with its header first): a missing or
   * deleted file fails with ENOENT instead of being created headless. Default false: created 0600.
   */
  mustExist?: boolean;
  /** Close the handle after this long without writes. Default 10 s. */
  idleCloseMs?: number;
}

export interface AppendOptions {
  /**
   * 'synced' (the default): resolve once the record is written and fsync'd. 'written': once it is written
   * (it survives this process being killed, not yet a power cut); the fsync follows in the background.
   */
  wait?: 'synced' | 'written';
}

interface Pending {
  text: string;
  synced: boolean;
  resolve: () => void;
  reject: (err: Error) => void;
}

const isPosix = process.platform !== 'win32';
/**
 * How long the background fsync of 'written' records waits to gather more (a power cut may lose the
 * records of this window; a killed process loses none, they are written).
 */
const SYNC_DELAY_MS = 50;

export class JsonlAppender {
  readonly file: string;
  private readonly opts: AppenderOptions;
  private handle: FileHandle | undefined;
  private pending: Pending[] = [];
  private batchQueued = false;
  /** Every operation on the handle (a batch, a close) runs in this order, one at a time. */
  private tail: Promise<void> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | undefined;
  /** The background fsync of records that did not wait for it, and whether another round is due. */
  private syncing: Promise<void> | undefined;
  private syncAgain = false;
  /** Ends the gathering delay of the background fsync at once (a close does not wait it out). */
  private wakeSync: (() => void) | undefined;
  /** A batch is being written: a 'written' record joins the queue behind it, keeping the order. */
  private writing = false;
  /** Where this appender's last write ended, when it knows (the torn-line check reads nothing then). */
  private end = -1;
  private lastWrite = 0;
  /** A 'written' record was written in place this tick: the next ones join `tick` (see appendLineSoon). */
  private tickOpen = false;
  /** The 'written' records after the first of this tick, written together when the tick ends. */
  private tick:
    { text: string; done: Promise<void>; resolve: () => void; reject: (err: Error) => void } | undefined;

  constructor(file: string, opts: AppenderOptions = {}) {
    this.file = file;
    this.opts = opts;
  }

  /** Appends one record as one JSON line; resolves once it is written and fsync'd (see `wait`). */
  append(record: unknown, opts?: AppendOptions): Promise<void> {
    // JSON.stringify escapes every newline inside strings, so a record is always exactly one line.
    return this.appendLine(`${JSON.stringify(record)}\n`, opts);
  }

  /** Appends text that is already one JSON line ending in a newline (a caller that built it itself). */
  appendLine(text: string, opts?: AppendOptions): Promise<void> {
    const synced = opts?.wait !== 'written';
    if (!synced) {
      try {
        const soon = this.appendLineSoon(text);
        if (soon) return soon === true ? WRITTEN : soon;
      } catch (err) {
        return Promise.reject(err as Error);
      }
    }
    // Records of this tick still waiting for their write go first: lines keep the order of the appends.
    this.endTick();
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ text, synced, resolve, reject });
      if (this.batchQueued) return;
      this.batchQueued = true;
      this.tail = this.tail.then(() => this.writeBatch());
    });
  }

  /**
   * The common case of 'written', with a promise only when one is needed. When the file is open and
   * nothing is queued: the tick's first line goes out now, in place, before the caller goes on (one fstat
   * and one write, a few microseconds; the thread pool's round trips cost a tool call more than the write
   * itself), and this returns true; a line that follows in the same tick joins the tick's one write at its
   * end, and this returns the promise of that write. False: nothing was written or queued, use
   * `appendLine`. Throws when an in-place write fails (the handle is closed then).
   */
  appendLineSoon(text: string): true | Promise<void> | false {
    if (!this.handle || this.batchQueued || this.writing) return false;
    if (this.tickOpen) {
      if (this.tick) {
        this.tick.text += text;
        return this.tick.done;
      }
      let resolve!: () => void;
      let reject!: (err: Error) => void;
      const done = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      this.tick = { text, done, resolve, reject };
      return done;
    }
    try {
      if (!this.writeNow(this.handle, text)) return false;
    } catch (err) {
      void this.closeHandle();
      throw err;
    }
    this.tickOpen = true;
    process.nextTick(this.endTick);
    return true;
  }

  /**
   * The tick's end: its records after the first go out in one write (or, when the file went away
   * meanwhile, through the queue that reopens it). Called early by anything that must come after them.
   */
  private readonly endTick = (): void => {
    this.tickOpen = false;
    const tick = this.tick;
    if (!tick) return;
    this.tick = undefined;
    try {
      if (this.handle && this.writeNow(this.handle, tick.text)) return tick.resolve();
    } catch (err) {
      void this.closeHandle();
      return tick.reject(err as Error);
    }
    this.pending.unshift({ text: tick.text, synced: false, resolve: tick.resolve, reject: tick.reject });
    if (this.batchQueued) return;
    this.batchQueued = true;
    this.tail = this.tail.then(() => this.writeBatch());
  };

  /** Waits for every append so far and its fsync, then closes the handle (the next append opens it again). */
  close(): Promise<void> {
    this.endTick();
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.tail = this.tail.then(async () => {
      this.wakeSync?.();
      await this.syncing;
      await this.closeHandle();
    });
    return this.tail;
  }

  /**
   * Writes one line now, on an open handle; false when the file was deleted or replaced since it was
   * opened (the queued path reopens it).
   */
  private writeNow(fh: FileHandle, text: string): boolean {
    const st = fstatSync(fh.fd);
    if (st.nlink === 0) return false;
    // A size other than where this appender's last write ended: someone else wrote, maybe a torn line.
    const line = st.size !== this.end && lastByteIsNotNewline(fh.fd, st.size) ? `\n${text}` : text;
    const buf = Buffer.from(line, 'utf8');
    let off = 0;
    while (off < buf.length) off += writeSync(fh.fd, buf, off);
    this.end = st.size + buf.length;
    this.syncSoon(fh);
    this.touch();
    return true;
  }

  private async writeBatch(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.batchQueued = false;
    this.writing = true;
    try {
      const fh = await this.openHandle();
      let text = '';
      for (const b of batch) text += b.text;
      const { size } = fstatSync(fh.fd);
      if (lastByteIsNotNewline(fh.fd, size)) text = `\n${text}`;
      const buf = Buffer.from(text, 'utf8');
      await writeAll(fh, buf);
      this.end = size + buf.length;
      if (batch.some((b) => b.synced)) await fh.datasync();
      else this.syncSoon(fh);
      for (const b of batch) b.resolve();
    } catch (err) {
      await this.closeHandle();
      for (const b of batch) b.reject(err as Error);
    }
    this.writing = false;
    this.touch();
  }

  /** Closes the handle after `idleCloseMs` without writes (one timer, not one per write). */
  private touch(): void {
    this.lastWrite = Date.now();
    if (this.idleTimer) return;
    const idle = this.opts.idleCloseMs ?? 10_000;
    const check = () => {
      const left = this.lastWrite + idle - Date.now();
      if (left > 0) {
        this.idleTimer = setTimeout(check, left).unref();
        return;
      }
      this.idleTimer = undefined;
      void this.close();
    };
    this.idleTimer = setTimeout(check, idle).unref();
  }

  /**
   * fsyncs what was written without waiting for it, one fsync at a time, alongside the next writes
   * (an fsync covers every write before it, so the writes made meanwhile need one more round, not one each).
   */
  private syncSoon(fh: FileHandle): void {
    if (this.syncing) {
      this.syncAgain = true;
      return;
    }
    this.syncing = (async () => {
      // A short wait first gathers the writes of the next moments into the same fsync: calls that each
      // wrote a line would otherwise each pay a journal commit of the disk, though none waits for it.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => this.wakeSync?.(), SYNC_DELAY_MS).unref();
        this.wakeSync = () => {
          clearTimeout(timer);
          this.wakeSync = undefined;
          resolve();
        };
      });
      do {
        // This fsync covers every write finished before it starts: only writes finished during it
        // need another round. A failure has no caller to tell: the records are written, and the next
        // close or synced append fsyncs again (or fails for its own caller).
        this.syncAgain = false;
        await fh.datasync().catch(() => undefined);
      } while (this.syncAgain && this.handle === fh);
      this.syncing = undefined;
    })();
  }

  /** The open handle, reopened when the file was deleted or replaced since (its inode has no name left). */
  private async openHandle(): Promise<FileHandle> {
    // fstat on an open handle is one syscall: done in place instead of a round trip through the thread pool.
    if (this.handle && fstatSync(this.handle.fd).nlink > 0) return this.handle;
    await this.closeHandle();
    if (!this.opts.mustExist) await ensurePrivateDir(dirname(this.file));
    // Read access too: the last byte is checked for a torn line before each write.
    const flags = constants.O_RDWR | constants.O_APPEND | (this.opts.mustExist ? 0 : constants.O_CREAT);
    this.handle = await open(this.file, flags, isPosix ? 0o600 : undefined);
    return this.handle;
  }

  private async closeHandle(): Promise<void> {
    const h = this.handle;
    this.wakeSync?.();
    this.handle = undefined;
    this.end = -1;
    await this.syncing;
    await h?.close().catch(() => undefined);
  }
}

const WRITTEN = Promise.resolve();

/** Whether a file of `size` bytes ends inside a line (a torn write): a one-byte read in place. */
function lastByteIsNotNewline(fd: number, size: number): boolean {
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}

async function writeAll(fh: FileHandle, buf: Buffer): Promise<void> {
  let off = 0;
  while (off < buf.length) off += (await fh.write(buf, off)).bytesWritten;
}

// One appender per file in this process, whatever store asks for it.
const appenders = new Map<string, JsonlAppender>();

/** The process's appender for `file` (created with `opts` on first use). */
export function jsonlAppender(file: string, opts: AppenderOptions = {}): JsonlAppender {
  // Looked up as given first: the audit log asks once per tool call, and resolving the path costs more
  // than the rest of the lookup.
  const known = appenders.get(file);
  if (known) return known;
  const key = resolve(file);
  let a = appenders.get(key);
  if (!a) {
    a = new JsonlAppender(key, opts);
    appenders.set(key, a);
  }
  if (file !== key) appenders.set(file, a);
  return a;
}

/** Closes the file's appender, if any, after its pending appends (before the file is deleted). */
export async function closeJsonlAppender(file: string): Promise<void> {
  const a = appenders.get(resolve(file));
  // Every name it was asked by (as given, resolved) goes with it.
  for (const [name, known] of appenders) if (known === a) appenders.delete(name);
  await a?.close();
}
