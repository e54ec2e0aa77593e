// Any OpenAI-compatible /v1/chat/completions endpoint (OpenAI, LM Studio, llama.cpp, vLLM,
// OpenRouter, Ollama's /v1) through the official `openai` library (ARCHITECTURE.md, `agent/`).
// Streaming is SSE; a tool call arrives as fragments in `choices[0].delta.tool_calls[i]` keyed by `index`, the first
// carrying id and name, the rest pieces of the arguments string.
import type OpenAI from 'openai';
import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ContentPart } from '@shared/chat';
import { MooringError } from '../../errors';
import { loadOpenAI } from '../lazy';
import { lookupCapabilities, type CapabilityOverrides } from './modelCapabilities';
import { parseToolArguments, toProviderError } from './providerErrors';
import type { ChatProvider, ListedModel, ModelMessage, ProviderEvent, ProviderRequest } from './types';
import { DEFAULT_PROVIDER_URLS } from '@shared/providers';

export interface OpenAIProviderOptions {
  baseUrl?: string;
  apiKey?: string;
  capabilityOverrides?: CapabilityOverrides;
}

const textOf = (parts: ContentPart[]) => parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
const imageUrl = (p: { mimeType: string; data: string }): ChatCompletionContentPart => ({
  type: 'image_url',
  image_url: { url: `data:${p.mimeType};base64,${p.data}` },
});

/**
 * Tool messages take text only on this wire, so a tool's images follow the run of tool messages as
 * one user message (a user message between tool messages would break the tool_calls pairing).
 */
export function toOpenAIMessages(
  system: string | undefined,
  messages: ModelMessage[],
): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = system ? [{ role: 'system', content: system }] : [];
  let pendingImages: ChatCompletionContentPart[] = [];
  const flush = () => {
    if (!pendingImages.length) return;
    out.push({
      role: 'user',
      content: [{ type: 'text', text: 'Images returned by the tools above:' }, ...pendingImages],
    });
    pendingImages = [];
  };
  for (const m of messages) {
    if (m.role !== 'tool') flush();
    if (m.role === 'assistant') {
      out.push({
        role: 'assistant',
        content: m.text || null,
        ...(m.toolCalls.length
          ? {
              tool_calls: m.toolCalls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: JSON.stringify(c.arguments) },
              })),
            }
          : {}),
      });
    } else if (m.role === 'tool') {
      out.push({ role: 'tool', tool_call_id: m.toolCallId, content: textOf(m.content) });
      for (const p of m.content) if (p.type === 'image') pendingImages.push(imageUrl(p));
    } else if (m.content.every((p) => p.type === 'text')) {
      out.push({ role: 'user', content: textOf(m.content) });
    } else {
      out.push({
        role: 'user',
        content: m.content.map((p) =>
          p.type === 'text' ? { type: 'text' as const, text: p.text } : imageUrl(p),
        ),
      });
    }
  }
  flush();
  return out;
}

export class OpenAIProvider implements ChatProvider {
  readonly id = 'openai';
  readonly baseUrl: string;
  private readonly overrides: CapabilityOverrides;
  private readonly apiKey: string | undefined;
  /** The SDK's client, made on the first request (agent/lazy.ts). */
  private sdk?: Promise<OpenAI>;

  constructor(opts: OpenAIProviderOptions = {}) {
    this.baseUrl = (opts.baseUrl ?? DEFAULT_PROVIDER_URLS.openai).replace(/\/+$/, '');
    this.overrides = opts.capabilityOverrides ?? {};
    if (!opts.apiKey && this.baseUrl === DEFAULT_PROVIDER_URLS.openai) {
      throw new MooringError(
        'auth_required',
        'No OpenAI API key is set',
        'Add the key in Settings > Models, or set OPENAI_API_KEY',
      );
    }
    this.apiKey = opts.apiKey;
  }

  private client(): Promise<OpenAI> {
    // Local compatible servers take no key, but the SDK insists on one.
    return (this.sdk ??= loadOpenAI().then(
      ({ default: OpenAI }) =>
        new OpenAI({ baseURL: this.baseUrl, apiKey: this.apiKey || 'not-needed', maxRetries: 0 }),
    ));
  }

  capabilities(model: string) {
    return lookupCapabilities('openai', model, this.overrides);
  }

  private fail(err: unknown, model: string, signal?: AbortSignal): MooringError {
    return toProviderError(err, {
      label: 'The OpenAI-compatible endpoint',
      baseUrl: this.baseUrl,
      model,
      signal,
      authHint: 'Check the API key in Settings > Models, or OPENAI_API_KEY',
      connectHint:
        'Start the server at that address (LM Studio, llama.cpp, vLLM…), or correct the Base URL in Settings > Models (or MOORING_OPENAI_BASE_URL)',
    });
  }

  /**
   * `/v1/models`; where an entry says what it takes as input (OpenRouter's `architecture.input_modalities`),
   * whether it takes images comes from there.
   */
  async listModels(signal?: AbortSignal): Promise<ListedModel[]> {
    try {
      const ids: ListedModel[] = [];
      for await (const m of (await this.client()).models.list({ signal })) {
        const inputs = (m as { architecture?: { input_modalities?: unknown } }).architecture
          ?.input_modalities;
        ids.push({ name: m.id, ...(Array.isArray(inputs) ? { vision: inputs.includes('image') } : {}) });
      }
      return ids;
    } catch (err) {
      throw this.fail(err, '', signal);
    }
  }

  async *stream(req: ProviderRequest): AsyncIterable<ProviderEvent> {
    const tools: ChatCompletionTool[] = req.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description ?? '', parameters: t.inputSchema },
    }));
    const calls = new Map<number, { id: string; name: string; args: string }>();
    let stopReason = 'stop';
    let usage: { inputTokens?: number; outputTokens?: number } | undefined;
    try {
      const stream = await (
        await this.client()
      ).chat.completions.create(
        {
          model: req.model,
          messages: toOpenAIMessages(req.system, req.messages),
          ...(tools.length ? { tools } : {}),
          ...(tools.length && req.toolChoice === 'required' ? { tool_choice: 'required' as const } : {}),
          stream: true,
          stream_options: { include_usage: true },
        },
        { signal: req.signal },
      );
      for await (const chunk of stream) {
        if (chunk.usage)
          usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
        const choice = chunk.choices[0];
        if (!choice) continue;
        if (choice.delta?.content) yield { type: 'text', text: choice.delta.content };
        for (const frag of choice.delta?.tool_calls ?? []) {
          const call = calls.get(frag.index) ?? { id: '', name: '', args: '' };
          if (frag.id) call.id = frag.id;
          if (frag.function?.name) call.name += frag.function.name;
          calls.set(frag.index, call);
          if (frag.function?.arguments) {
            call.args += frag.function.arguments;
            yield {
              type: 'tool-call-delta',
              key: String(frag.index),
              id: call.id || `openai_call_${frag.index}`,
              name: call.name,
              argumentsText: call.args,
            };
          }
        }
        if (choice.finish_reason) stopReason = choice.finish_reason;
      }
    } catch (err) {
      throw this.fail(err, req.model, req.signal);
    }
    if (req.signal?.aborted)
      throw this.fail(new DOMException('aborted', 'AbortError'), req.model, req.signal);
    for (const [index, c] of [...calls.entries()].sort((a, b) => a[0] - b[0])) {
      const parsed = parseToolArguments(c.args);
      yield {
        type: 'tool-call',
        call: { id: c.id || `openai_call_${index}`, name: c.name, arguments: parsed.arguments },
        ...(parsed.invalid ? { invalidArguments: parsed.invalid } : {}),
      };
    }
    yield { type: 'done', stopReason, ...(usage ? { usage } : {}) };
  }
}
