// Settings > Models (issue 5 empty states, issue 6 Providers): the default model, each provider's base
// URL (settings.json), its API key (the keychain, account `provider/<id>/apiKey`; never a file), and a
// Check that lists the provider's models, so "no model is reachable" is found before the first message.
import { z } from 'zod';
import {
  DEFAULT_PROVIDER_URLS,
  ProviderIdSchema,
  SUGGESTED_MODELS,
  type ProviderId,
} from '@shared/providers';
import type { ProviderView } from '@shared/wire';
import { parseModelSpec } from '../agent';
import { SettingsStore } from '../config/settings';
import { chatServiceFor } from '../agent/chatService';
import { toErrorData } from '../errors';
import { apiKeyAccount, checkProvider, storedApiKey, type ProviderCheck } from '../agent/providerAccess';
import { publicProcedure, router } from './trpc';

const ENV_URL: Record<ProviderId, string> = {
  ollama: 'MOORING_OLLAMA_URL',
  openai: 'MOORING_OPENAI_BASE_URL',
  anthropic: 'MOORING_ANTHROPIC_BASE_URL',
};
const ENV_KEY: Partial<Record<ProviderId, string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};

const emptyToUndefined = (v: string | null | undefined) => (v && v.trim() ? v.trim() : undefined);

export const settingsRouter = router({
  get: publicProcedure.query(async ({ ctx }) => {
    const s = ctx.core.settings();
    const providers: ProviderView[] = await Promise.all(
      (['ollama', 'openai', 'anthropic'] as const).map(async (id) => {
        const envKey = ENV_KEY[id];
        return {
          id,
          baseUrl: s.providers[id].baseUrl ?? null,
          envBaseUrl: process.env[ENV_URL[id]] ?? null,
          needsKey: id !== 'ollama',
          keyStored: Boolean(await storedApiKey(ctx.core, id)),
          keyFromEnv: envKey && process.env[envKey] ? envKey : null,
          suggestedModel: SUGGESTED_MODELS[id],
        };
      }),
    );
    const keychain = await ctx.core.secrets.available().catch((e: Error) => ({
      ok: false as const,
      reason: e.message,
    }));
    return {
      defaultModel: await chatServiceFor(ctx.core).defaultModel(),
      providers,
      keychain,
    };
  }),

  /** Writes the default model and the base URLs (validated by the settings schema; nothing written if bad). */
  save: publicProcedure
    .input(
      z.object({
        defaultModel: z.string().min(3).max(200),
        baseUrls: z.object({
          ollama: z.string().nullable().optional(),
          openai: z.string().nullable().optional(),
          anthropic: z.string().nullable().optional(),
        }),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { provider } = parseModelSpec(input.defaultModel);
      const store = SettingsStore.forHome(ctx.core.paths.home);
      await store.update((current) => {
        const openai = emptyToUndefined(input.baseUrls.openai);
        const anthropic = emptyToUndefined(input.baseUrls.anthropic);
        return {
          ...current,
          providers: {
            default: provider,
            ollama: { baseUrl: emptyToUndefined(input.baseUrls.ollama) ?? DEFAULT_PROVIDER_URLS.ollama },
            openai: openai ? { baseUrl: openai } : {},
            anthropic: anthropic ? { baseUrl: anthropic } : {},
          },
        };
      });
      await ctx.core.reloadSettings();
      await chatServiceFor(ctx.core).prefs.update((p) => ({ ...p, defaultModel: input.defaultModel }));
      return { saved: true };
    }),

  /** Stores (or with an empty value, removes) a provider's API key in the keychain. */
  setApiKey: publicProcedure
    .input(z.object({ provider: ProviderIdSchema, apiKey: z.string().max(4096) }))
    .mutation(async ({ ctx, input }) => {
      const account = apiKeyAccount(input.provider);
      const key = input.apiKey.trim();
      if (key) await ctx.core.secrets.set(account, key);
      else await ctx.core.secrets.delete(account);
      return { keyStored: Boolean(key) };
    }),

  /** Whether the default model's provider answers: the chat's empty state points to Settings when not. */
  status: publicProcedure.query(async ({ ctx }) => {
    const model = await chatServiceFor(ctx.core).defaultModel();
    let provider: ProviderId;
    try {
      provider = parseModelSpec(model).provider;
    } catch (err) {
      return { model, check: { ok: false, error: toErrorData(err) } as ProviderCheck };
    }
    return { model, check: await checkProvider(ctx.core, provider, 4_000) };
  }),

  /** Reaches the provider with the saved settings and lists its models. */
  check: publicProcedure
    .input(z.object({ provider: ProviderIdSchema }))
    .mutation(({ ctx, input }) => checkProvider(ctx.core, input.provider)),
});
