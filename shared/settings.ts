// The contract of settings.json (docs/data-on-disk.md, "Data on disk"): app settings with their defaults.
// Pure zod, so the renderer's settings form validates with the very schema the core writes with.
// Nested objects use `prefault({})`: a missing section is parsed as `{}`, which fills its own defaults.
import { z } from 'zod';
import { DEFAULT_PROVIDER_URLS, ProviderIdSchema } from './providers';

const httpUrl = z
  .string()
  .url('must be a full URL such as https://example.com')
  .refine((u) => /^https?:\/\//i.test(u), 'must start with http:// or https://');

/**
 * The eight levels of MCP logging (RFC 5424 names; MCP 2025-11-25 "Logging"), most verbose first: a server
 * told a level sends `notifications/message` at that level and above. `warn`, the name an older Mooring
 * wrote, is read as `warning`.
 */
export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LogLevelSchema = z.preprocess((v) => (v === 'warn' ? 'warning' : v), z.enum(LOG_LEVELS));

const count = (min: number) => z.number().int('must be a whole number').min(min, `must be at least ${min}`);

/** The app's colour themes: `system` follows the OS (prefers-color-scheme). */
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export const SettingsSchema = z
  .object({
    /** Skip every approval; the UI shows it loudly while on. */
    yolo: z.boolean().default(false),
    /** Tool-loop turns per user message before the agent stops and asks. */
    maxToolIterations: count(1).max(500, 'must be at most 500').default(25),
    /**
     * Name conversations with the model: after a conversation's first answer, its own provider and model
     * are asked for a short title (one small request); off, a conversation keeps its first words.
     */
    titlesFromModel: z.boolean().default(true),
    /**
     * What a model takes, by `provider:model`, over what its provider's model list says and the built-in
     * table (agent/providers/modelCapabilities.ts). Settings > Models sets `vision` ("Takes images").
     */
    modelCapabilities: z
      .record(
        z.string().regex(/^(ollama|openai|anthropic):.+$/, 'must be provider:model'),
        z.object({ vision: z.boolean().optional(), tools: z.boolean().optional() }).strict(),
      )
      .default({}),
    /**
     * The models a new conversation starts in code mode with, by `provider:model` (docs/code-mode.md, "The
     * switch"); the conversation's own switch still turns it off.
     */
    codeModeModels: z
      .array(z.string().regex(/^(ollama|openai|anthropic):.+$/, 'must be provider:model'))
      .default([]),
    /** Past either bound, tool schemas load on demand through tool_search (catalog/). */
    deferredToolThreshold: z
      .object({ tools: count(0).default(40), tokens: count(0).default(8000) })
      .strict()
      .prefault({}),
    /** OSV vulnerability query endpoint; a setting so tests can point it at a local server. */
    osvEndpoint: httpUrl.default('https://api.osv.dev/v1/query'),
    /**
     * The MCP registry `mooring mcp search` and the Browse screen read (an organisation's own registry that
     * implements the same API); MOORING_REGISTRY_URL wins over it. Default: the official registry.
     */
    registryUrl: httpUrl.optional(),
    /** API keys are not here: they live in the keychain (secrets/). */
    providers: z
      .object({
        default: ProviderIdSchema.default('ollama'),
        ollama: z
          .object({ baseUrl: httpUrl.default(DEFAULT_PROVIDER_URLS.ollama) })
          .strict()
          .prefault({}),
        openai: z.object({ baseUrl: httpUrl.optional() }).strict().prefault({}),
        anthropic: z.object({ baseUrl: httpUrl.optional() }).strict().prefault({}),
      })
      .strict()
      .prefault({}),
    /**
     * Tool results too large for the model (docs/chat.md, "Results too large for the model"): past the
     * limit the model gets the first part, the size and a reference, and pages through the rest with
     * `read_result`; the conversation keeps the whole result.
     */
    largeResults: z
      .object({
        /** Share of the model's context window one tool result may fill. */
        share: z.number().min(0.01, 'must be at least 0.01').max(0.9, 'must be at most 0.9').default(0.2),
        /** A fixed limit in characters instead of the share. */
        maxChars: count(1000).optional(),
        /** Context windows in tokens by `provider:model` (or model name), for models Mooring does not know. */
        contextWindows: z.record(z.string(), count(1024)).default({}),
      })
      .strict()
      .prefault({}),
    /**
     * How long a browser-mode sign-in lasts, in hours (a working day by default); after it, the page asks for
     * a new link (`mooring web --link`).
     */
    webSessionHours: count(1).max(720, 'must be at most 720 (30 days)').default(10),
    /** Loopback port of the OAuth redirect listener. */
    oauthRedirectPort: count(1024).max(65535, 'must be at most 65535').default(33418),
    logLevel: LogLevelSchema.default('info'),
    /** The app's colours: the OS's choice, or always light or dark (Settings > Appearance). */
    theme: z.enum(THEMES).default('system'),
    /**
     * Named tool sets (e.g. "Code Reviewer"): a selection of tools across servers, by
     * model name. A conversation or `mooring chat --tool-set NAME` offers the model only those.
     */
    toolSets: z
      .array(
        z
          .object({
            name: z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters'),
            tools: z.array(z.string().regex(/^mcp__/, 'must be a model tool name like mcp__server__tool')),
          })
          .strict(),
      )
      .default([])
      .superRefine((sets, ctx) => {
        const seen = new Set<string>();
        sets.forEach((s, i) => {
          if (seen.has(s.name))
            ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate tool set "${s.name}"` });
          seen.add(s.name);
        });
      }),
  })
  .strict();

export type Settings = z.infer<typeof SettingsSchema>;
export type SettingsInput = z.input<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = SettingsSchema.parse({});
