// Notices edits of one file made by anyone (an editor, the CLI, another Mooring window).
// Watches the directory, not the file: an atomic save renames a new file over the old one, which
// ends a watch on the old inode. Events come in bursts, so they are debounced.
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { MooringError } from '../errors';
import { ensurePrivateDir, readTextIfExists } from './atomicJson';

export interface FileWatchOptions {
  file: string;
  debounceMs?: number;
  /** Called with the new text (null when the file was deleted) whenever the content changed. */
  onText: (text: string | null) => void;
  onError?: (err: Error) => void;
  /** The content already known, so the first event for an unchanged file emits nothing. */
  initialText?: string | null;
}

export interface FileWatch {
  close(): void;
}

export function watchFile(opts: FileWatchOptions): FileWatch {
  const name = basename(opts.file);
  const debounceMs = opts.debounceMs ?? 100;
  let last: string | null | undefined = opts.initialText;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let reading: Promise<void> = Promise.resolve();

  const check = () => {
    // One read at a time, in order, so an older read never emits after a newer one.
    reading = reading.then(async () => {
      if (closed) return;
      try {
        const text = await readTextIfExists(opts.file);
        if (closed || text === last) return;
        last = text;
        opts.onText(text);
      } catch (err) {
        opts.onError?.(err as Error);
      }
    });
  };

  const watcher: FSWatcher = watch(dirname(opts.file), { persistent: false }, (_event, filename) => {
    // Some platforms do not report the name; then any event in the directory counts.
    if (filename && filename.toString() !== name) return;
    clearTimeout(timer);
    timer = setTimeout(check, debounceMs);
  });
  watcher.on('error', (err) => opts.onError?.(err));

  return {
    close() {
      closed = true;
      clearTimeout(timer);
      watcher.close();
    },
  };
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: MooringError };

/**
 * Watches a config file and parses every new content: `onChange` gets the parsed value, or the error
 * (never a throw) when the file became invalid. Creates the directory first, so the watch can start
 * before the file exists. The caller closes the returned watch.
 */
export async function watchParsedFile<T>(opts: {
  file: string;
  debounceMs?: number;
  parse: (text: string | null) => T;
  onChange: (change: Parsed<T>) => void;
}): Promise<FileWatch> {
  await ensurePrivateDir(dirname(opts.file));
  const initialText = await readTextIfExists(opts.file).catch(() => null);
  const asError = (err: unknown) =>
    err instanceof MooringError
      ? err
      : new MooringError('internal', (err as Error).message, undefined, { cause: err });
  return watchFile({
    file: opts.file,
    ...(opts.debounceMs !== undefined ? { debounceMs: opts.debounceMs } : {}),
    initialText,
    onText: (text) => {
      let value: T;
      try {
        value = opts.parse(text);
      } catch (err) {
        opts.onChange({ ok: false, error: asError(err) });
        return;
      }
      opts.onChange({ ok: true, value });
    },
    onError: (err) => opts.onChange({ ok: false, error: asError(err) }),
  });
}
