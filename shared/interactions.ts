// Server-initiated interactions (ARCHITECTURE.md, `clientFeatures/`): what a server asks the user through
// Mooring (sampling, elicitation) and what the UI answers. Pure types and zod, so the renderer renders the
// requests and validates its answers with these very schemas before sending them.
import { z } from 'zod';
import type { ErrorData } from './errors';

/** A JSON value as it travels in MCP messages. */
type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

/** One content block of a sampling message (text, image, audio; spec 2025-11-25 "SamplingMessage"). */
export interface SamplingContentView {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  [k: string]: unknown;
}

export interface SamplingMessageView {
  role: 'user' | 'assistant';
  content: SamplingContentView | SamplingContentView[];
}

/** The part of `sampling/createMessage` the user sees and may edit before approving. */
export interface SamplingRequestView {
  messages: SamplingMessageView[];
  systemPrompt?: string;
  maxTokens: number;
  temperature?: number;
  stopSequences?: string[];
  includeContext?: 'none' | 'thisServer' | 'allServers';
  modelPreferences?: { hints?: Array<{ name?: string }>; [k: string]: unknown };
  /**
   * Tools the server lets the model call in its answer (spec 2025-11-25 "Sampling": `tools`, `toolChoice`):
   * shown so the person knows; the model's calls go back to the server, which runs them, not Mooring.
   */
  tools?: Array<{ name: string; description?: string }>;
  toolChoice?: 'auto' | 'required';
}

/** Where the server stands against its hourly sampling budget, shown in the dialog. */
export interface SamplingBudgetView {
  usedTokens: number;
  limitTokens: number;
  windowMs: number;
}

/** A form field of an elicitation (spec 2025-11-25 "PrimitiveSchemaDefinition"): flat, no nesting. */
export interface ElicitationFieldSchema {
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  title?: string;
  description?: string;
  default?: Json;
  enum?: string[];
  enumNames?: string[];
  oneOf?: Array<{ const: string; title?: string }>;
  items?: { type?: string; enum?: string[]; anyOf?: Array<{ const: string; title?: string }> };
  format?: 'email' | 'uri' | 'date' | 'date-time';
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

export interface ElicitationFormSchema {
  type: 'object';
  properties: Record<string, ElicitationFieldSchema>;
  required?: string[];
}

interface InteractionBase {
  id: string;
  server: string;
  requestedAt: number;
  /** Epoch ms after which the request is declined unanswered. */
  expiresAt: number;
}

export interface SamplingInteraction extends InteractionBase {
  kind: 'sampling';
  request: SamplingRequestView;
  budget: SamplingBudgetView;
}

export interface ElicitationFormInteraction extends InteractionBase {
  kind: 'elicitation-form';
  message: string;
  requestedSchema: ElicitationFormSchema;
}

export interface ElicitationUrlInteraction extends InteractionBase {
  kind: 'elicitation-url';
  message: string;
  /** The full URL, shown as is: the user must see where they are sent before consenting. */
  url: string;
  /** The URL's host, for the dialog's emphasis. */
  host: string;
  elicitationId: string;
}

export type Interaction = SamplingInteraction | ElicitationFormInteraction | ElicitationUrlInteraction;
export type InteractionKind = Interaction['kind'];
/** What the core hands the broker; the broker adds `id`, `requestedAt` and `expiresAt`. */
export type InteractionInput = Interaction extends infer I
  ? I extends Interaction
    ? Omit<I, 'id' | 'requestedAt' | 'expiresAt'>
    : never
  : never;

const decidedBy = z.string().min(1, 'must say who decided').default('user:ui');

const SamplingContentSchema = z.looseObject({ type: z.string() });
export const SamplingEditSchema = z
  .object({
    messages: z
      .array(
        z.object({
          role: z.enum(['user', 'assistant']),
          content: z.union([SamplingContentSchema, z.array(SamplingContentSchema)]),
        }),
      )
      .min(1, 'needs at least one message'),
    systemPrompt: z.string().optional(),
    maxTokens: z.number().int('must be a whole number').positive('must be at least 1'),
    temperature: z.number().min(0).max(2).optional(),
    stopSequences: z.array(z.string()).optional(),
  })
  .partial();

export const SamplingAnswerSchema = z
  .object({
    kind: z.literal('sampling'),
    outcome: z.enum(['approve', 'decline']),
    /** The request as the user edited it; absent fields stay as the server asked. */
    edited: SamplingEditSchema.optional(),
    decidedBy,
  })
  .strict();

const ElicitValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
export const ElicitationFormAnswerSchema = z
  .object({
    kind: z.literal('elicitation-form'),
    action: z.enum(['accept', 'decline', 'cancel']),
    /** The filled fields; omitted ones get the schema's defaults (SEP-1034). */
    content: z.record(z.string(), ElicitValueSchema).optional(),
    decidedBy,
  })
  .strict();

export const ElicitationUrlAnswerSchema = z
  .object({
    kind: z.literal('elicitation-url'),
    /** accept = the user consents to open the URL in their browser. */
    action: z.enum(['accept', 'decline', 'cancel']),
    decidedBy,
  })
  .strict();

export const InteractionAnswerSchema = z.discriminatedUnion('kind', [
  SamplingAnswerSchema,
  ElicitationFormAnswerSchema,
  ElicitationUrlAnswerSchema,
]);
export type SamplingAnswer = z.infer<typeof SamplingAnswerSchema>;
export type ElicitationFormAnswer = z.infer<typeof ElicitationFormAnswerSchema>;
export type ElicitationUrlAnswer = z.infer<typeof ElicitationUrlAnswerSchema>;
export type InteractionAnswer = z.infer<typeof InteractionAnswerSchema>;
export type InteractionAnswerInput = z.input<typeof InteractionAnswerSchema>;
/** The answer type that belongs to a request kind. */
export type AnswerFor<K extends InteractionKind> = Extract<InteractionAnswer, { kind: K }>;

export interface InteractionResolved {
  request: Interaction;
  /** Set when the user answered. */
  answer?: InteractionAnswer;
  /** Set when the request ended unanswered: timeout (`refused`) or abort (`cancelled`). */
  error?: ErrorData;
}

/** Per-server sampling counters, for the server's page. */
export interface SamplingStats {
  requests: number;
  approved: number;
  declined: number;
  refused: number;
  tokensLastHour: number;
  limitTokens: number;
}
