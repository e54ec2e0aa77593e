// Token counts with a real BPE tokenizer (gpt-tokenizer, o200k_base): the yardstick for tool schemas in a
// prompt (catalog/tokenCost.ts) and for the sampling budget (clientFeatures/samplingBudget.ts). Exact counts
// differ per model family; o200k is a close, stable estimate.
//
// Loaded on the first count, never at start: the tokenizer's tables cost ~66 MB of RSS and ~120 ms to load
// (ARCHITECTURE.md, "How the CLI ships"), and most processes (`mooring mcp call`, `mooring serve` relaying
// tools) never estimate a token. A synchronous require keeps every caller synchronous; bundlers leave it
// alone, so the package is read from node_modules at run time (it is a production dependency).
import { createRequire } from 'node:module';

let count: ((text: string) => number) | undefined;

/**
 * Characters of one string counted exactly; past them the count is estimated at the rate of the counted
 * part. A server's description or a sampling request may be megabytes, and the count runs on every catalog
 * build: it must stay bounded.
 */
export const COUNTED_CHARS = 65_536;
/**
 * BPE merges within one pre-tokenized word take time that grows with the square of its length (one 80,000-
 * character word took seconds): a run of non-space characters longer than this is counted in slices this
 * long, which keeps the count linear and changes it by at most a token per slice.
 */
export const LONGEST_RUN = 200;
const LONG_RUN = new RegExp(`\\S{${LONGEST_RUN + 1},}`, 'g');

/** Tokens in `text` (o200k_base), in time linear in its length and bounded. The first call loads the tokenizer. */
export function countTokens(text: string): number {
  count ??= (createRequire(import.meta.url)('gpt-tokenizer') as typeof import('gpt-tokenizer')).countTokens;
  if (text.length <= COUNTED_CHARS) return countRuns(count, text);
  const exact = countRuns(count, text.slice(0, COUNTED_CHARS));
  return exact + Math.ceil((exact / COUNTED_CHARS) * (text.length - COUNTED_CHARS));
}

function countRuns(bpe: (text: string) => number, text: string): number {
  let total = 0;
  let at = 0;
  for (const m of text.matchAll(LONG_RUN)) {
    total += bpe(text.slice(at, m.index));
    for (let i = 0; i < m[0].length; i += LONGEST_RUN) total += bpe(m[0].slice(i, i + LONGEST_RUN));
    at = m.index + m[0].length;
  }
  return total + (at === 0 ? bpe(text) : bpe(text.slice(at)));
}
