// Ollama's native /api/chat through the official `ollama` library (ARCHITECTURE.md, `agent/`). Streaming is NDJSON;
// a tool call arrives whole in `message.tool_calls[].function` with `arguments` as an object.
import type { Message, Ollama, Tool } from 'ollama';
import type { ContentPart } from '@shared/chat';
import { MooringError } from '../../errors';
import { loadOllama } from '../lazy';
import { lookupCapabilities, type CapabilityOverrides } from './modelCapabilities';
import { toProviderError } from './providerErrors';
import type { ChatProvider, ListedModel, ModelMessage, ProviderEvent, ProviderRequest } from './types';
import { DEFAULT_PROVIDER_URLS } from '@shared/providers';

export interface OllamaProviderOptions {
  baseUrl?: string;
  capabilityOverrides?: CapabilityOverrides;
}

function split(parts: ContentPart[]): { content: string; images: string[] } {
  const text = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
  const images = parts.flatMap((p) => (p.type === 'image' ? [p.data] : []));
  return { content: text, images };
}

export function toOllamaMessages(system: string | undefined, messages: ModelMessage[]): Message[] {
  const out: Message[] = system ? [{ role: 'system', content: system }] : [];
  for (const m of messages) {
    if (m.role === 'assistant') {
      out.push({
        role: 'assistant',
        content: m.text,
        ...(m.toolCalls.length
          ? { tool_calls: m.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } })) }
          : {}),
      });
      continue;
    }
    const { content, images } = split(m.content);
    const base: Message =
      m.role === 'tool' ? { role: 'tool', content, tool_name: m.name } : { role: 'user', content };
    out.push(images.length ? { ...base, images } : base);
  }
  return out;
}

export class OllamaProvider implements ChatProvider {
  readonly id = 'ollama';
  readonly baseUrl: string;
  private readonly overrides: CapabilityOverrides;

  constructor(opts: OllamaProviderOptions = {}) {
    this.baseUrl = (opts.baseUrl ?? DEFAULT_PROVIDER_URLS.ollama).replace(/\/+$/, '');
    this.overrides = opts.capabilityOverrides ?? {};
  }

  capabilities(model: string) {
    return lookupCapabilities('ollama', model, this.overrides);
  }

  /** One client per request, its fetch bound to the caller's signal, so cancel also stops the connect. */
  private async client(signal?: AbortSignal): Promise<Ollama> {
    const { Ollama } = await loadOllama();
    return new Ollama({
      host: this.baseUrl,
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          signal: signal && init?.signal ? AbortSignal.any([signal, init.signal]) : (signal ?? init?.signal),
        }),
    });
  }

  private fail(err: unknown, model: string, signal?: AbortSignal): MooringError {
    return toProviderError(err, {
      label: 'Ollama',
      baseUrl: this.baseUrl,
      model,
      signal,
      connectHint: 'Start Ollama, or choose another provider in Settings > Models',
    });
  }

  /** `/api/tags` says nothing of images (only `/api/show` does, one request per model): the table decides. */
  async listModels(signal?: AbortSignal): Promise<ListedModel[]> {
    try {
      const res = await (await this.client(signal)).list();
      return res.models.map((m) => ({ name: m.name }));
    } catch (err) {
      throw this.fail(err, '', signal);
    }
  }

  async *stream(req: ProviderRequest): AsyncIterable<ProviderEvent> {
    const tools: Tool[] = req.tools.map((t) => ({
      type: 'function',
      function: {
        name: t.name,
        description: t.description ?? '',
        parameters: t.inputSchema as Tool['function']['parameters'],
      },
    }));
    let seq = 0;
    try {
      const stream = await (
        await this.client(req.signal)
      ).chat({
        model: req.model,
        messages: toOllamaMessages(req.system, req.messages),
        ...(tools.length ? { tools } : {}),
        stream: true,
      });
      for await (const chunk of stream) {
        if (chunk.message?.content) yield { type: 'text', text: chunk.message.content };
        for (const tc of chunk.message?.tool_calls ?? []) {
          const id = (tc as { id?: string }).id ?? `ollama_call_${Date.now().toString(36)}_${seq++}`;
          const args = tc.function.arguments;
          const valid = args && typeof args === 'object' && !Array.isArray(args);
          yield {
            type: 'tool-call',
            call: { id, name: tc.function.name, arguments: valid ? args : {} },
            ...(valid
              ? {}
              : { invalidArguments: `arguments must be a JSON object, got ${JSON.stringify(args)}` }),
          };
        }
        if (chunk.done) {
          yield {
            type: 'done',
            stopReason: chunk.done_reason ?? 'stop',
            usage: { inputTokens: chunk.prompt_eval_count, outputTokens: chunk.eval_count },
          };
        }
      }
    } catch (err) {
      throw this.fail(err, req.model, req.signal);
    }
    // Some SDKs end an aborted stream quietly; the loop must still see the cancel.
    if (req.signal?.aborted)
      throw this.fail(new DOMException('aborted', 'AbortError'), req.model, req.signal);
  }
}
