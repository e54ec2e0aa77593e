// The one normalised tool result (ARCHITECTURE.md, `catalog/`: result normalisation), built from every
// MCP CallToolResult by src-main/core/catalog/normalizeResult.ts. Pure types plus the CLI/JSON
// projection, so the renderer's gallery and the CLI read the same shape.

export interface TextPart {
  kind: 'text';
  text: string;
}

/** An image or audio clip, base64-decoded once on arrival. */
export interface MediaPart {
  kind: 'image' | 'audio';
  mimeType: string;
  bytes: Uint8Array;
  /** Byte count of `bytes`. */
  size: number;
}

export interface ResourceLinkPart {
  kind: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** An embedded resource: text contents, or a blob decoded to bytes. */
export interface EmbeddedResourcePart {
  kind: 'resource';
  uri: string;
  mimeType?: string;
  text?: string;
  bytes?: Uint8Array;
  size?: number;
}

/** A content block type this host does not know; kept so nothing silently vanishes. */
export interface UnknownPart {
  kind: 'unknown';
  type: string;
}

export type ToolResultPart = TextPart | MediaPart | ResourceLinkPart | EmbeddedResourcePart | UnknownPart;

export interface StructuredValidation {
  valid: boolean;
  /** Why `structured` does not match the tool's outputSchema (or why the schema could not be used). */
  error?: string;
}

export interface ToolResult {
  /** The server said the tool failed (`isError`): a value the loop continues from, not an exception. */
  isError: boolean;
  parts: ToolResultPart[];
  /** `structuredContent`, when the server sent it. */
  structured?: unknown;
  /**
   * The structured content says nothing the text does not (the text is the same JSON, maybe formatted
   * differently): the model gets it once, the UI shows it collapsed.
   */
  structuredInText?: boolean;
  /** Present when the tool declares an outputSchema and `structured` was checked against it. */
  structuredValidation?: StructuredValidation;
  /** The trust labels the server put in the result's `_meta` (shared/dataFlow.ts), when it put any. */
  trust?: { untrusted?: true; sensitive?: true };
}

/** An image or audio clip in the CLI's JSON: its byte count, never the data; `file` once saved. */
export interface MediaJson {
  mimeType: string;
  bytes: number;
  /** Where `mooring mcp call` saved it. */
  file?: string;
}

/**
 * The CLI's JSON shape (`mooring mcp call --json`): every content kind the model gets. Bytes are counts,
 * never the data; the CLI saves media and binary resources to files and names them in `file`.
 */
export interface ToolResultJson {
  isError: boolean;
  text: string;
  images: MediaJson[];
  audio: MediaJson[];
  resourceLinks: Omit<ResourceLinkPart, 'kind'>[];
  resources: { uri: string; mimeType?: string; text?: string; bytes?: number; file?: string }[];
  /** Content block types this host does not know. */
  unknown: string[];
  structured?: unknown;
  /** The verdict on `structured` against the tool's outputSchema, when it declares one. */
  structuredValidation?: StructuredValidation;
}

export function resultText(r: ToolResult): string {
  return r.parts
    .filter((p): p is TextPart => p.kind === 'text')
    .map((p) => p.text)
    .join('\n');
}

export function toResultJson(r: ToolResult): ToolResultJson {
  const media = (kind: 'image' | 'audio') =>
    r.parts
      .filter((p): p is MediaPart => p.kind === kind)
      .map((p) => ({ mimeType: p.mimeType, bytes: p.size }));
  const out: ToolResultJson = {
    isError: r.isError,
    text: resultText(r),
    images: media('image'),
    audio: media('audio'),
    resourceLinks: r.parts
      .filter((p): p is ResourceLinkPart => p.kind === 'resource_link')
      .map(({ kind: _kind, ...link }) => link),
    resources: r.parts
      .filter((p): p is EmbeddedResourcePart => p.kind === 'resource')
      .map((p) => ({
        uri: p.uri,
        ...(p.mimeType ? { mimeType: p.mimeType } : {}),
        ...(p.text !== undefined ? { text: p.text } : { bytes: p.size ?? 0 }),
      })),
    unknown: r.parts.filter((p): p is UnknownPart => p.kind === 'unknown').map((p) => p.type),
  };
  if (r.structured !== undefined) out.structured = r.structured;
  if (r.structuredValidation) out.structuredValidation = r.structuredValidation;
  return out;
}

/** "5 KB", "812 B", "1.4 MB": for placeholders and the gallery. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
