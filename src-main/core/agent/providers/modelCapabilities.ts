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
