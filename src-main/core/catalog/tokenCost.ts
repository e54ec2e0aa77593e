// Schema token cost (ARCHITECTURE.md, "The core, by room": catalog, deferred loading): what a tool costs in
// the prompt, counted with the core's one tokenizer (tokenCount.ts, loaded on first use).
import { countTokens } from '../tokenCount';

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
  const n = countTokens(text);
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
