// Per-model capabilities: whether a model takes tools natively, and whether it takes images
// (ARCHITECTURE.md, `agent/`). A small table of name patterns per provider, first match wins; user overrides beat it.
// Unknown Ollama models default to no native tools: the text protocol works with any model, while a
// `tools` list sent to a model whose template lacks tools is rejected by Ollama.
import type { ModelCapabilities } from './types';

type Rule = [pattern: RegExp, caps: ModelCapabilities];

const TV: ModelCapabilities = { tools: true, vision: true };
const T: ModelCapabilities = { tools: true, vision: false };
const V: ModelCapabilities = { tools: false, vision: true };
const NONE: ModelCapabilities = { tools: false, vision: false };

const RULES: Record<string, Rule[]> = {
  ollama: [
    [/^llama3\.2-vision/, V],
    [/^(llama4|mistral-small3\.[12]|qwen2\.5vl|qwen3-vl)/, TV],
    [/^(llava|bakllava|minicpm-v|moondream|gemma3|granite3\.2-vision)/, V],
    [
      /^(llama3\.[123]|qwen2\.5|qwen3|mistral|mixtral|command-r|firefunction|hermes3|granite3|smollm2|phi4-mini|gpt-oss|deepseek-r1|nemotron)/,
      T,
    ],
  ],
  openai: [
    [/^(gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-5|o1|o3|o4)/, TV],
    [/^(gpt-4|gpt-3\.5)/, T],
  ],
  anthropic: [[/^claude-/, TV]],
};

const DEFAULTS: Record<string, ModelCapabilities> = {
  ollama: NONE,
  // OpenAI-compatible servers (LM Studio, vLLM, llama.cpp) mostly take tools; images are rarer.
  openai: T,
  anthropic: TV,
};

/** Overrides keyed by `provider:model` or by the bare model name; partial values patch the table. */
export type CapabilityOverrides = Record<string, Partial<ModelCapabilities>>;

export function lookupCapabilities(
  provider: string,
  model: string,
  overrides: CapabilityOverrides = {},
): ModelCapabilities {
  const name = model.toLowerCase();
  const rule = (RULES[provider] ?? []).find(([pattern]) => pattern.test(name));
  const base = rule ? rule[1] : (DEFAULTS[provider] ?? NONE);
  return { ...base, ...overrides[model], ...overrides[`${provider}:${model}`] };
}

/**
 * Context windows in tokens, first match wins (the providers' model pages). Ollama runs a model with the
 * server's own `num_ctx` unless told otherwise, so an unknown Ollama model gets a small window.
 */
const CONTEXT_RULES: Record<string, [RegExp, number][]> = {
  anthropic: [[/^claude-/, 200_000]],
  openai: [
    [/^gpt-4\.1/, 1_000_000],
    [/^gpt-5/, 400_000],
    [/^(o1|o3|o4)/, 200_000],
    [/^(gpt-4o|gpt-4-turbo)/, 128_000],
    [/^gpt-4/, 8_192],
    [/^gpt-3\.5/, 16_385],
  ],
  ollama: [],
};
const CONTEXT_DEFAULTS: Record<string, number> = { anthropic: 200_000, openai: 128_000, ollama: 8_192 };

/** The model's context window in tokens: the user's setting for `provider:model` (or the bare name), else the table. */
export function contextWindow(
  provider: string,
  model: string,
  overrides: Record<string, number> = {},
): number {
  const set = overrides[`${provider}:${model}`] ?? overrides[model];
  if (set) return set;
  const name = model.toLowerCase();
  const rule = (CONTEXT_RULES[provider] ?? []).find(([pattern]) => pattern.test(name));
  return rule ? rule[1] : (CONTEXT_DEFAULTS[provider] ?? 8_192);
}
