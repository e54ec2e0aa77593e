// Settings > Models (agent/chatModels.ts, agent/providerAccess.ts): the default model, each provider's
// base URL (settings.json), its API key (the keychain, account `provider/<id>/apiKey`; never a file),
// and a Check that lists the provider's models, so "no model is reachable" is found before the first
// message.
import { z } from 'zod';
import { ProviderIdSchema } from '@shared/providers';
import { publicProcedure, router } from './trpc';

const BaseUrl = z.string().nullable().optional();

export const modelsRouter = router({
  get: publicProcedure.query(({ ctx }) => ctx.core.models.view()),

  /**
   * Writes the default model, the base URLs and whether the model names conversations (validated by the
   * settings schema; nothing written if bad).
   */
  save: publicProcedure
    .input(
      z.object({
        defaultModel: z.string().min(3).max(200).optional(),
        baseUrls: z.object({ ollama: BaseUrl, openai: BaseUrl, anthropic: BaseUrl }),
        titlesFromModel: z.boolean().optional(),
        /** What each model takes, by provider:model (the settings schema checks the keys). */
        modelCapabilities: z
          .record(z.string().max(200), z.object({ vision: z.boolean().optional() }).strict())
          .optional(),
        /** The models a new conversation starts in code mode with (the settings schema checks each). */
        codeModeModels: z.array(z.string().max(200)).max(200).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      await ctx.core.models.save(input);
      return { saved: true };
    }),

  /**
   * Stores (or with an empty value, removes) a provider's API key: in the keychain, or by the person's
   * choice as an `${env:NAME}` reference or in the plain-text key file readable only by them.
   */
  setApiKey: publicProcedure
    .input(
      z.object({
        provider: ProviderIdSchema,
        apiKey: z.string().max(4096),
        storage: z.enum(['keychain', 'file', 'envRef']).optional(),
      }),
    )
    .mutation(({ ctx, input }) => ctx.core.providers.setApiKey(input.provider, input.apiKey, input.storage)),

  /**
   * The model setup's last step: the key (where the person chose), the provider's base URL, and the model
   * picked from its list as the default.
   */
  setUp: publicProcedure
    .input(
      z.object({
        provider: ProviderIdSchema,
        baseUrl: z.string().max(2048).nullable(),
        model: z.string().min(1).max(200),
        apiKey: z.string().max(4096).optional(),
        storage: z.enum(['keychain', 'file', 'envRef']).optional(),
      }),
    )
    .mutation(({ ctx, input }) => ctx.core.models.setUp(input)),

  /** Whether the default model's provider answers: the chat's empty state points to Settings when not. */
  status: publicProcedure.query(({ ctx }) => ctx.core.models.status()),

  /** The models a new conversation starts in code mode with: the chat's switch shows it before the first turn. */
  codeModeModels: publicProcedure.query(({ ctx }) => ctx.core.models.codeModeModels()),

  /** The chat's model picker: each configured provider's models, with whether they take tools and images. */
  list: publicProcedure.query(({ ctx }) => ctx.core.providers.catalog()),

  /** Reaches the provider and lists its models: with the form's unsaved base URL and key when given, else the saved ones. */
  check: publicProcedure
    .input(
      z.object({
        provider: ProviderIdSchema,
        baseUrl: z.string().max(2048).nullable().optional(),
        apiKey: z.string().max(4096).optional(),
      }),
    )
    .mutation(({ ctx, input }) =>
      ctx.core.providers.check(input.provider, undefined, {
        ...(input.baseUrl !== undefined ? { baseUrl: input.baseUrl } : {}),
        ...(input.apiKey !== undefined ? { apiKey: input.apiKey } : {}),
      }),
    ),
});
