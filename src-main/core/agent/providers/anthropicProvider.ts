// Anthropic /v1/messages through the official `@anthropic-ai/sdk` (ARCHITECTURE.md, `agent/`).
// Streaming is SSE: message_start, content_block_start (text | tool_use), content_block_delta (text_delta |
// input_json_delta), content_block_stop, message_delta (stop_reason, usage), message_stop.
import type Anthropic from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import { imagePlaceholder, type ContentPart } from '@shared/chat';
import { MooringError } from '../../errors';
import { loadAnthropic } from '../lazy';
import { lookupCapabilities, type CapabilityOverrides } from './modelCapabilities';
import { parseToolArguments, toProviderError } from './providerErrors';
import type { ChatProvider, ListedModel, ModelMessage, ProviderEvent, ProviderRequest } from './types';
import { DEFAULT_PROVIDER_URLS } from '@shared/providers';

const DEFAULT_MAX_TOKENS = 4096;
const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type MediaType = (typeof MEDIA_TYPES)[number];

export interface AnthropicProviderOptions {
  baseUrl?: string;
  apiKey?: string;
  maxTokens?: number;
  capabilityOverrides?: CapabilityOverrides;
}

function toBlocks(parts: ContentPart[]): (TextBlockParam | ImageBlockParam)[] {
  return parts.map((p) => {
    if (p.type === 'text') return { type: 'text', text: p.text };
    if ((MEDIA_TYPES as readonly string[]).includes(p.mimeType)) {
      return { type: 'image', source: { type: 'base64', media_type: p.mimeType as MediaType, data: p.data } };
    }
    // The API takes four image types; anything else is described, never sent as base64 text.
    return { type: 'text', text: imagePlaceholder(p.mimeType, p.data) };
  });
}

/** Tool results travel in a user turn; consecutive user-side messages merge, since turns alternate. */
export function toAnthropicMessages(messages: ModelMessage[]): MessageParam[] {
  const out: MessageParam[] = [];
  const pushUser = (blocks: ContentBlockParam[]) => {
    const last = out[out.length - 1];
    if (last?.role === 'user' && Array.isArray(last.content)) last.content.push(...blocks);
    else out.push({ role: 'user', content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'assistant') {
      const content: ContentBlockParam[] = m.text ? [{ type: 'text', text: m.text }] : [];
      for (const c of m.toolCalls)
        content.push({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments });
      out.push({
        role: 'assistant',
        content: content.length ? content : [{ type: 'text', text: '(no reply)' }],
      });
    } else if (m.role === 'tool') {
      const result: ToolResultBlockParam = {
        type: 'tool_result',
        tool_use_id: m.toolCallId,
        content: toBlocks(m.content),
        ...(m.isError ? { is_error: true } : {}),
      };
      pushUser([result]);
    } else {
      pushUser(toBlocks(m.content));
    }
  }
  return out;
}

export class AnthropicProvider implements ChatProvider {
  readonly id = 'anthropic';
  readonly baseUrl: string;
  private readonly maxTokens: number;
  private readonly apiKey: string;
  /** The SDK's client, made on the first request (agent/lazy.ts). */
  private sdk?: Promise<Anthropic>;
  private readonly overrides: CapabilityOverrides;

  constructor(opts: AnthropicProviderOptions = {}) {
    this.baseUrl = (opts.baseUrl ?? DEFAULT_PROVIDER_URLS.anthropic).replace(/\/+$/, '');
    this.overrides = opts.capabilityOverrides ?? {};
    this.maxTokens = opts.maxTokens ?? DEFAULT_MAX_TOKENS;
    if (!opts.apiKey) {
      throw new MooringError(
        'auth_required',
        'No Anthropic API key is set',
        'Add the key in Settings > Models, or set ANTHROPIC_API_KEY',
      );
    }
    this.apiKey = opts.apiKey;
  }

  private client(): Promise<Anthropic> {
    return (this.sdk ??= loadAnthropic().then(
      ({ default: Anthropic }) =>
        new Anthropic({ baseURL: this.baseUrl, apiKey: this.apiKey, maxRetries: 0 }),
    ));
  }

  capabilities(model: string) {
    return lookupCapabilities('anthropic', model, this.overrides);
  }

  private fail(err: unknown, model: string, signal?: AbortSignal): MooringError {
    return toProviderError(err, {
      label: 'Anthropic',
      baseUrl: this.baseUrl,
      model,
      signal,
      authHint: 'Check the API key in Settings > Models, or ANTHROPIC_API_KEY',
      connectHint: 'Check the network connection, or the Base URL in Settings > Models',
    });
  }

  async listModels(signal?: AbortSignal): Promise<ListedModel[]> {
    try {
      const ids: ListedModel[] = [];
      for await (const m of (await this.client()).models.list({}, { signal })) ids.push({ name: m.id });
      return ids;
    } catch (err) {
      throw this.fail(err, '', signal);
    }
  }

  async *stream(req: ProviderRequest): AsyncIterable<ProviderEvent> {
    const tools: Tool[] = req.tools.map((t) => ({
      name: t.name,
      description: t.description ?? '',
      input_schema: { type: 'object', ...t.inputSchema } as Tool['input_schema'],
    }));
    // Tool-use blocks by content index: id and name from the start event, JSON from the deltas.
    const blocks = new Map<number, { id: string; name: string; json: string }>();
    let stopReason = 'end_turn';
    const usage: { inputTokens?: number; outputTokens?: number } = {};
    const done: ProviderEvent[] = [];
    try {
      const stream = await (
        await this.client()
      ).messages.create(
        {
          model: req.model,
          max_tokens: this.maxTokens,
          messages: toAnthropicMessages(req.messages),
          ...(req.system ? { system: req.system } : {}),
          ...(tools.length ? { tools } : {}),
          ...(tools.length && req.toolChoice === 'required' ? { tool_choice: { type: 'any' as const } } : {}),
          stream: true,
        },
        { signal: req.signal },
      );
      for await (const ev of stream) {
        if (ev.type === 'message_start') {
          usage.inputTokens = ev.message.usage?.input_tokens;
        } else if (ev.type === 'content_block_start' && ev.content_block.type === 'tool_use') {
          blocks.set(ev.index, { id: ev.content_block.id, name: ev.content_block.name, json: '' });
        } else if (ev.type === 'content_block_delta') {
          if (ev.delta.type === 'text_delta') yield { type: 'text', text: ev.delta.text };
          else if (ev.delta.type === 'input_json_delta') {
            const b = blocks.get(ev.index);
            if (b) {
              b.json += ev.delta.partial_json;
              yield {
                type: 'tool-call-delta',
                key: String(ev.index),
                id: b.id,
                name: b.name,
                argumentsText: b.json,
              };
            }
          }
        } else if (ev.type === 'content_block_stop') {
          const b = blocks.get(ev.index);
          if (b) {
            blocks.delete(ev.index);
            const parsed = parseToolArguments(b.json);
            done.push({
              type: 'tool-call',
              call: { id: b.id, name: b.name, arguments: parsed.arguments },
              ...(parsed.invalid ? { invalidArguments: parsed.invalid } : {}),
            });
          }
        } else if (ev.type === 'message_delta') {
          if (ev.delta.stop_reason) stopReason = ev.delta.stop_reason;
          usage.outputTokens = ev.usage.output_tokens;
        }
        // Completed tool calls go out as soon as their block closes.
        while (done.length) yield done.shift()!;
      }
    } catch (err) {
      throw this.fail(err, req.model, req.signal);
    }
    // The SDK ends an aborted stream without throwing (core/streaming.mjs): report the cancel.
    if (req.signal?.aborted)
      throw this.fail(new DOMException('aborted', 'AbortError'), req.model, req.signal);
    yield { type: 'done', stopReason, usage };
  }
}
