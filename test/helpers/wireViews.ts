// Reads recorded provider requests back into one neutral view, so one acceptance test can assert
// what the model was sent through any of the three wire formats.
/* eslint-disable @typescript-eslint/no-explicit-any -- recorded wire bodies */

export interface WireView {
  system(body: any): string;
  toolNames(body: any): string[];
  /** Tool results the request carries, with their text and whether they were marked as errors. */
  toolResults(body: any): { id: string; text: string; isError?: boolean }[];
  /** Base64 payloads of every native image block in the request. */
  images(body: any): string[];
  /** Text of every user-side message, in order. */
  userTexts(body: any): string[];
}

/** The text of a message's content: a string, or its text parts joined by lines. */
export const textOfParts = (c: any): string =>
  typeof c === 'string'
    ? c
    : Array.isArray(c)
      ? c
          .filter((p) => p.type === 'text')
          .map((p) => p.text)
          .join('\n')
      : '';

export const ollamaView: WireView = {
  system: (b) =>
    b.messages
      .filter((m: any) => m.role === 'system')
      .map((m: any) => m.content)
      .join('\n'),
  toolNames: (b) => (b.tools ?? []).map((t: any) => t.function.name),
  toolResults: (b) =>
    b.messages.filter((m: any) => m.role === 'tool').map((m: any) => ({ id: m.tool_name, text: m.content })),
  images: (b) => b.messages.flatMap((m: any) => m.images ?? []),
  userTexts: (b) => b.messages.filter((m: any) => m.role === 'user').map((m: any) => m.content),
};

export const openaiView: WireView = {
  system: (b) =>
    b.messages
      .filter((m: any) => m.role === 'system')
      .map((m: any) => textOfParts(m.content))
      .join('\n'),
  toolNames: (b) => (b.tools ?? []).map((t: any) => t.function.name),
  toolResults: (b) =>
    b.messages
      .filter((m: any) => m.role === 'tool')
      .map((m: any) => ({ id: m.tool_call_id, text: textOfParts(m.content) })),
  images: (b) =>
    b.messages.flatMap((m: any) =>
      Array.isArray(m.content)
        ? m.content
            .filter((p: any) => p.type === 'image_url')
            .map((p: any) => String(p.image_url.url).split(',')[1])
        : [],
    ),
  userTexts: (b) => b.messages.filter((m: any) => m.role === 'user').map((m: any) => textOfParts(m.content)),
};

const anthropicBlocks = (b: any): any[] =>
  b.messages.flatMap((m: any) =>
    Array.isArray(m.content) ? m.content : [{ type: 'text', text: m.content }],
  );

export const anthropicView: WireView = {
  system: (b) => (typeof b.system === 'string' ? b.system : textOfParts(b.system ?? [])),
  toolNames: (b) => (b.tools ?? []).map((t: any) => t.name),
  toolResults: (b) =>
    anthropicBlocks(b)
      .filter((c) => c.type === 'tool_result')
      .map((c) => ({ id: c.tool_use_id, text: textOfParts(c.content), isError: c.is_error === true })),
  images: (b) =>
    anthropicBlocks(b).flatMap((c) =>
      c.type === 'image'
        ? [c.source.data]
        : c.type === 'tool_result' && Array.isArray(c.content)
          ? c.content.filter((p: any) => p.type === 'image').map((p: any) => p.source.data)
          : [],
    ),
  userTexts: (b) =>
    b.messages
      .filter((m: any) => m.role === 'user')
      .map((m: any) =>
        typeof m.content === 'string'
          ? m.content
          : m.content
              .map((c: any) =>
                c.type === 'text' ? c.text : c.type === 'tool_result' ? textOfParts(c.content) : '',
              )
              .join('\n'),
      ),
};
