// The per-server sampling budget (ARCHITECTURE.md, "The core, by room": clientFeatures, sampling): a server
// may spend at most `tokensPerHour` tokens of the user's model in any sliding hour. A request is refused up
// front when its worst case (the tokens it sends plus the maxTokens it asks for) would cross the cap; what
// it really used is charged after.
import type { SamplingMessageView } from '@shared/interactions';
import { MooringError } from '../errors';
import { countTokens } from '../tokenCount';

export const HOUR_MS = 60 * 60_000;
export const DEFAULT_SAMPLING_TOKENS_PER_HOUR = 20_000;

export interface SamplingBudgetOptions {
  tokensPerHour?: number;
  /** Per-server overrides of the cap. */
  perServer?: Record<string, number>;
  windowMs?: number;
  now?: () => number;
}

export class SamplingBudget {
  private readonly spent = new Map<string, Array<{ at: number; tokens: number }>>();
  readonly windowMs: number;
  private readonly now: () => number;

  constructor(private readonly opts: SamplingBudgetOptions = {}) {
    this.windowMs = opts.windowMs ?? HOUR_MS;
    this.now = opts.now ?? Date.now;
  }

  limit(server: string): number {
    return this.opts.perServer?.[server] ?? this.opts.tokensPerHour ?? DEFAULT_SAMPLING_TOKENS_PER_HOUR;
  }

  /** Tokens the server spent in the current window. */
  used(server: string): number {
    const since = this.now() - this.windowMs;
    const entries = (this.spent.get(server) ?? []).filter((e) => e.at > since);
    this.spent.set(server, entries);
    return entries.reduce((n, e) => n + e.tokens, 0);
  }

  /** Throws `refused` when `tokens` more would cross the server's cap. */
  check(server: string, tokens: number): void {
    const used = this.used(server);
    const limit = this.limit(server);
    if (used + tokens <= limit) return;
    const entries = this.spent.get(server) ?? [];
    const freesAt = entries[0] ? entries[0].at + this.windowMs : this.now();
    const minutes = Math.max(1, Math.ceil((freesAt - this.now()) / 60_000));
    throw new MooringError(
      'refused',
      `"${server}" asked for a completion of up to ${tokens} tokens, but it has used ${used} of its ${limit} sampling tokens this hour.`,
      `Wait about ${minutes} min, or raise this server's sampling budget in its settings.`,
    );
  }

  charge(server: string, tokens: number): void {
    if (tokens <= 0) return;
    const entries = this.spent.get(server) ?? [];
    entries.push({ at: this.now(), tokens });
    this.spent.set(server, entries);
  }
}

/** Tokens of the text a sampling request sends (o200k yardstick; images and audio count as a flat 256). */
export function promptTokens(messages: SamplingMessageView[], systemPrompt?: string): number {
  let n = systemPrompt ? countTokens(systemPrompt) : 0;
  for (const m of messages)
    for (const block of Array.isArray(m.content) ? m.content : [m.content])
      n += typeof block.text === 'string' ? countTokens(block.text) : 256;
  return n;
}

/** Tokens of a completion's text content. */
export function completionTokens(content: unknown): number {
  const blocks = Array.isArray(content) ? content : [content];
  let n = 0;
  for (const b of blocks as Array<{ text?: unknown }>)
    n += typeof b?.text === 'string' ? countTokens(b.text) : 256;
  return n;
}
