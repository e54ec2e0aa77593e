// `provider:model` → a ready provider (ARCHITECTURE.md, `agent/`). Endpoints and keys come
// from the settings first, then the environment (MOORING_OLLAMA_URL, MOORING_OPENAI_BASE_URL +
// OPENAI_API_KEY, MOORING_ANTHROPIC_BASE_URL + ANTHROPIC_API_KEY), then the defaults. Settings win so
// that a key typed into the app is not silently replaced by a stray shell variable.
import { DEFAULT_MODEL_SPEC, PROVIDER_IDS, type ProviderId } from '@shared/providers';
import { MooringError } from '../../errors';
import { AnthropicProvider } from './anthropicProvider';
import type { CapabilityOverrides } from './modelCapabilities';
import { OllamaProvider } from './ollamaProvider';
import { OpenAIProvider } from './openaiProvider';
import type { ChatProvider } from './types';

export interface ProviderSettings {
  baseUrl?: string;
  /** Read from the keychain by the caller; never stored in settings.json. */
  apiKey?: string;
}

export interface AgentProviderSettings {
  ollama?: ProviderSettings;
  openai?: ProviderSettings;
  anthropic?: ProviderSettings;
  capabilityOverrides?: CapabilityOverrides;
}

export interface ModelSpec {
  provider: ProviderId;
  model: string;
}

/** Splits at the first colon only: `ollama:llama3.2:3b` is provider `ollama`, model `llama3.2:3b`. */
export function parseModelSpec(spec: string): ModelSpec {
  const at = spec.indexOf(':');
  const provider = at > 0 ? spec.slice(0, at) : '';
  const model = at > 0 ? spec.slice(at + 1).trim() : '';
  if (!(PROVIDER_IDS as readonly string[]).includes(provider) || !model) {
    throw new MooringError(
      'usage',
      `"${spec}" is not a model: expected PROVIDER:MODEL`,
      `Use one of ${PROVIDER_IDS.map((p) => `${p}:NAME`).join(', ')}, e.g. ${DEFAULT_MODEL_SPEC}`,
    );
  }
  return { provider: provider as ProviderId, model };
}

const nonEmpty = (v: string | undefined) => (v && v.trim() ? v.trim() : undefined);

export function resolveProvider(
  spec: string,
  settings: AgentProviderSettings = {},
  env: NodeJS.ProcessEnv = process.env,
): { provider: ChatProvider; model: string } {
  const { provider, model } = parseModelSpec(spec);
  const capabilityOverrides = settings.capabilityOverrides;
  switch (provider) {
    case 'ollama':
      return {
        model,
        provider: new OllamaProvider({
          baseUrl: nonEmpty(settings.ollama?.baseUrl) ?? nonEmpty(env.MOORING_OLLAMA_URL),
          capabilityOverrides,
        }),
      };
    case 'openai':
      return {
        model,
        provider: new OpenAIProvider({
          baseUrl: nonEmpty(settings.openai?.baseUrl) ?? nonEmpty(env.MOORING_OPENAI_BASE_URL),
          apiKey: nonEmpty(settings.openai?.apiKey) ?? nonEmpty(env.OPENAI_API_KEY),
          capabilityOverrides,
        }),
      };
    case 'anthropic':
      return {
        model,
        provider: new AnthropicProvider({
          baseUrl: nonEmpty(settings.anthropic?.baseUrl) ?? nonEmpty(env.MOORING_ANTHROPIC_BASE_URL),
          apiKey: nonEmpty(settings.anthropic?.apiKey) ?? nonEmpty(env.ANTHROPIC_API_KEY),
          capabilityOverrides,
        }),
      };
  }
}
