// Between Mooring's normalised ToolResult (shared/toolResult.ts) and the wire's CallToolResult, for tools
// relayed to external MCP clients; and the one way a Mooring error becomes a tool error result (MCP spec,
// "Error handling": a failed or refused call is a result with isError, so the client's model reads why).
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ToolResult } from '@shared/toolResult';
import { toErrorData } from '../errors';

const b64 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

export function toCallToolResult(result: ToolResult): CallToolResult {
  const content: CallToolResult['content'] = result.parts.map((p) => {
    switch (p.kind) {
      case 'text':
        return { type: 'text', text: p.text };
      case 'image':
      case 'audio':
        return { type: p.kind, mimeType: p.mimeType, data: b64(p.bytes) };
      case 'resource_link':
        return {
          type: 'resource_link',
          uri: p.uri,
          name: p.name,
          ...(p.title ? { title: p.title } : {}),
          ...(p.description ? { description: p.description } : {}),
          ...(p.mimeType ? { mimeType: p.mimeType } : {}),
        };
      case 'resource':
        return {
          type: 'resource',
          resource:
            p.bytes !== undefined
              ? { uri: p.uri, blob: b64(p.bytes), ...(p.mimeType ? { mimeType: p.mimeType } : {}) }
              : { uri: p.uri, text: p.text ?? '', ...(p.mimeType ? { mimeType: p.mimeType } : {}) },
        };
      default:
        return { type: 'text', text: `[a "${p.type}" content block Mooring cannot relay]` };
    }
  });
  return {
    content,
    ...(result.isError ? { isError: true } : {}),
    ...(result.structured !== undefined && typeof result.structured === 'object' && result.structured !== null
      ? { structuredContent: result.structured as Record<string, unknown> }
      : {}),
  };
}

/** A tool error result: the message, then what to do about it. */
export function errorResult(err: unknown): CallToolResult {
  const e = toErrorData(err);
  return {
    isError: true,
    content: [{ type: 'text', text: e.hint ? `${e.message}\n${e.hint}` : e.message }],
    _meta: { 'mooring/error': e },
  };
}

export const textResult = (text: string, structured?: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text }],
  ...(structured ? { structuredContent: structured } : {}),
});
