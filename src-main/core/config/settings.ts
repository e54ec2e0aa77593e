// settings.json: app settings (issue 2 "Config and home"), with the same rules as mcp_servers.json:
// validated with file:line:column on load, never overwritten while invalid, written atomically.
import { SettingsSchema, type Settings, type SettingsInput } from '@shared/settings';
import { MooringError } from '../errors';
import { homePaths } from '../home';
import { readTextIfExists, writeJsonAtomic } from './atomicJson';
import { watchParsedFile, type FileWatch } from './fileWatch';
import { ConfigInvalidError, issuesWithoutFile, parseAndValidate } from './jsonDiagnostics';

export const settingsFileHint = (file: string) =>
  `Fix ${file} by hand (Mooring has not changed it), or delete it to go back to the defaults.`;

/** Parses settings text; whitespace only = all defaults. */
export function parseSettingsText(text: string, fileName: string): Settings {
  if (text.trim() === '') return SettingsSchema.parse({});
  return parseAndValidate(text, SettingsSchema, { fileName, hint: settingsFileHint(fileName) });
}

/** Loads settings; a missing file gives the defaults. Throws `config_invalid` listing every issue. */
export async function loadSettings(file: string): Promise<Settings> {
  let text: string | null;
  try {
    text = await readTextIfExists(file);
  } catch (err) {
    throw new MooringError(
      'config_invalid',
      `${file}: cannot be read (${(err as Error).message})`,
      settingsFileHint(file),
      {
        cause: err,
      },
    );
  }
  return text === null ? SettingsSchema.parse({}) : parseSettingsText(text, file);
}

export function validateSettings(input: SettingsInput): Settings {
  const result = SettingsSchema.safeParse(input);
  if (!result.success)
    throw new ConfigInvalidError(
      issuesWithoutFile(result.error.issues),
      'Nothing was written. Correct the settings named above and try again.',
    );
  return result.data;
}

/** Validates, then writes atomically; refuses while the file on disk is invalid. */
export async function saveSettings(file: string, input: SettingsInput): Promise<Settings> {
  const settings = validateSettings(input);
  await loadSettings(file);
  await writeJsonAtomic(file, settings);
  return settings;
}

export type SettingsChange = { ok: true; settings: Settings } | { ok: false; error: MooringError };

/** Settings with serialised updates and a watch, like ServersStore. */
export class SettingsStore {
  readonly file: string;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly watches = new Set<FileWatch>();

  private readonly debounceMs: number;

  constructor(opts: { file: string; watchDebounceMs?: number }) {
    this.file = opts.file;
    this.debounceMs = opts.watchDebounceMs ?? 100;
  }

  static forHome(home: string): SettingsStore {
    return new SettingsStore({ file: homePaths(home).settings });
  }

  get(): Promise<Settings> {
    return loadSettings(this.file);
  }

  /** Applies `change` to the current settings and writes the result; nothing is written if it is invalid. */
  update(change: (current: Settings) => SettingsInput): Promise<Settings> {
    const run = this.queue.then(async () => {
      const next = validateSettings(change(structuredClone(await loadSettings(this.file))));
      await writeJsonAtomic(this.file, next);
      return next;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Calls `onChange` whenever the file's content changes; returns an unsubscribe. */
  async watch(onChange: (change: SettingsChange) => void): Promise<() => void> {
    const w = await watchParsedFile({
      file: this.file,
      debounceMs: this.debounceMs,
      parse: (text) => parseSettingsText(text ?? '', this.file),
      onChange: (c) => onChange(c.ok ? { ok: true, settings: c.value } : c),
    });
    this.watches.add(w);
    return () => {
      w.close();
      this.watches.delete(w);
    };
  }

  async close(): Promise<void> {
    for (const w of this.watches) w.close();
    this.watches.clear();
    await this.queue;
  }
}
