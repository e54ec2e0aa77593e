// Result normalisation (ARCHITECTURE.md, `catalog/`): one ToolResult from any CallToolResult, and the
// model-facing projection of it. Images are decoded once here and never reach a model as base64
// text; `isError` stays a value so the agent loop continues from it.

import { Buffer } from 'node:buffer';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import canonicalize from 'canonicalize';
import {
  formatBytes,
  resultText,
  type StructuredValidation,
  type ToolResult,
  type ToolResultPart,
} from '@shared/toolResult';

function decodeBase64(data: unknown): Uint8Array {
  const buf = Buffer.from(typeof data === 'string' ? data : '', 'base64');
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function toPart(block: unknown): ToolResultPart {
  const b = (typeof block === 'object' && block !== null ? block : {}) as Record<string, unknown>;
  switch (b.type) {
    case 'text':
      return { kind: 'text', text: str(b.text) ?? '' };
    case 'image':
    case 'audio': {
      const bytes = decodeBase64(b.data);
      return {
        kind: b.type,
        mimeType: str(b.mimeType) ?? 'application/octet-stream',
        bytes,
        size: bytes.byteLength,
      };
    }
    case 'resource_link':
      return {
        kind: 'resource_link',
        uri: str(b.uri) ?? '',
        name: str(b.name) ?? str(b.uri) ?? '',
        ...(str(b.title) ? { title: str(b.title) } : {}),
        ...(str(b.description) ? { description: str(b.description) } : {}),
        ...(str(b.mimeType) ? { mimeType: str(b.mimeType) } : {}),
      };
    case 'resource': {
      const r = (typeof b.resource === 'object' && b.resource !== null ? b.resource : {}) as Record<
        string,
        unknown
      >;
      const base = {
        kind: 'resource' as const,
        uri: str(r.uri) ?? '',
        ...(str(r.mimeType) ? { mimeType: str(r.mimeType) } : {}),
      };
      if (typeof r.text === 'string') return { ...base, text: r.text };
      const bytes = decodeBase64(r.blob);
      return { ...base, bytes, size: bytes.byteLength };
    }
    default:
      return { kind: 'unknown', type: String(b.type) };
  }
}

const validator = new AjvJsonSchemaValidator();
const compiled = new WeakMap<object, (v: unknown) => StructuredValidation>();

/** Validate structuredContent against a tool's outputSchema; a broken schema is reported, not thrown. */
export function validateStructured(outputSchema: object, value: unknown): StructuredValidation {
  let check = compiled.get(outputSchema);
  if (!check) {
    try {
      const v = validator.getValidator(outputSchema as Parameters<typeof validator.getValidator>[0]);
      check = (x) => {
        const r = v(x);
        return r.valid ? { valid: true } : { valid: false, error: r.errorMessage };
      };
    } catch (err) {
      const msg = `the tool's outputSchema could not be compiled: ${err instanceof Error ? err.message : String(err)}`;
      check = () => ({ valid: false, error: msg });
    }
    compiled.set(outputSchema, check);
  }
  return check(value);
}

export interface NormalizeOptions {
  /** The tool's declared outputSchema, when it has one. */
  outputSchema?: unknown;
}

const same = (a: unknown, b: unknown) => a !== undefined && canonicalize(a) === canonicalize(b);

/**
 * Whether structuredContent says nothing the content does not. Servers send it for clients that read
 * only one of the two, in three shapes seen in the reference servers: the text's own JSON
 * (server-everything), the text or the content blocks wrapped in one field (server-filesystem's
 * `{content}`, which for an image is the whole base64 again), and the JSON of the text wrapped in one
 * field (server-memory's `{entities}`).
 */
export function structuredRestates(structured: unknown, content: unknown[], text: string): boolean {
  const candidates = [structured];
  if (typeof structured === 'object' && structured !== null && !Array.isArray(structured)) {
    const values = Object.values(structured);
    if (values.length === 1) candidates.push(values[0]);
  }
  const trimmed = text.trim();
  let parsed: unknown;
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      parsed = undefined;
    }
  }
  return candidates.some(
    (c) =>
      (typeof c === 'string' && c.trim() === trimmed) ||
      (content.length > 0 && same(c, content)) ||
      same(parsed, c),
  );
}

export function normalizeResult(result: CallToolResult, opts: NormalizeOptions = {}): ToolResult {
  const content: unknown[] = Array.isArray(result.content) ? result.content : [];
  const out: ToolResult = { isError: result.isError === true, parts: content.map(toPart) };
  if (result.structuredContent !== undefined) {
    out.structured = result.structuredContent;
    if (structuredRestates(result.structuredContent, content, resultText(out))) out.structuredInText = true;
    if (typeof opts.outputSchema === 'object' && opts.outputSchema !== null && !out.isError)
      out.structuredValidation = validateStructured(opts.outputSchema, result.structuredContent);
  } else if (typeof opts.outputSchema === 'object' && opts.outputSchema !== null && !out.isError) {
    // Spec: a tool with an outputSchema MUST return structuredContent in a successful result.
    out.structuredValidation = {
      valid: false,
      error: 'the tool declares an outputSchema but returned no structuredContent',
    };
  }
  return out;
}

export type ModelContentBlock =
  { type: 'text'; text: string } | { type: 'image'; mimeType: string; bytes: Uint8Array };

export interface ModelToolContent {
  isError: boolean;
  content: ModelContentBlock[];
  /** Characters cut by `maxChars` (0 when nothing was cut). */
  truncatedChars: number;
}

export interface ModelContentOptions {
  /** The model takes native image blocks. */
  vision: boolean;
  /** Cap on the text this result may put into the prompt. */
  maxChars: number;
}

/** The structured content as the model reads it after the text (when the text does not restate it). */
const structuredLine = (structured: unknown) => `Structured result (JSON): ${JSON.stringify(structured)}`;

/**
 * A result as a conversation keeps it (shared/chat.ts, ToolChatMessage): the model's text in one string
 * (its blocks joined by newlines), the images apart with the place in that text where each stood, and how
 * much of the text the card shows: the structured content restated at its end for the model is shown as
 * JSON by the card instead.
 */
export function stepContent(result: ToolResult, content: ModelToolContent) {
  let text = '';
  let texts = 0;
  const images: { mimeType: string; data: string }[] = [];
  const imagesAt: number[] = [];
  for (const c of content.content) {
    if (c.type === 'text') text += (texts++ ? '\n' : '') + c.text;
    else {
      images.push({ mimeType: c.mimeType, data: Buffer.from(c.bytes).toString('base64') });
      imagesAt.push(text.length);
    }
  }
  const line =
    result.structured !== undefined && !result.structuredInText && structuredLine(result.structured);
  const textShown = line && text.endsWith(line) ? Math.max(0, text.length - line.length - 1) : undefined;
  return { text, images, imagesAt, ...(textShown !== undefined ? { textShown } : {}) };
}

/** Image types the vision APIs accept natively (OpenAI, Anthropic, Ollama all take these). */
const NATIVE_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

function placeholder(kind: string, mimeType: string | undefined, size: number | undefined): string {
  return `[${kind}: ${mimeType ?? 'unknown type'}${size !== undefined ? `, ${formatBytes(size)}` : ''}]`;
}

function partText(p: ToolResultPart): string | undefined {
  switch (p.kind) {
    case 'text':
      return p.text;
    case 'image':
    case 'audio':
      return placeholder(p.kind, p.mimeType, p.size);
    case 'resource_link':
      return `[resource link: ${p.title ?? p.name} <${p.uri}>${p.description ? ` — ${p.description}` : ''}]`;
    case 'resource':
      return p.text !== undefined
        ? `[resource ${p.uri}]\n${p.text}`
        : placeholder(`resource ${p.uri}`, p.mimeType, p.size);
    case 'unknown':
      return `[unsupported content type "${p.type}"]`;
  }
}

/**
 * What the model sees of a result: text (capped, with the cut said in the text), native image
 * blocks for vision models, placeholders otherwise, and structured content as supplementary JSON.
 */
export function toModelContent(result: ToolResult, opts: ModelContentOptions): ModelToolContent {
  const blocks: ModelContentBlock[] = [];
  const pushText = (text: string) => {
    const last = blocks[blocks.length - 1];
    if (last?.type === 'text') last.text += `\n${text}`;
    else blocks.push({ type: 'text', text });
  };
  for (const p of result.parts) {
    if (p.kind === 'image' && opts.vision && NATIVE_IMAGE_TYPES.has(p.mimeType))
      blocks.push({ type: 'image', mimeType: p.mimeType, bytes: p.bytes });
    else {
      const t = partText(p);
      if (t !== undefined) pushText(t);
    }
  }
  // The note before the restated structured content: the restatement stays last, where the card finds it
  // and shows it as JSON instead (stepContent).
  if (result.structuredValidation && !result.structuredValidation.valid)
    pushText(
      `[note: structured result does not match the tool's output schema: ${result.structuredValidation.error}]`,
    );
  if (result.structured !== undefined && !result.structuredInText)
    pushText(structuredLine(result.structured));

  let budget = Math.max(0, opts.maxChars);
  let cut = 0;
  for (const b of blocks) {
    if (b.type !== 'text') continue;
    if (b.text.length <= budget) budget -= b.text.length;
    else {
      cut += b.text.length - budget;
      b.text = b.text.slice(0, budget);
      budget = 0;
    }
  }
  const kept = blocks.filter((b) => b.type !== 'text' || b.text.length > 0);
  if (cut > 0) kept.push({ type: 'text', text: `[… truncated ${cut.toLocaleString('en-US')} characters]` });
  if (kept.length === 0)
    kept.push({
      type: 'text',
      text: result.isError ? '[the tool failed without a message]' : '[no content]',
    });
  return { isError: result.isError, content: kept, truncatedChars: cut };
}
