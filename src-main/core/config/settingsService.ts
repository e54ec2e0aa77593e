// The settings service: settings.json as the core holds it (one store per core, so its updates are
// serialised), the named tool sets inside it, and the change hooks the rooms built after it subscribe to
// (catalogs, log levels). The Settings screens, the tool-set panel and `mooring toolset` all change it here.
import { DEFAULT_PROVIDER_URLS, type ProviderId } from '@shared/providers';
import type { LogLevel, Settings, SettingsInput } from '@shared/settings';
import { toDisposable, type Disposable } from '../disposable';
import { MooringError } from '../errors';
import { withSetting } from './settingKeys';
import { SettingsStore } from './settings';

export interface ToolSetEntry {
  name: string;
  /** Model tool names (`mcp__server__tool`). */
  tools: string[];
}

export interface SettingsServiceOptions {
  file: string;
  /** The settings as loaded (loadSettings) when the core opened. */
  initial: Settings;
}

type ChangeHook = (settings: Settings) => Promise<void> | void;

export class SettingsService implements Disposable {
  private readonly store: SettingsStore;
  private settings: Settings;
  private readonly hooks = new Set<ChangeHook>();

  constructor(private readonly opts: SettingsServiceOptions) {
    this.store = new SettingsStore({ file: opts.file });
    this.settings = opts.initial;
  }

  /**
   * Runs `hook` after every change this service makes or reloads; a change resolves once every hook has.
   * Disposing the result removes it.
   */
  onChange(hook: ChangeHook): Disposable {
    const entry: ChangeHook = (s) => hook(s);
    this.hooks.add(entry);
    return toDisposable(() => void this.hooks.delete(entry));
  }

  private async changed(): Promise<void> {
    await Promise.all([...this.hooks].map((h) => h(this.settings)));
  }

  /** The settings as of the last load or change. */
  current(): Settings {
    return this.settings;
  }

  /** Reads the file again (it may have been edited by hand or by another process). */
  async reload(): Promise<Settings> {
    this.settings = await this.store.get();
    await this.changed();
    return this.settings;
  }

  /** Applies `change` to the file's current settings; nothing is written when the result is invalid. */
  async update(change: (current: Settings) => SettingsInput): Promise<Settings> {
    this.settings = await this.store.update(change);
    await this.changed();
    return this.settings;
  }

  /** One setting by key (config/settingKeys.ts); `undefined` puts it back to its default. */
  async set(key: string, value: unknown): Promise<Settings> {
    return this.update((current) => withSetting(current, key, value));
  }

  /**
   * The level every server logs at unless its config names its own (MCP 2025-11-25 "Logging"); the change
   * hook sends it to the running sessions.
   */
  async setLogLevel(logLevel: LogLevel): Promise<Settings> {
    return this.update((current) => ({ ...current, logLevel }));
  }

  /**
   * Settings > Models: the default provider, each provider's base URL (empty: the provider's default) and,
   * when given, whether the model names conversations. Validated by the settings schema; nothing is
   * written if bad.
   */
  async setProviders(input: {
    defaultProvider: ProviderId;
    baseUrls: Partial<Record<ProviderId, string | null>>;
    titlesFromModel?: boolean;
    modelCapabilities?: Settings['modelCapabilities'];
    codeModeModels?: string[];
  }): Promise<Settings> {
    const openai = emptyToUndefined(input.baseUrls.openai);
    const anthropic = emptyToUndefined(input.baseUrls.anthropic);
    return this.update((current) => ({
      ...current,
      ...(input.titlesFromModel !== undefined ? { titlesFromModel: input.titlesFromModel } : {}),
      ...(input.modelCapabilities ? { modelCapabilities: input.modelCapabilities } : {}),
      ...(input.codeModeModels ? { codeModeModels: input.codeModeModels } : {}),
      providers: {
        default: input.defaultProvider,
        ollama: { baseUrl: emptyToUndefined(input.baseUrls.ollama) ?? DEFAULT_PROVIDER_URLS.ollama },
        openai: openai ? { baseUrl: openai } : {},
        anthropic: anthropic ? { baseUrl: anthropic } : {},
      },
    }));
  }

  /** A named tool set; an unknown name is a clear error listing the ones there are. */
  toolSet(name: string): ToolSetEntry {
    const set = this.settings.toolSets.find((t) => t.name === name);
    if (!set) throw noToolSet(name, this.settings.toolSets);
    return set;
  }

  toolSets(): ToolSetEntry[] {
    return this.settings.toolSets;
  }

  /** Creates or replaces a tool set; every tool must be a model tool name. */
  async saveToolSet(set: ToolSetEntry): Promise<ToolSetEntry[]> {
    const bad = set.tools.filter((t) => !t.startsWith('mcp__'));
    if (bad.length)
      throw new MooringError(
        'usage',
        `Not model tool names: ${bad.join(', ')}`,
        'Use the names `mooring mcp tools` prints, like mcp__files__read_text_file.',
      );
    const saved = await this.update((s) => ({
      ...s,
      toolSets: [...s.toolSets.filter((t) => t.name !== set.name), { name: set.name, tools: set.tools }],
    }));
    return saved.toolSets;
  }

  /** Removes a tool set; an unknown name is `not_found`, naming the sets there are. */
  async removeToolSet(name: string): Promise<ToolSetEntry[]> {
    const saved = await this.update((s) => {
      if (!s.toolSets.some((t) => t.name === name)) throw noToolSet(name, s.toolSets);
      return { ...s, toolSets: s.toolSets.filter((t) => t.name !== name) };
    });
    return saved.toolSets;
  }

  async dispose(): Promise<void> {
    this.hooks.clear();
    await this.store.close();
  }
}

const emptyToUndefined = (v: string | null | undefined) => (v && v.trim() ? v.trim() : undefined);

function noToolSet(name: string, sets: readonly ToolSetEntry[]): MooringError {
  const names = sets.map((t) => `"${t.name}"`).join(', ');
  return new MooringError(
    'not_found',
    `There is no tool set named "${name}"`,
    names ? `Tool sets: ${names}.` : 'Create one: mooring toolset add NAME mcp__server__tool …',
  );
}
