// The core's values as they cross the bridge (the shapes are in shared/wire.ts): bytes become base64
// once; the catalog's live handles and lazy getters stay in the core.
import type { ToolResult } from '@shared/toolResult';
import type { ToolCallEvent } from '@shared/toolCall';
import type { ToolOffReason, WirePart, WireTool, WireToolCallEvent, WireToolResult } from '@shared/wire';
import type { CatalogEntry } from '../catalog/catalog';

const b64 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

export function toWireResult(r: ToolResult): WireToolResult {
  const parts: WirePart[] = r.parts.map((p): WirePart => {
    switch (p.kind) {
      case 'image':
      case 'audio':
        return { kind: p.kind, mimeType: p.mimeType, base64: b64(p.bytes), size: p.size };
      case 'resource': {
        const { bytes, ...rest } = p;
        return bytes ? { ...rest, base64: b64(bytes) } : rest;
      }
      default:
        return p;
    }
  });
  return {
    isError: r.isError,
    parts,
    ...(r.structured !== undefined ? { structured: r.structured } : {}),
    ...(r.structuredInText ? { structuredInText: true } : {}),
    ...(r.structuredValidation ? { structuredValidation: r.structuredValidation } : {}),
  };
}

/**
 * A conversation's call leaves its result out: the conversation's saved step carries it to the UI (as a
 * `message-complete`), so its bytes cross the bridge once.
 */
export function toWireEvent(e: ToolCallEvent): WireToolCallEvent {
  const { result, ...rest } = e;
  return result && !e.conversationId ? { ...rest, result: toWireResult(result) } : rest;
}

/** `off`: why a tool is off (ToolsService.offReason); `icon`: its icon, already checked (MooringCore.iconOf). */
export function toWireTool(e: CatalogEntry, extra: { off?: ToolOffReason; icon?: string } = {}): WireTool {
  const { off, icon } = extra;
  return {
    modelName: e.modelName,
    server: e.server,
    tool: e.tool,
    friendlyName: e.friendlyName,
    ...(e.title ? { title: e.title } : {}),
    description: e.description,
    inputSchema: e.serverSchema ?? { type: 'object' },
    readOnly: e.readOnly,
    destructive: e.destructive,
    idempotent: e.idempotent,
    openWorld: e.openWorld,
    enabled: e.enabled,
    ...(e.contractChanged ? { changed: true } : {}),
    ...(e.excludedReason ? { excludedReason: e.excludedReason } : {}),
    ...(off ? { off } : {}),
    tokenCost: e.tokenCost,
    ...(icon ? { icon } : {}),
  };
}
