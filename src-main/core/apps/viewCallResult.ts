// A tool's result as a view gets it (docs/mcp-apps.md, "MCP Apps", Act): the normalised result back in the protocol's
// shape.
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ToolResult } from '@shared/toolResult';

/** The normalised result back in the protocol's shape, for the view (images and audio as base64). */
export function toCallToolResult(result: ToolResult): CallToolResult {
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
  const content = result.parts.flatMap((p): Record<string, unknown>[] => {
    if (p.kind === 'text') return [{ type: 'text' as const, text: p.text }];
    if (p.kind === 'image' || p.kind === 'audio')
      return [{ type: p.kind, mimeType: p.mimeType, data: b64(p.bytes) }];
    if (p.kind === 'resource_link') {
      const { kind: _kind, ...rest } = p;
      return [{ type: 'resource_link' as const, ...rest }];
    }
    if (p.kind === 'resource')
      return [
        {
          type: 'resource' as const,
          resource:
            p.text !== undefined
              ? { uri: p.uri, text: p.text, ...(p.mimeType ? { mimeType: p.mimeType } : {}) }
              : {
                  uri: p.uri,
                  blob: b64(p.bytes ?? new Uint8Array()),
                  ...(p.mimeType ? { mimeType: p.mimeType } : {}),
                },
        },
      ];
    return [];
  });
  return {
    content: content as CallToolResult['content'],
    isError: result.isError,
    ...(result.structured !== undefined ? { structuredContent: result.structured } : {}),
  };
}
