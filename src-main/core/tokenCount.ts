// Token counts with a real BPE tokenizer (gpt-tokenizer, o200k_base): the yardstick for tool schemas in a
// prompt (catalog/tokenCost.ts) and for the sampling budget (clientFeatures/samplingBudget.ts). Exact counts
// differ per model family; o200k is a close, stable estimate.
//
// Loaded on the first count, never at start: the tokenizer's tables cost ~66 MB of RSS and ~120 ms to load
// (docs/cli.md, "How the CLI ships"), and most processes (`mooring mcp call`, `mooring serve` relaying
// tools) never estimate a token. A synchronous require keeps every caller synchronous; bundlers leave it
// alone, so the package is read from node_modules at run time (it is a production dependency).
import { createRequire } from 'node:module';

let count: ((text: string) => number) | undefined;

/** Tokens in `text` (o200k_base). The first call loads the tokenizer. */
export function countTokens(text: string): number {
  count ??= (createRequire(import.meta.url)('gpt-tokenizer') as typeof import('gpt-tokenizer')).countTokens;
  return count(text);
}
