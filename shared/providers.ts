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
