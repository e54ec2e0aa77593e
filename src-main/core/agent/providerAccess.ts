// Provider endpoints and keys for the UI's chat (issue 6, Providers): base URLs from settings.json,
// API keys from the keychain (account `provider/<id>/apiKey`, never in a file), the environment as
// the fallback (resolveProvider). Also the "Check" of Settings > Models: can we reach it, which models.
import { DEFAULT_PROVIDER_URLS, SUGGESTED_MODELS, type ProviderId } from '@shared/providers';
import { resolveProvider, type AgentProviderSettings, type ChatProvider } from './index';
import { MooringError, toErrorData } from '../errors';
import type { MooringCore } from '../mooringCore';
import type { ErrorData } from '@shared/errors';

export const apiKeyAccount = (provider: ProviderId) => `provider/${provider}/apiKey`;

/** The keychain's key, or undefined when there is none or no keychain (the environment may have one). */
export async function storedApiKey(core: MooringCore, provider: ProviderId): Promise<string | undefined> {
  if (provider === 'ollama') return undefined;
  try {
    return (await core.secrets.get(apiKeyAccount(provider))) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Settings endpoints that differ from the defaults plus keychain keys; the environment fills the rest. */
export async function agentProviderSettings(core: MooringCore): Promise<AgentProviderSettings> {
  const p = core.settings().providers;
  const [openaiKey, anthropicKey] = await Promise.all([
    storedApiKey(core, 'openai'),
    storedApiKey(core, 'anthropic'),
  ]);
  return {
    ...(p.ollama.baseUrl !== DEFAULT_PROVIDER_URLS.ollama ? { ollama: { baseUrl: p.ollama.baseUrl } } : {}),
    openai: { ...(p.openai.baseUrl ? { baseUrl: p.openai.baseUrl } : {}), apiKey: openaiKey },
    anthropic: { ...(p.anthropic.baseUrl ? { baseUrl: p.anthropic.baseUrl } : {}), apiKey: anthropicKey },
  };
}

export async function providerFor(
  core: MooringCore,
  spec: string,
): Promise<{ provider: ChatProvider; model: string }> {
  return resolveProvider(spec, await agentProviderSettings(core));
}

export type ProviderCheck = { ok: true; models: string[] } | { ok: false; error: ErrorData };

/** Lists the provider's models within `timeoutMs`: the proof that the endpoint and the key work. */
export async function checkProvider(
  core: MooringCore,
  provider: ProviderId,
  timeoutMs = 8_000,
): Promise<ProviderCheck> {
  try {
    const { provider: p } = await providerFor(core, `${provider}:${SUGGESTED_MODELS[provider]}`);
    if (!p.listModels) return { ok: true, models: [] };
    const models = await p.listModels(AbortSignal.timeout(timeoutMs));
    return { ok: true, models };
  } catch (err) {
    const error = toErrorData(err);
    if (err instanceof MooringError || error.hint) return { ok: false, error };
    return {
      ok: false,
      error: { ...error, hint: 'Check the base URL and the API key in Settings > Models.' },
    };
  }
}
