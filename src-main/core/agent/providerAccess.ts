// Provider endpoints and keys (ARCHITECTURE.md, `agent/`): base URLs from settings.json, API keys from
// the keychain (account `provider/<id>/apiKey`, never in a file), the environment as the fallback
// (resolveProvider). Also what Settings > Models shows and its Check: can we reach it, which models.
import {
  DEFAULT_PROVIDER_URLS,
  PROVIDER_IDS,
  PROVIDER_KEY_ENV,
  SUGGESTED_MODELS,
  type ProviderId,
} from '@shared/providers';
import type { ErrorData } from '@shared/errors';
import type { Settings } from '@shared/settings';
import type { ProviderModels, ProviderView } from '@shared/wire';
import { MooringError, toErrorData } from '../errors';
import type { SecretStore } from '../secrets/secretStore';
import { envRefName, type KeyEntry, type ProviderKeyFile } from './providerKeyFile';
import { resolveProvider, type AgentProviderSettings } from './providers/resolveProvider';
import type { CapabilityOverrides } from './providers/modelCapabilities';
import type { ChatProvider, ListedModel } from './providers/types';

export const apiKeyAccount = (provider: ProviderId) => `provider/${provider}/apiKey`;

/** The environment variables that fill an empty base URL (the key's are PROVIDER_KEY_ENV). */
const ENV_URL: Record<ProviderId, string> = {
  ollama: 'MOORING_OLLAMA_URL',
  openai: 'MOORING_OPENAI_BASE_URL',
  anthropic: 'MOORING_ANTHROPIC_BASE_URL',
};

export type ProviderCheck = { ok: true; models: string[] } | { ok: false; error: ErrorData };

/** Where a key typed in Settings > Models goes: the keychain, or by explicit choice providerKeyFile.ts. */
export type KeyStorage = 'keychain' | 'file' | 'envRef';

export interface ProviderAccessDeps {
  secrets: Pick<SecretStore, 'get' | 'set' | 'delete' | 'available'>;
  /** Keys (or environment references) kept outside a keychain, by the person's choice. */
  keyFile?: ProviderKeyFile;
  settings: () => Settings;
  env: () => NodeJS.ProcessEnv;
}

export class ProviderAccess {
  /**
   * What providers' model lists said each model takes (`provider:model` → images or not), learned at each
   * Check and model-picker listing of this process; settings.json's `modelCapabilities` wins over it.
   */
  private readonly listed = new Map<string, boolean>();

  constructor(private readonly deps: ProviderAccessDeps) {}

  private learn(provider: ProviderId, models: ListedModel[]): void {
    for (const m of models) if (m.vision !== undefined) this.listed.set(`${provider}:${m.name}`, m.vision);
  }

  /** The overrides of the built-in table: what the lists said, then the person's own choices. */
  private capabilityOverrides(): CapabilityOverrides {
    const out: CapabilityOverrides = {};
    for (const [spec, vision] of this.listed) out[spec] = { vision };
    for (const [spec, caps] of Object.entries(this.deps.settings().modelCapabilities))
      out[spec] = { ...out[spec], ...caps };
    return out;
  }

  /** The keychain's key, else the key file's (a key, or the variable it names); undefined when none. */
  async storedApiKey(provider: ProviderId): Promise<string | undefined> {
    if (provider === 'ollama') return undefined;
    const fromKeychain = await this.deps.secrets.get(apiKeyAccount(provider)).catch(() => null);
    if (fromKeychain) return fromKeychain;
    const entry = await this.keyEntry(provider);
    if (!entry) return undefined;
    return 'key' in entry ? entry.key : this.deps.env()[entry.envRef] || undefined;
  }

  private keyEntry(provider: ProviderId): Promise<KeyEntry | undefined> {
    return this.deps.keyFile?.get(provider).catch(() => undefined) ?? Promise.resolve(undefined);
  }

  /**
   * Stores a provider's API key where the person chose (an empty value removes it everywhere). One place
   * holds it at a time: storing it in one removes it from the other.
   */
  async setApiKey(
    provider: ProviderId,
    apiKey: string,
    storage: KeyStorage = 'keychain',
  ): Promise<{ keyStored: boolean }> {
    const key = apiKey.trim();
    const file = this.deps.keyFile;
    if (!key) {
      await this.deps.secrets.delete(apiKeyAccount(provider)).catch(() => undefined);
      await file?.set(provider, undefined);
      return { keyStored: false };
    }
    if (storage === 'keychain') {
      await this.deps.secrets.set(apiKeyAccount(provider), key);
      await file?.set(provider, undefined);
      return { keyStored: true };
    }
    if (!file) throw new MooringError('usage', 'This host keeps keys only in the keychain');
    await file.set(provider, storage === 'envRef' ? { envRef: envRefName(key) } : { key });
    await this.deps.secrets.delete(apiKeyAccount(provider)).catch(() => undefined);
    return { keyStored: true };
  }

  /** Settings endpoints that differ from the defaults plus keychain keys; the environment fills the rest. */
  async agentSettings(): Promise<AgentProviderSettings> {
    const p = this.deps.settings().providers;
    const [openaiKey, anthropicKey] = await Promise.all([
      this.storedApiKey('openai'),
      this.storedApiKey('anthropic'),
    ]);
    return {
      capabilityOverrides: this.capabilityOverrides(),
      ...(p.ollama.baseUrl !== DEFAULT_PROVIDER_URLS.ollama ? { ollama: { baseUrl: p.ollama.baseUrl } } : {}),
      openai: { ...(p.openai.baseUrl ? { baseUrl: p.openai.baseUrl } : {}), apiKey: openaiKey },
      anthropic: { ...(p.anthropic.baseUrl ? { baseUrl: p.anthropic.baseUrl } : {}), apiKey: anthropicKey },
    };
  }

  /** `provider:model` → a ready provider, with the saved endpoints and keys. */
  async providerFor(spec: string): Promise<{ provider: ChatProvider; model: string }> {
    return resolveProvider(spec, await this.agentSettings(), this.deps.env());
  }

  /**
   * Lists the provider's models within `timeoutMs`: the proof that the endpoint and the key work. `draft`
   * is what Settings > Models holds but has not saved (a base URL, empty for the default; a key typed but
   * not stored): Check tries those, so a person learns whether they work before saving them.
   */
  async check(
    provider: ProviderId,
    timeoutMs = 8_000,
    draft: { baseUrl?: string | null; apiKey?: string } = {},
  ): Promise<ProviderCheck> {
    try {
      const settings = withDraft(await this.agentSettings(), provider, draft);
      const { provider: p } = await resolveProvider(
        `${provider}:${SUGGESTED_MODELS[provider]}`,
        settings,
        this.deps.env(),
      );
      if (!p.listModels) return { ok: true, models: [] };
      const models = await p.listModels(AbortSignal.timeout(timeoutMs));
      this.learn(provider, models);
      return { ok: true, models: models.map((m) => m.name) };
    } catch (err) {
      const error = toErrorData(err);
      if (err instanceof MooringError || error.hint) return { ok: false, error };
      return {
        ok: false,
        error: { ...error, hint: 'Check the base URL and the API key in Settings > Models.' },
      };
    }
  }

  /**
   * The chat's model picker: each configured provider's own model list (Ollama's tags, `/v1/models`,
   * Anthropic's models), read in parallel, each model with what it takes. A provider is configured when
   * it needs no key (Ollama), has a key (keychain or environment) or a base URL of its own; one that does
   * not answer within `timeoutMs` is listed with its error and no models.
   */
  async catalog(timeoutMs = 4_000): Promise<ProviderModels[]> {
    const s = this.deps.settings().providers;
    const env = this.deps.env();
    const configured = await Promise.all(
      PROVIDER_IDS.map(async (id) => {
        if (id === 'ollama') return true;
        const envKey = PROVIDER_KEY_ENV[id];
        return Boolean(
          s[id].baseUrl || env[ENV_URL[id]] || (envKey && env[envKey]) || (await this.storedApiKey(id)),
        );
      }),
    );
    return Promise.all(
      PROVIDER_IDS.filter((_, i) => configured[i]).map(async (id): Promise<ProviderModels> => {
        try {
          const { provider } = await this.providerFor(`${id}:${SUGGESTED_MODELS[id]}`);
          const listed = provider.listModels ? await provider.listModels(AbortSignal.timeout(timeoutMs)) : [];
          this.learn(id, listed);
          // Asked again after learning, so the picker says what the next turn will send.
          const { provider: knowing } = await this.providerFor(`${id}:${SUGGESTED_MODELS[id]}`);
          return {
            provider: id,
            models: listed.map(({ name: model }) => ({
              spec: `${id}:${model}`,
              model,
              ...knowing.capabilities(model),
            })),
          };
        } catch (err) {
          return { provider: id, models: [], error: toErrorData(err) };
        }
      }),
    );
  }

  /** Each provider as Settings > Models shows it (a stored key is reported, never returned). */
  views(): Promise<ProviderView[]> {
    const s = this.deps.settings();
    const env = this.deps.env();
    return Promise.all(
      PROVIDER_IDS.map(async (id) => {
        const envKey = PROVIDER_KEY_ENV[id];
        return {
          id,
          baseUrl: s.providers[id].baseUrl ?? null,
          envBaseUrl: env[ENV_URL[id]] ?? null,
          needsKey: id !== 'ollama',
          ...(await this.keyView(id)),
          keyFromEnv: envKey && env[envKey] ? envKey : null,
          suggestedModel: SUGGESTED_MODELS[id],
        };
      }),
    );
  }

  /** Where the provider's key is kept, in words the screen can show (the key itself never leaves). */
  private async keyView(
    id: ProviderId,
  ): Promise<Pick<ProviderView, 'keyStored' | 'keySource' | 'keyEnvRef'>> {
    if (id === 'ollama') return { keyStored: false, keySource: null, keyEnvRef: null };
    const inKeychain = await this.deps.secrets.get(apiKeyAccount(id)).catch(() => null);
    if (inKeychain) return { keyStored: true, keySource: 'keychain', keyEnvRef: null };
    const entry = await this.keyEntry(id);
    if (!entry) return { keyStored: false, keySource: null, keyEnvRef: null };
    return 'key' in entry
      ? { keyStored: true, keySource: 'file', keyEnvRef: null }
      : { keyStored: true, keySource: 'envRef', keyEnvRef: entry.envRef };
  }

  /** The plain-text key file, for Settings > Models to name it (absent on hosts without one). */
  keyFilePath(): string | null {
    return this.deps.keyFile?.file ?? null;
  }

  /** Whether a keychain is there to hold keys (Settings > Models says so when not). */
  keychain(): Promise<{ ok: true } | { ok: false; reason: string }> {
    return this.deps.secrets.available().catch((e: Error) => ({ ok: false as const, reason: e.message }));
  }
}

/** The saved provider settings with a form's unsaved base URL and key in place of the saved ones. */
function withDraft(
  saved: AgentProviderSettings,
  provider: ProviderId,
  draft: { baseUrl?: string | null; apiKey?: string },
): AgentProviderSettings {
  if (draft.baseUrl === undefined && !draft.apiKey?.trim()) return saved;
  const current = { ...((saved[provider] ?? {}) as { baseUrl?: string; apiKey?: string | null }) };
  if (draft.baseUrl !== undefined) {
    const url = draft.baseUrl?.trim();
    if (url) current.baseUrl = url;
    else delete current.baseUrl;
  }
  if (draft.apiKey?.trim()) current.apiKey = draft.apiKey.trim();
  return { ...saved, [provider]: current };
}
