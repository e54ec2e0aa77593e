// The chat's models (ARCHITECTURE.md, "The core as one object"): the default model, the model of each
// conversation (chat-preferences.json, agent/chatPreferences.ts), Settings > Models (its providers' base
// URLs are the settings service's to write), whether the default model answers, and the model that
// answers server-initiated sampling: the latest turn's, else the default.
import { DEFAULT_PROVIDER_URLS, SUGGESTED_MODELS, type ProviderId } from '@shared/providers';
import type { Settings } from '@shared/settings';
import type { ProviderView } from '@shared/wire';
import type { SamplingComplete } from '../clientFeatures/sampling';
import type { SettingsService } from '../config/settingsService';
import { toErrorData } from '../errors';
import type { ChatPreferencesFile } from './chatPreferences';
import type { KeyStorage, ProviderAccess, ProviderCheck } from './providerAccess';
import { parseModelSpec } from './providers/resolveProvider';
import { providerCompletion } from './samplingCompletion';

export interface ChatModelsDeps {
  prefs: ChatPreferencesFile;
  providers: ProviderAccess;
  settings: SettingsService;
  /** The model that answers server-initiated sampling (after the user approves each request). */
  setSamplingModel: (complete: SamplingComplete) => void;
  env: () => NodeJS.ProcessEnv;
}

/** Settings > Models as the screen shows it. */
export interface ModelsView {
  defaultModel: string;
  /** Whether a person chose the default model (else it is a fresh home's suggestion: the setup opens). */
  chosen: boolean;
  providers: ProviderView[];
  keychain: { ok: true } | { ok: false; reason: string };
  /** The plain-text key file offered when there is no keychain (null: this host has none). */
  keyFile: string | null;
  /** Whether conversations are named by their model (conversationTitles.ts). */
  titlesFromModel: boolean;
  /** What the person set a model takes, by `provider:model` (over the provider's list and the table). */
  modelCapabilities: Settings['modelCapabilities'];
  /** The models a new conversation starts in code mode with (docs/code-mode.md). */
  codeModeModels: string[];
}

/** Whether the default model answers (models.status). */
export interface ModelStatus {
  model: string;
  check: ProviderCheck;
  /** Whether the provider's list names the model; null when the list is empty or not read. */
  listed: boolean | null;
  /** No model was chosen and the suggested one does not answer: the chat leads to the setup. */
  needsSetup: boolean;
}

export class ChatModels {
  /** The model of the latest turn: it also answers server-initiated sampling (after approval). */
  private samplingSpec?: string;

  constructor(private readonly deps: ChatModelsDeps) {
    deps.setSamplingModel(async (req, ctx) => {
      const spec = this.samplingSpec ?? (await this.defaultModel());
      const { provider, model } = await deps.providers.providerFor(spec);
      return providerCompletion(provider, model)(req, ctx);
    });
  }

  /**
   * Whether a person chose the model: a saved default, MOORING_MODEL, or providers set in settings.json.
   * Otherwise the default is only the suggestion of a fresh home, and the chat leads to the setup.
   */
  private async chosen(): Promise<boolean> {
    if ((await this.deps.prefs.get()).defaultModel || this.deps.env().MOORING_MODEL) return true;
    const p = this.deps.settings.current().providers;
    return (
      p.default !== 'ollama' ||
      p.ollama.baseUrl !== DEFAULT_PROVIDER_URLS.ollama ||
      Boolean(p.openai.baseUrl || p.anthropic.baseUrl)
    );
  }

  /** Saved default, else MOORING_MODEL, else the default provider's suggested model. */
  async defaultModel(): Promise<string> {
    const saved = (await this.deps.prefs.get()).defaultModel;
    if (saved) return saved;
    const fromEnv = this.deps.env().MOORING_MODEL;
    if (fromEnv) return fromEnv;
    const provider = this.deps.settings.current().providers.default;
    return `${provider}:${SUGGESTED_MODELS[provider]}`;
  }

  /** The conversation's model, else the default. */
  async modelOf(conversationId: string | undefined): Promise<string> {
    const prefs = await this.deps.prefs.get();
    return (conversationId && prefs.conversationModels[conversationId]) || (await this.defaultModel());
  }

  /** Whether the conversation has a model of its own (picked, or of its last turn). */
  async hasOwnModel(conversationId: string): Promise<boolean> {
    return Boolean((await this.deps.prefs.get()).conversationModels[conversationId]);
  }

  async setModel(conversationId: string, spec: string): Promise<void> {
    parseModelSpec(spec);
    await this.deps.prefs.update((p) => ({
      ...p,
      conversationModels: { ...p.conversationModels, [conversationId]: spec },
    }));
  }

  /** A deleted conversation's model and code mode are forgotten. */
  async forget(conversationId: string): Promise<void> {
    await this.deps.prefs.update((p) => {
      const { [conversationId]: _gone, ...rest } = p.conversationModels;
      return { ...p, conversationModels: rest, codeMode: p.codeMode.filter((c) => c !== conversationId) };
    });
  }

  /** Whether the conversation runs in code mode (docs/code-mode.md): off unless switched on. */
  async codeModeOf(conversationId: string | undefined): Promise<boolean> {
    return Boolean(conversationId && (await this.deps.prefs.get()).codeMode.includes(conversationId));
  }

  /** The models a new conversation starts in code mode with (Settings > Models). */
  codeModeModels(): string[] {
    return this.deps.settings.current().codeModeModels;
  }

  startsInCodeMode(spec: string): boolean {
    return this.codeModeModels().includes(spec);
  }

  async setCodeMode(conversationId: string, on: boolean): Promise<void> {
    await this.deps.prefs.update((p) => {
      const others = p.codeMode.filter((c) => c !== conversationId);
      return { ...p, codeMode: on ? [...others, conversationId] : others };
    });
  }

  /** The latest turn's model answers sampling from now on. */
  answerSampling(spec: string): void {
    this.samplingSpec = spec;
  }

  /** `mooring chat`: its model answers sampling for the rest of the process. */
  answerSamplingWith(complete: SamplingComplete): void {
    this.deps.setSamplingModel(complete);
  }

  /** Settings > Models: the default model, each provider, and whether a keychain holds keys. */
  async view(): Promise<ModelsView> {
    const [defaultModel, chosen, providers, keychain] = await Promise.all([
      this.defaultModel(),
      this.chosen(),
      this.deps.providers.views(),
      this.deps.providers.keychain(),
    ]);
    return {
      defaultModel,
      chosen,
      providers,
      keychain,
      keyFile: this.deps.providers.keyFilePath(),
      titlesFromModel: this.deps.settings.current().titlesFromModel,
      modelCapabilities: this.deps.settings.current().modelCapabilities,
      codeModeModels: this.deps.settings.current().codeModeModels,
    };
  }

  /**
   * Saves the default model (chat-preferences.json), and the providers' base URLs and whether the model
   * names conversations (settings.json, through the settings service); nothing is written if either is bad.
   */
  async save(input: {
    /** Absent: the default model stays (the setup above the form sets it, setUp). */
    defaultModel?: string;
    baseUrls: Partial<Record<ProviderId, string | null>>;
    titlesFromModel?: boolean;
    modelCapabilities?: Settings['modelCapabilities'];
    codeModeModels?: string[];
  }): Promise<void> {
    const provider = input.defaultModel
      ? parseModelSpec(input.defaultModel).provider
      : this.deps.settings.current().providers.default;
    await this.deps.settings.setProviders({
      defaultProvider: provider,
      baseUrls: input.baseUrls,
      ...(input.titlesFromModel !== undefined ? { titlesFromModel: input.titlesFromModel } : {}),
      ...(input.modelCapabilities ? { modelCapabilities: input.modelCapabilities } : {}),
      ...(input.codeModeModels ? { codeModeModels: input.codeModeModels } : {}),
    });
    const chosen = input.defaultModel;
    if (chosen) await this.deps.prefs.update((p) => ({ ...p, defaultModel: chosen }));
  }

  /**
   * The model setup's last step (Settings > Models, "Set up a model"): the key where the person chose
   * (the keychain unless they picked otherwise), the provider's base URL (the others' stay), and the model
   * picked from what the provider listed as the default. Nothing is written if the spec is not a model.
   */
  async setUp(input: {
    provider: ProviderId;
    /** Empty or null: the provider's default endpoint. */
    baseUrl: string | null;
    model: string;
    apiKey?: string;
    storage?: KeyStorage;
  }): Promise<{ defaultModel: string }> {
    const spec = `${input.provider}:${input.model.trim()}`;
    parseModelSpec(spec);
    if (input.apiKey?.trim())
      await this.deps.providers.setApiKey(input.provider, input.apiKey, input.storage);
    const p = this.deps.settings.current().providers;
    await this.deps.settings.setProviders({
      defaultProvider: input.provider,
      baseUrls: {
        ollama: p.ollama.baseUrl,
        openai: p.openai.baseUrl ?? null,
        anthropic: p.anthropic.baseUrl ?? null,
        [input.provider]: input.baseUrl?.trim() || null,
      },
    });
    await this.deps.prefs.update((prefs) => ({ ...prefs, defaultModel: spec }));
    return { defaultModel: spec };
  }

  /**
   * Whether the default model's provider answers and lists it: the chat's empty state points to Settings
   * when not, and to the model setup while no model was chosen (`needsSetup`).
   */
  async status(): Promise<ModelStatus> {
    const [model, chosen] = await Promise.all([this.defaultModel(), this.chosen()]);
    let spec: { provider: ProviderId; model: string };
    try {
      spec = parseModelSpec(model);
    } catch (err) {
      return { model, check: { ok: false, error: toErrorData(err) }, listed: null, needsSetup: !chosen };
    }
    const check = await this.deps.providers.check(spec.provider, 4_000);
    // Ollama names a model's default tag `:latest`; an empty list says nothing.
    const listed =
      check.ok && check.models.length
        ? check.models.some((m) => m === spec.model || m === `${spec.model}:latest`)
        : null;
    return { model, check, listed, needsSetup: !chosen && (!check.ok || listed === false) };
  }
}
