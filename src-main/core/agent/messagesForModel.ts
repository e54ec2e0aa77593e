// Stored conversation → what the model is sent (ARCHITECTURE.md, `agent/`). One place for the rules
// that hold across providers: notes are never sent; a non-vision model gets `[image: image/png, 5 KB]`
// in place of an image (never base64 as text); a failed or refused call reads as one sentence the model
// can react to; arguments the user edited before approving are named in the result, so the model knows
// what ran; a text-protocol model sees its calls as `MCP:` lines and results as user messages; what a tool
// returned goes inside a block naming its origin (resultFraming.ts).
import { imagePlaceholder, type ChatMessage, type ContentPart, type ToolChatMessage } from '@shared/chat';
import { cutResult, leftOutResult, type ResultLimits } from './largeResults';
import { fitImage, type ImageLimits } from './modelImages';
import { frameResult } from './resultFraming';
import { TEXT_PROTOCOL_PREFIX } from './textToolProtocol';
import type { ModelCapabilities, ModelMessage } from './providers/types';

/** What the request may hold (largeResults.ts, modelImages.ts); without them, everything goes as stored. */
export interface RequestLimits {
  results?: ResultLimits;
  images?: ImageLimits;
}

/** The step's text framed once: the runtime stores the reason alone, this says what it means. */
export function toolResultText(
  m: Pick<ToolChatMessage, 'name' | 'status' | 'text' | 'editedArguments' | 'target' | 'resultIsError'>,
): string {
  const edited = m.editedArguments
    ? `Note: the user edited your arguments before approving this call; it ran with ${JSON.stringify(m.editedArguments)}.\n`
    : '';
  // What a tool returned is data, in its block (resultFraming.ts); Mooring's own sentences stay outside.
  const framed = () => frameResult(m.text, m.target ?? { tool: m.name });
  if (m.status === 'failed')
    return `${edited}Tool ${m.name} failed: ${m.resultIsError ? framed() : m.text}\nAnswer without it, or try another way.`;
  if (m.status === 'refused') return `Tool ${m.name} was refused: ${m.text}\nAnswer without it.`;
  return edited + framed();
}

function imagesFor(
  images: { mimeType: string; data: string }[] | undefined,
  vision: boolean,
  limits: ImageLimits | undefined,
): ContentPart[] {
  return (images ?? []).map((i) => {
    if (!vision) return { type: 'text', text: imagePlaceholder(i.mimeType, i.data) };
    const image = { type: 'image' as const, mimeType: i.mimeType, data: i.data };
    return limits ? fitImage(image, limits) : image;
  });
}

function userContent(parts: ContentPart[], vision: boolean, limits: ImageLimits | undefined): ContentPart[] {
  return parts.map((p) => {
    if (p.type !== 'image') return p;
    if (!vision) return { type: 'text', text: imagePlaceholder(p.mimeType, p.data) };
    return limits ? fitImage(p, limits) : p;
  });
}

/**
 * The text each tool step is sent with: cut to the result limit, and — newest first — left out once all the
 * results of the request would pass the request's limit (the newest is always kept).
 */
function resultTexts(messages: ChatMessage[], limits: ResultLimits | undefined): Map<ChatMessage, string> {
  const texts = new Map<ChatMessage, string>();
  if (!limits) return texts;
  let total = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'tool') continue;
    const cut = cutResult(m, limits);
    total += cut.length;
    texts.set(m, total > limits.requestChars && total !== cut.length ? leftOutResult(m) : cut);
  }
  return texts;
}

/**
 * A crash or cancel can leave an assistant's tool calls without results; every provider rejects that,
 * so the missing results are filled in. Whether such a call reached its server is not known (a process
 * killed with SIGKILL after the audit line, before the result was saved): the model is told the outcome is
 * unknown, never "not run", which would invite it to run the call a second time.
 */
export const OUTCOME_UNKNOWN =
  'outcome unknown: Mooring stopped after this call was requested and before its result was saved, so it may or may not have run. Check whether it took effect before calling it again.';

function withMissingResults(messages: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    out.push(m);
    if (m.role !== 'assistant' || !m.toolCalls.length) continue;
    const answered = new Set<string>();
    while (messages[i + 1]?.role === 'tool' || messages[i + 1]?.role === 'note') {
      const next = messages[++i]!;
      if (next.role === 'tool') answered.add(next.toolCallId);
      out.push(next);
    }
    for (const c of m.toolCalls) {
      if (answered.has(c.id)) continue;
      out.push({
        id: `${c.id}-missing`,
        at: m.at,
        role: 'tool',
        toolCallId: c.id,
        name: c.name,
        status: 'failed',
        text: OUTCOME_UNKNOWN,
      });
    }
  }
  return out;
}

export function messagesForModel(
  messages: ChatMessage[],
  caps: ModelCapabilities,
  limits: RequestLimits = {},
): ModelMessage[] {
  const out: ModelMessage[] = [];
  const all = withMissingResults(messages);
  const texts = resultTexts(all, limits.results);
  for (const m of all) {
    switch (m.role) {
      case 'note':
        break;
      case 'user':
        out.push({
          role: 'user',
          content: userContent(
            m.origin === 'app' && m.app
              ? [
                  {
                    type: 'text',
                    text: `[Sent by the ${m.app.server} app's ${m.app.tool} view, not typed by the user]`,
                  },
                  ...m.content,
                ]
              : m.content,
            caps.vision,
            limits.images,
          ),
        });
        break;
      case 'assistant':
        if (caps.tools) out.push({ role: 'assistant', text: m.text, toolCalls: m.toolCalls });
        else {
          const lines = m.toolCalls.map(
            (c) => `${TEXT_PROTOCOL_PREFIX} ${c.name} ${JSON.stringify(c.arguments)}`,
          );
          out.push({ role: 'assistant', text: [m.text, ...lines].filter(Boolean).join('\n'), toolCalls: [] });
        }
        break;
      case 'tool': {
        const content: ContentPart[] = [
          { type: 'text', text: toolResultText({ ...m, text: texts.get(m) ?? m.text }) },
          ...imagesFor(m.images, caps.vision, limits.images),
        ];
        if (caps.tools) {
          out.push({
            role: 'tool',
            toolCallId: m.toolCallId,
            name: m.name,
            content,
            isError: m.status !== 'done',
          });
        } else {
          out.push({ role: 'user', content: [{ type: 'text', text: `Result of ${m.name}:` }, ...content] });
        }
        break;
      }
    }
  }
  return out;
}
