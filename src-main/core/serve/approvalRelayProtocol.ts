// The local relay's wire (docs/data-on-disk.md, "Data on disk": run/): a process serving MCP to an external
// client (`mooring serve --stdio`, or `--http` with no terminal) has nobody to ask, so it forwards what
// needs a person to the running app, whose dialogs show it: each tool approval, and each sampling or
// elicitation request a connected server sends (MCP spec 2025-11-25, "Sampling" and "Elicitation": the
// client's user decides). The app listens on a Unix socket in `<home>/run` (0700 dir, 0600 socket) or, on
// Windows, a named pipe; a random token in `<home>/run/approvals.token` (0600) proves the caller can read
// the user's Mooring home. Messages are newline-delimited JSON, one object a line:
//
//   serving → app: {type:"hello", token, via}                 first, once
//                  {type:"request", id, input, timeoutMs}     one per approval (id: the serving broker's id)
//                  {type:"interaction", id, input, timeoutMs} one per sampling or elicitation request
//                  {type:"cancel", id, reason?}               the serving side stopped waiting (timeout, abort)
//                  {type:"status", id}                        the servers' live status (`mooring mcp list`)
//   app → serving: {type:"welcome"} | {type:"rejected", error}   answer to hello (rejected: then closed)
//                  {type:"decision", id, decision}         the user answered an approval in the app
//                  {type:"answer", id, answer}             the user answered a sampling or elicitation request
//                  {type:"failed", id, error}              the app-side request ended unanswered
//                  {type:"status", id, app, pid, servers}  each server's status, as the app's Servers screen has it
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { ApprovalDecisionSchema, type ToolAnnotationHints, type ToolChange } from '@shared/approval';
import { ERROR_CODES } from '@shared/errors';
import { InteractionAnswerSchema, type InteractionInput } from '@shared/interactions';
import type { SessionStatus } from '@shared/session';
import { isSafeExternalUrl } from '../safety/ssrfGuard';

/** A line longer than this is refused: approval arguments can carry file contents, but not unbounded. */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
/**
 * The serving side owns the deadline (its gate refuses the call and sends `cancel`); the app's own timer is
 * only a backstop for a lost cancel, so it runs this much longer and never races the serving side's error.
 */
export const RELAY_GRACE_MS = 5_000;
/** The app never parks a relayed request longer than this, whatever the serving side asks. */
export const MAX_RELAYED_WAIT_MS = 60 * 60_000;

export interface ApprovalRelayPaths {
  dir: string;
  /** The socket path, or the named pipe on Windows. */
  endpoint: string;
  tokenFile: string;
}

export function approvalRelayPaths(home: string, os: NodeJS.Platform = process.platform): ApprovalRelayPaths {
  const dir = join(home, 'run');
  // A named pipe lives in one machine-wide namespace: the home's hash keeps two homes (and users) apart.
  const endpoint =
    os === 'win32'
      ? `\\\\.\\pipe\\mooring-approvals-${createHash('sha256').update(home).digest('hex').slice(0, 16)}`
      : join(dir, 'approvals.sock');
  return { dir, endpoint, tokenFile: join(dir, 'approvals.token') };
}

/** `ApprovalRequestInput` (shared/approval.ts) as it crosses the socket. */
export const RelayedInputSchema = z.object({
  server: z.string().min(1),
  tool: z.string().min(1),
  friendlyName: z.string(),
  // Hints and diffs are what the serving core's gate built; checked for shape only, so one odd hint from
  // a server cannot break the relay for every later request.
  annotations: z.custom<ToolAnnotationHints>((v) => typeof v === 'object' && v !== null && !Array.isArray(v)),
  arguments: z.record(z.string(), z.unknown()),
  fingerprint: z.string(),
  reason: z.string(),
  diff: z.custom<ToolChange[]>((v) => Array.isArray(v)).optional(),
  diffSince: z.enum(['approved', 'pinned']).optional(),
  client: z.string().optional(),
  /** The flow between servers the call makes (docs/trust.md), named in the app's dialog too. */
  flow: z
    .object({
      text: z.string().max(4000),
      from: z.array(z.string().max(200)).max(50),
      to: z.string().max(200),
      strong: z.boolean(),
    })
    .optional(),
  /** The code-mode program making the call (docs/code-mode.md). */
  program: z.object({ code: z.string().max(100_000), call: z.number().int() }).optional(),
});

const SamplingContent = z.looseObject({ type: z.string() });

/**
 * `InteractionInput` (shared/interactions.ts) as it crosses the socket: checked for the shape the app's
 * dialogs rely on; the strings in it stay untrusted text wherever they are shown.
 */
export const RelayedInteractionSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('sampling'),
    server: z.string().min(1),
    request: z.looseObject({
      messages: z
        .array(
          z.looseObject({
            role: z.enum(['user', 'assistant']),
            content: z.union([SamplingContent, z.array(SamplingContent)]),
          }),
        )
        .min(1),
      maxTokens: z.number().int().positive(),
    }),
    budget: z.object({ usedTokens: z.number(), limitTokens: z.number(), windowMs: z.number() }),
  }),
  z.object({
    kind: z.literal('elicitation-form'),
    server: z.string().min(1),
    message: z.string(),
    requestedSchema: z.looseObject({
      type: z.literal('object'),
      properties: z.record(z.string(), z.looseObject({ type: z.string() })),
      required: z.array(z.string()).optional(),
    }),
  }),
  z.object({
    kind: z.literal('elicitation-url'),
    server: z.string().min(1),
    message: z.string(),
    // Only a link the app would open itself (https, not a private address) is shown at all.
    url: z
      .string()
      .refine((u) => isSafeExternalUrl(u) && u.startsWith('https:'), 'must be a public https URL'),
    host: z.string(),
    elicitationId: z.string(),
  }),
]);

/** The parsed message as the app's broker takes it (the schema checked what the dialogs rely on). */
export const asInteractionInput = (input: z.infer<typeof RelayedInteractionSchema>) =>
  input as unknown as InteractionInput;

const ErrorDataSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  hint: z.string().optional(),
});

/** One server's live status in the app (shared/session.ts, SessionStatus): what its Servers card shows. */
export const LiveServerSchema = z.object({
  name: z.string(),
  state: z.enum(['idle', 'connecting', 'ready', 'reconnecting', 'failed', 'closed']),
  attempt: z.number().optional(),
  maxAttempts: z.number().optional(),
  error: z.object({ code: z.string(), message: z.string(), hint: z.string().optional() }).optional(),
});
export type LiveServer = z.infer<typeof LiveServerSchema>;

/** A session's status as the relay sends it: the fields its Servers card shows. */
export const liveServer = ({ name, state, attempt, maxAttempts, error }: SessionStatus): LiveServer => ({
  name,
  state,
  ...(attempt !== undefined ? { attempt } : {}),
  ...(maxAttempts !== undefined ? { maxAttempts } : {}),
  ...(error ? { error } : {}),
});

/** Which app answers (`mooring web`, the desktop app) and its servers' statuses. */
export interface AppStatus {
  app: string;
  pid: number;
  servers: LiveServer[];
}

export const ToAppSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), token: z.string(), via: z.string().max(200).optional() }),
  z.object({
    type: z.literal('request'),
    id: z.string().min(1).max(200),
    input: RelayedInputSchema,
    timeoutMs: z.number().int().positive(),
  }),
  z.object({
    type: z.literal('interaction'),
    id: z.string().min(1).max(200),
    input: RelayedInteractionSchema,
    timeoutMs: z.number().int().positive(),
  }),
  z.object({ type: z.literal('cancel'), id: z.string(), reason: z.string().optional() }),
  z.object({ type: z.literal('status'), id: z.string().min(1).max(200) }),
]);
export type ToApp = z.infer<typeof ToAppSchema>;

export const ToServingSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('welcome') }),
  z.object({ type: z.literal('rejected'), error: ErrorDataSchema }),
  z.object({ type: z.literal('decision'), id: z.string(), decision: ApprovalDecisionSchema }),
  z.object({ type: z.literal('answer'), id: z.string(), answer: InteractionAnswerSchema }),
  z.object({ type: z.literal('failed'), id: z.string(), error: ErrorDataSchema }),
  z.object({
    type: z.literal('status'),
    id: z.string(),
    app: z.string().max(200),
    pid: z.number().int().positive(),
    servers: z.array(LiveServerSchema),
  }),
]);
export type ToServing = z.infer<typeof ToServingSchema>;

/**
 * Splits a byte stream into lines and parses each as JSON against `schema`. A line that is too long or
 * not valid ends the stream through `onBad` (the peer is not speaking this protocol).
 */
export function lineReader<T>(
  schema: z.ZodType<T>,
  onMessage: (m: T) => void,
  onBad: (why: string) => void,
): (chunk: Buffer) => void {
  let buffered: Buffer[] = [];
  let size = 0;
  let broken = false;
  return (chunk) => {
    if (broken) return;
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const line = Buffer.concat([...buffered, chunk.subarray(start, nl)]).toString('utf8');
      buffered = [];
      size = 0;
      start = nl + 1;
      if (!line.trim()) continue;
      let parsed: ReturnType<typeof schema.safeParse>;
      try {
        parsed = schema.safeParse(JSON.parse(line));
      } catch {
        broken = true;
        return onBad('a line is not JSON');
      }
      if (!parsed.success) {
        broken = true;
        return onBad(`a message is not valid (${parsed.error.issues[0]?.message ?? 'invalid'})`);
      }
      onMessage(parsed.data);
    }
    const rest = chunk.subarray(start);
    size += rest.length;
    if (size > MAX_LINE_BYTES) {
      broken = true;
      return onBad(`a line is longer than ${MAX_LINE_BYTES} bytes`);
    }
    if (rest.length) buffered.push(rest);
  };
}

export const encode = (m: ToApp | ToServing): string => `${JSON.stringify(m)}\n`;
