// Neutral messages → each wire format, image parts included.
import { describe, expect, it } from 'vitest';
import { toAnthropicMessages } from './anthropicProvider';
import { toOllamaMessages } from './ollamaProvider';
import { toOpenAIMessages } from './openaiProvider';
import type { ModelMessage } from './types';

const img = { type: 'image' as const, mimeType: 'image/png', data: 'iVBORw0KGgo=' };
const messages: ModelMessage[] = [
  { role: 'user', content: [{ type: 'text', text: 'What is this?' }, img] },
  { role: 'assistant', text: 'Looking.', toolCalls: [{ id: 'c1', name: 'zoom', arguments: { level: 2 } }] },
  {
    role: 'tool',
    toolCallId: 'c1',
    name: 'zoom',
    content: [{ type: 'text', text: 'zoomed' }, img],
    isError: false,
  },
];

describe('wire conversion', () => {
  it('Ollama: images as base64 lists, tool calls with object arguments, results by tool_name', () => {
    expect(toOllamaMessages('be brief', messages)).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'What is this?', images: ['iVBORw0KGgo='] },
      {
        role: 'assistant',
        content: 'Looking.',
        tool_calls: [{ function: { name: 'zoom', arguments: { level: 2 } } }],
      },
      { role: 'tool', content: 'zoomed', tool_name: 'zoom', images: ['iVBORw0KGgo='] },
    ]);
  });

  it('OpenAI: data-URL image parts, JSON-string arguments, tool images after the tool messages', () => {
    const out = toOpenAIMessages(undefined, messages);
    expect(out[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      ],
    });
    expect(out[1]).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'c1', function: { name: 'zoom', arguments: '{"level":2}' } }],
    });
    expect(out[2]).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'zoomed' });
    expect(out[3]).toMatchObject({ role: 'user', content: [{ type: 'text' }, { type: 'image_url' }] });
  });

  it('Anthropic: base64 image blocks, tool_use with input, tool_result carrying the image', () => {
    const out = toAnthropicMessages([
      ...messages,
      { role: 'user', content: [{ type: 'text', text: 'and?' }] },
    ]);
    expect(out).toHaveLength(3);
    expect(out[0]!.content).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
    ]);
    expect(out[1]!.content).toEqual([
      { type: 'text', text: 'Looking.' },
      { type: 'tool_use', id: 'c1', name: 'zoom', input: { level: 2 } },
    ]);
    // The tool result and the next user text share one user turn: turns must alternate.
    expect(out[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'c1',
          content: [
            { type: 'text', text: 'zoomed' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          ],
        },
        { type: 'text', text: 'and?' },
      ],
    });
  });

  it('Anthropic: an image type the API does not take becomes a placeholder, not base64 text', () => {
    const [m] = toAnthropicMessages([
      { role: 'user', content: [{ type: 'image', mimeType: 'image/bmp', data: 'Qk0=' }] },
    ]);
    expect(m!.content).toEqual([{ type: 'text', text: '[image: image/bmp, 2 B]' }]);
  });
});
