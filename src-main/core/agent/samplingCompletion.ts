// Server-initiated sampling (MCP spec 2025-11-25, "Sampling") answered by the user's model: the approved request
// becomes one provider request and the streamed answer its result. A request may offer the model tools
// (`tools`, `toolChoice`): they are passed to the model as they are, and the model's calls come back as
// `tool_use` blocks with `stopReason: "toolUse"` for the server to run (Mooring never runs them); the server's
// next request carries their `tool_result`s, which become tool messages. `toolChoice: none` sends no tools.
import type { ContentPart, ToolCallRequest } from '@shared/chat';
import type { SamplingComplete, SamplingParams } from '../clientFeatures/sampling';
import type { ChatProvider, ModelMessage, ModelTool } from './providers/types';

type SamplingContent = {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  id?: string;
  name?: string;
  input?: unknown;
  toolUseId?: string;
  content?: SamplingContent[];
  isError?: boolean;
};

const blocks = (content: unknown): SamplingContent[] =>
  (Array.isArray(content) ? content : [content]) as SamplingContent[];

function parts(content: SamplingContent[]): ContentPart[] {
  return content.flatMap((c): ContentPart[] => {
    if (c.type === 'text' && typeof c.text === 'string') return [{ type: 'text', text: c.text }];
    if (c.type === 'image' && c.data && c.mimeType)
      return [{ type: 'image', mimeType: c.mimeType, data: c.data }];
    return [{ type: 'text', text: `[${c.type} content omitted]` }];
  });
}

/** One sampling message as the provider's neutral messages (tool results become tool messages). */
function toModelMessages(m: SamplingParams['messages'][number]): ModelMessage[] {
  const content = blocks(m.content);
  if (m.role === 'assistant') {
    const toolCalls: ToolCallRequest[] = content
      .filter((c) => c.type === 'tool_use' && c.id && c.name)
      .map((c) => ({
        id: c.id!,
        name: c.name!,
        arguments: (c.input && typeof c.input === 'object' ? c.input : {}) as Record<string, unknown>,
      }));
    const text = parts(content.filter((c) => c.type !== 'tool_use'))
      .map((p) => (p.type === 'text' ? p.text : ''))
      .join('');
    return [{ role: 'assistant', text, toolCalls }];
  }
  const results = content.filter((c) => c.type === 'tool_result');
  const rest = content.filter((c) => c.type !== 'tool_result');
  return [
    ...results.map((r): ModelMessage => ({
      role: 'tool',
      toolCallId: r.toolUseId ?? '',
      name: '',
      content: parts(r.content ?? []),
      isError: r.isError === true,
    })),
    ...(rest.length ? [{ role: 'user' as const, content: parts(rest) }] : []),
  ];
}

function modelTools(request: SamplingParams): ModelTool[] {
  if (!request.tools?.length || request.toolChoice?.mode === 'none') return [];
  return request.tools.map((t) => ({
    name: t.name,
    ...(t.description ? { description: t.description } : {}),
    inputSchema: t.inputSchema as Record<string, unknown>,
  }));
}

export function providerCompletion(provider: ChatProvider, model: string): SamplingComplete {
  return async (request, { signal }) => {
    const messages = request.messages.flatMap(toModelMessages);
    // A tool message needs the name of the call it answers (some providers send it): from the assistant turn.
    const names = new Map(
      messages.flatMap((m) =>
        m.role === 'assistant' ? m.toolCalls.map((c) => [c.id, c.name] as const) : [],
      ),
    );
    for (const m of messages) if (m.role === 'tool') m.name = names.get(m.toolCallId) ?? m.name;
    const tools = modelTools(request);
    let text = '';
    const calls: ToolCallRequest[] = [];
    let usage: { inputTokens: number; outputTokens: number } | undefined;
    let stopReason = 'endTurn';
    for await (const ev of provider.stream({
      model,
      messages,
      tools,
      ...(tools.length && request.toolChoice?.mode === 'required' ? { toolChoice: 'required' as const } : {}),
      signal,
      ...(request.systemPrompt ? { system: request.systemPrompt } : {}),
    })) {
      if (ev.type === 'text') text += ev.text;
      else if (ev.type === 'tool-call' && !ev.invalidArguments) calls.push(ev.call);
      else if (ev.type === 'done') {
        stopReason = ev.stopReason === 'max_tokens' || ev.stopReason === 'length' ? 'maxTokens' : 'endTurn';
        if (ev.usage)
          usage = { inputTokens: ev.usage.inputTokens ?? 0, outputTokens: ev.usage.outputTokens ?? 0 };
      }
    }
    const usageField = usage ? { usage } : {};
    if (!calls.length)
      return { role: 'assistant', content: { type: 'text', text }, model, stopReason, ...usageField };
    return {
      role: 'assistant',
      content: [
        ...(text ? [{ type: 'text' as const, text }] : []),
        ...calls.map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: c.arguments })),
      ],
      model,
      stopReason: 'toolUse',
      ...usageField,
    };
  };
}
