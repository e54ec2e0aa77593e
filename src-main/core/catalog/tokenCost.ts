// Schema token cost (issue 3, "Deferred loading"): what a tool costs in the prompt, counted with a
// real BPE tokenizer (gpt-tokenizer, o200k_base). Exact counts differ per model family; o200k is a
// close, stable yardstick for the UI and for the deferred-loading budget.

import { createRequire } from 'node:module';

// Loaded on first use: the tokenizer's tables cost ~45 MB of memory (bench, issue 9), and a process
// that never needs a token count (`mooring mcp call`, a server relay) should not pay for them.
let countTokens: ((text: string) => number) | undefined;
function tokenize(text: string): number {
  countTokens ??= (createRequire(import.meta.url)('gpt-tokenizer') as typeof import('gpt-tokenizer'))
    .countTokens;
  return countTokens(text);
}

export interface ToolPromptShape {
  name: string;
  description?: string | undefined;
  inputSchema: unknown;
}

/** Memoised by the serialised text: rebuilding a catalog never re-tokenizes an unchanged tool. */
const cache = new Map<string, number>();
const CACHE_LIMIT = 20_000;

/** Tokens of one tool definition as it goes into a prompt (name, description, schema JSON). */
export function toolTokenCost(tool: ToolPromptShape): number {
  const text = JSON.stringify({
    name: tool.name,
    description: tool.description ?? '',
    input_schema: tool.inputSchema,
  });
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const n = tokenize(text);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, n);
  return n;
}

/** Sum of tool costs per server. */
export function tokenCostByServer(
  tools: readonly { server: string; tokenCost: number }[],
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of tools) out[t.server] = (out[t.server] ?? 0) + t.tokenCost;
  return out;
}
