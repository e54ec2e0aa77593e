// Server-initiated sampling (MCP spec, "Sampling") answered by the user's model: the approved request becomes one
// provider request without tools, and the streamed text its result.
import type { ContentPart } from '@shared/chat';
import type { SamplingComplete } from '../clientFeatures';
import type { ChatProvider, ModelMessage } from './providers/types';

type SamplingContent = { type: string; text?: string; data?: string; mimeType?: string };

function parts(content: SamplingContent | SamplingContent[]): ContentPart[] {
  return (Array.isArray(content) ? content : [content]).flatMap((c): ContentPart[] => {
    if (c.type === 'text' && typeof c.text === 'string') return [{ type: 'text', text: c.text }];
    if (c.type === 'image' && c.data && c.mimeType)
      return [{ type: 'image', mimeType: c.mimeType, data: c.data }];
    return [{ type: 'text', text: `[${c.type} content omitted]` }];
  });
}

export function providerCompletion(provider: ChatProvider, model: string): SamplingComplete {
  return async (request, { signal }) => {
    const messages: ModelMessage[] = request.messages.map((m) =>
      m.role === 'user'
        ? { role: 'user', content: parts(m.content as SamplingContent) }
        : {
            role: 'assistant',
            text: parts(m.content as SamplingContent)
              .map((p) => (p.type === 'text' ? p.text : ''))
              .join(''),
            toolCalls: [],
          },
    );
    let text = '';
    let usage: { inputTokens: number; outputTokens: number } | undefined;
    let stopReason = 'endTurn';
    for await (const ev of provider.stream({
      model,
      messages,
      tools: [],
      signal,
      ...(request.systemPrompt ? { system: request.systemPrompt } : {}),
    })) {
      if (ev.type === 'text') text += ev.text;
      else if (ev.type === 'done') {
        stopReason = ev.stopReason === 'max_tokens' || ev.stopReason === 'length' ? 'maxTokens' : 'endTurn';
        if (ev.usage)
          usage = { inputTokens: ev.usage.inputTokens ?? 0, outputTokens: ev.usage.outputTokens ?? 0 };
      }
    }
    return {
      role: 'assistant',
      content: { type: 'text', text },
      model,
      stopReason,
      ...(usage ? { usage } : {}),
    };
  };
}
