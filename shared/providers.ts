// The model providers Mooring speaks to (ARCHITECTURE.md, `agent/`): their ids, the endpoint each uses
// when the settings and the environment name none, and the model a fresh install suggests. Defined
// here once; the core's providers, the settings schema and the Models screen all read them.
import { z } from 'zod';

export const PROVIDER_IDS = ['ollama', 'openai', 'anthropic'] as const;
export const ProviderIdSchema = z.enum(PROVIDER_IDS);
export type ProviderId = z.infer<typeof ProviderIdSchema>;

export const isProviderId = (v: string): v is ProviderId => (PROVIDER_IDS as readonly string[]).includes(v);

export const DEFAULT_PROVIDER_URLS: Record<ProviderId, string> = {
  ollama: 'http://127.0.0.1:11434',
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
};

/** The environment variable that supplies each provider's key (Ollama needs none). */
export const PROVIDER_KEY_ENV: Partial<Record<ProviderId, string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};

/** What a fresh install suggests per provider; the user picks another in Settings > Models. */
export const SUGGESTED_MODELS: Record<ProviderId, string> = {
  ollama: 'llama3.2',
  openai: 'gpt-4o',
  anthropic: 'claude-sonnet-4-5',
};

/** `provider:model` when nothing else names one. */
export const DEFAULT_MODEL_SPEC = `ollama:${SUGGESTED_MODELS.ollama}`;

/**
 * The choices of the first model setup (Settings > Models, "Set up a model"): each names the provider
 * code that speaks to it and the base URL it starts with. LM Studio, OpenRouter and any server with an
 * OpenAI-style `/v1` speak the OpenAI wire format, so they share the `openai` provider's base URL and key.
 */
export interface ProviderPreset {
  id: 'ollama' | 'lmstudio' | 'openai-compatible' | 'openai' | 'openrouter' | 'anthropic';
  label: string;
  provider: ProviderId;
  /** The URL the form starts with; empty: the person types it. */
  baseUrl: string;
  key: 'none' | 'optional' | 'required';
  /** One line under the choice: what it is, and what to do first. */
  note: string;
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  {
    id: 'ollama',
    label: 'Ollama',
    provider: 'ollama',
    baseUrl: DEFAULT_PROVIDER_URLS.ollama,
    key: 'none',
    note: 'Models on this computer, no key. Start Ollama and pull a model first (ollama pull NAME).',
  },
  {
    id: 'lmstudio',
    label: 'LM Studio',
    provider: 'openai',
    baseUrl: 'http://127.0.0.1:1234/v1',
    key: 'none',
    note: 'Models on this computer, no key. Start its local server (Developer tab) with a model loaded.',
  },
  {
    id: 'openai-compatible',
    label: 'Another OpenAI-compatible server',
    provider: 'openai',
    baseUrl: '',
    key: 'optional',
    note: 'llama.cpp, vLLM, LocalAI or a hosted service: its base URL ends in /v1.',
  },
  {
    id: 'openai',
    label: 'OpenAI',
    provider: 'openai',
    baseUrl: DEFAULT_PROVIDER_URLS.openai,
    key: 'required',
    note: 'Needs an API key from platform.openai.com.',
  },
  {
    id: 'openrouter',
    label: 'OpenRouter',
    provider: 'openai',
    baseUrl: 'https://openrouter.ai/api/v1',
    key: 'required',
    note: 'Many providers behind one key from openrouter.ai.',
  },
  {
    id: 'anthropic',
    label: 'Anthropic',
    provider: 'anthropic',
    baseUrl: DEFAULT_PROVIDER_URLS.anthropic,
    key: 'required',
    note: 'Needs an API key from console.anthropic.com.',
  },
];
