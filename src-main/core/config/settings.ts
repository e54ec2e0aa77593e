// settings.json: app settings (docs/data-on-disk.md, "Data on disk"), with the same rules as every JSON file
// in the home (jsonFileStore): validated with file:line:column on load, never overwritten while invalid,
// changed under the file's lock so the app, the CLI and `mooring serve` never lose each other's changes.
import { SettingsSchema, type Settings, type SettingsInput } from '@shared/settings';
import type { MooringError } from '../errors';
import { homePaths } from '../home';
import { JsonFileStore, type JsonFileFormat } from './jsonFileStore';

export const settingsFileHint = (file: string) =>
  `Fix ${file} by hand (Mooring has not changed it), or delete it to go back to the defaults.`;

export const settingsFormat: JsonFileFormat<Settings, SettingsInput> = {
  schema: SettingsSchema,
  empty: () => SettingsSchema.parse({}),
  fileHint: settingsFileHint,
  changeHint: 'Correct the settings named above and try again.',
};

/** Loads settings; a missing file gives the defaults. Throws `config_invalid` listing every issue. */
export function loadSettings(file: string): Promise<Settings> {
  return new SettingsStore({ file }).get();
}

/** Validates, then writes atomically under the file's lock; refuses while the file on disk is invalid. */
export function saveSettings(file: string, input: SettingsInput): Promise<Settings> {
  return new SettingsStore({ file }).update(() => input);
}

export type SettingsChange = { ok: true; settings: Settings } | { ok: false; error: MooringError };

/**
 * settings.json as a typed store. Instances are cheap and may be many: every change to one file is
 * serialised by the file's lock, whichever instance or process makes it.
 */
export class SettingsStore {
  private readonly store: JsonFileStore<Settings, SettingsInput>;

  constructor(opts: { file: string; watchDebounceMs?: number }) {
    this.store = new JsonFileStore({
      file: opts.file,
      format: settingsFormat,
      ...(opts.watchDebounceMs !== undefined ? { watchDebounceMs: opts.watchDebounceMs } : {}),
    });
  }

  static forHome(home: string): SettingsStore {
    return new SettingsStore({ file: homePaths(home).settings });
  }

  get file(): string {
    return this.store.file;
  }

  get(): Promise<Settings> {
    return this.store.read();
  }

  /** Applies `change` to the settings on disk now and writes the result; nothing is written if it is invalid. */
  update(change: (current: Settings) => SettingsInput | Promise<SettingsInput>): Promise<Settings> {
    return this.store.update(change);
  }

  /** Calls `onChange` whenever the file's content changes; returns an unsubscribe. */
  watch(onChange: (change: SettingsChange) => void): Promise<() => void> {
    return this.store.watch((c) => onChange(c.ok ? { ok: true, settings: c.value } : c));
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
