import { formatBytes, resultText, toResultJson } from '@shared/toolResult';
import { describe, expect, it } from 'vitest';
import { normalizeResult, stepContent, toModelContent } from './normalizeResult';

const b64 = (bytes: number[] | Buffer) => Buffer.from(bytes).toString('base64');
const png5k = Buffer.alloc(5 * 1024, 7);
const PNG_B64 = b64(png5k);

describe('normalizeResult', () => {
  it('decodes every content kind once', () => {
    const r = normalizeResult({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', data: b64(png5k), mimeType: 'image/png' },
        { type: 'audio', data: b64([1, 2, 3]), mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', mimeType: 'text/plain' },
        { type: 'resource', resource: { uri: 'mem://note', mimeType: 'text/plain', text: 'embedded text' } },
        { type: 'resource', resource: { uri: 'mem://blob', mimeType: 'application/pdf', blob: b64([9, 9]) } },
      ],
    });
    expect(r.isError).toBe(false);
    expect(r.parts.map((p) => p.kind)).toEqual([
      'text',
      'image',
      'audio',
      'resource_link',
      'resource',
      'resource',
    ]);
    expect(r.parts[1]).toMatchObject({ mimeType: 'image/png', size: 5120 });
    expect(r.parts[2]).toMatchObject({ kind: 'audio', size: 3, bytes: new Uint8Array([1, 2, 3]) });
    expect(r.parts[5]).toMatchObject({ uri: 'mem://blob', size: 2 });
    // The CLI's JSON names every kind: counts for bytes, never the data.
    expect(toResultJson(r)).toEqual({
      isError: false,
      text: 'hello',
      images: [{ mimeType: 'image/png', bytes: 5120 }],
      audio: [{ mimeType: 'audio/wav', bytes: 3 }],
      resourceLinks: [{ uri: 'file:///a.txt', name: 'a.txt', mimeType: 'text/plain' }],
      resources: [
        { uri: 'mem://note', mimeType: 'text/plain', text: 'embedded text' },
        { uri: 'mem://blob', mimeType: 'application/pdf', bytes: 2 },
      ],
      unknown: [],
    });
  });

  it('keeps isError as a value and tolerates missing or unknown content', () => {
    const r = normalizeResult({ content: [{ type: 'text', text: 'boom' }], isError: true });
    expect(r.isError).toBe(true);
    expect(resultText(r)).toBe('boom');
    const odd = normalizeResult({ content: [{ type: 'hologram' }] } as never);
    expect(odd.parts).toEqual([{ kind: 'unknown', type: 'hologram' }]);
    expect(normalizeResult({} as never).parts).toEqual([]);
  });

  it('validates structuredContent against the outputSchema and reports failures', () => {
    const outputSchema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
    expect(
      normalizeResult({ content: [], structuredContent: { n: 1 } }, { outputSchema }).structuredValidation,
    ).toEqual({ valid: true });
    const bad = normalizeResult({ content: [], structuredContent: { n: 'x' } }, { outputSchema });
    expect(bad.structuredValidation?.valid).toBe(false);
    expect(bad.structuredValidation?.error).toMatch(/integer/);
    const missing = normalizeResult({ content: [] }, { outputSchema });
    expect(missing.structuredValidation).toEqual({
      valid: false,
      error: expect.stringMatching(/no structuredContent/),
    });
    const broken = normalizeResult(
      { content: [], structuredContent: {} },
      { outputSchema: { type: 'nonsense-type' } },
    );
    expect(broken.structuredValidation?.valid).toBe(false);
    expect(toModelContent(bad, { vision: false, maxChars: 1000 }).content[0]).toMatchObject({
      text: expect.stringContaining("does not match the tool's output schema"),
    });
  });
});

describe('toModelContent', () => {
  const result = normalizeResult({
    content: [
      { type: 'text', text: 'see image' },
      { type: 'image', data: b64(png5k), mimeType: 'image/png' },
      { type: 'image', data: b64([1]), mimeType: 'image/svg+xml' },
      { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' },
    ],
    structuredContent: { ok: true },
  });

  it('gives non-vision models placeholders, never base64', () => {
    const m = toModelContent(result, { vision: false, maxChars: 10_000 });
    expect(m.content).toEqual([
      {
        type: 'text',
        text: 'see image\n[image: image/png, 5 KB]\n[image: image/svg+xml, 1 B]\n[resource link: a.txt <file:///a.txt>]\nStructured result (JSON): {"ok":true}',
      },
    ]);
    expect(JSON.stringify(m)).not.toContain(b64(png5k).slice(0, 20));
  });

  it('gives vision models native image blocks for types they accept', () => {
    const m = toModelContent(result, { vision: true, maxChars: 10_000 });
    expect(m.content.map((b) => b.type)).toEqual(['text', 'image', 'text']);
    expect(m.content[1]).toMatchObject({ mimeType: 'image/png' });
    expect((m.content[2] as { text: string }).text).toContain('[image: image/svg+xml, 1 B]');
  });

  it('caps text and says how much was cut', () => {
    const big = normalizeResult({ content: [{ type: 'text', text: 'x'.repeat(20_345) }] });
    const m = toModelContent(big, { vision: false, maxChars: 8000 });
    expect(m.truncatedChars).toBe(12_345);
    expect(m.content).toEqual([
      { type: 'text', text: 'x'.repeat(8000) },
      { type: 'text', text: '[… truncated 12,345 characters]' },
    ]);
  });

  it('does not repeat structured content that is already the text', () => {
    const r = normalizeResult({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } });
    expect(toModelContent(r, { vision: false, maxChars: 100 }).content).toEqual([
      { type: 'text', text: '{"a":1}' },
    ]);
    expect(
      toModelContent(normalizeResult({ content: [], isError: true }), { vision: false, maxChars: 10 })
        .content[0],
    ).toMatchObject({
      text: '[the tool failed without a message]',
    });
  });

  it('sends structured content once when it only restates the text or the content blocks', () => {
    const model = (r: ReturnType<typeof normalizeResult>) =>
      toModelContent(r, { vision: true, maxChars: 100_000 }).content;
    // server-memory: the text is the pretty-printed JSON, the structure wraps it in one field.
    const entities = [{ name: 'Ada', entityType: 'person', observations: [] }];
    const memory = normalizeResult({
      content: [{ type: 'text', text: JSON.stringify(entities, null, 2) }],
      structuredContent: { entities },
    });
    expect(memory.structuredInText).toBe(true);
    expect(model(memory)).toEqual([{ type: 'text', text: JSON.stringify(entities, null, 2) }]);
    // server-filesystem: the text wrapped in `{content}`.
    const listing = normalizeResult({
      content: [{ type: 'text', text: '[FILE] a.txt' }],
      structuredContent: { content: '[FILE] a.txt' },
    });
    expect(listing.structuredInText).toBe(true);
    expect(model(listing)).toEqual([{ type: 'text', text: '[FILE] a.txt' }]);
    // server-filesystem's read_media_file: the image block again, base64 and all, never as text.
    const image = { type: 'image' as const, data: PNG_B64, mimeType: 'image/png' };
    const media = normalizeResult({ content: [image], structuredContent: { content: [image] } });
    expect(media.structuredInText).toBe(true);
    expect(JSON.stringify(model(media))).not.toContain(PNG_B64.slice(0, 16));
    // Structure that adds something is still sent, and not marked.
    const more = normalizeResult({
      content: [{ type: 'text', text: 'Sunny' }],
      structuredContent: { conditions: 'Sunny', temperature: 21 },
    });
    expect(more.structuredInText).toBeUndefined();
    expect(model(more)[0]).toMatchObject({ text: expect.stringContaining('"temperature":21') });
  });

  it('formats sizes', () => {
    expect(formatBytes(812)).toBe('812 B');
    expect(formatBytes(5 * 1024)).toBe('5 KB');
    expect(formatBytes(1.4 * 1024 * 1024)).toBe('1.4 MB');
  });
});

describe('stepContent (a result as the conversation keeps it)', () => {
  const keep = (raw: Parameters<typeof normalizeResult>[0], opts?: Parameters<typeof normalizeResult>[1]) => {
    const result = normalizeResult(raw, opts);
    return stepContent(result, toModelContent(result, { vision: true, maxChars: 20_000 }));
  };

  it("marks where each image stood in the text (server-everything's text, image, text)", () => {
    const kept = keep({
      content: [
        { type: 'text', text: 'This is a tiny image:' },
        { type: 'image', data: PNG_B64, mimeType: 'image/png' },
        { type: 'text', text: 'The image above is the MCP logo.' },
      ],
    });
    expect(kept.text).toBe('This is a tiny image:\nThe image above is the MCP logo.');
    expect(kept.images).toEqual([{ mimeType: 'image/png', data: PNG_B64 }]);
    expect(kept.imagesAt).toEqual(['This is a tiny image:'.length]);
  });

  it('shows the text without the structured content restated for the model, which the card shows as JSON', () => {
    const kept = keep({
      content: [{ type: 'text', text: 'The counter is at 3.' }],
      structuredContent: { count: 3 },
    });
    expect(kept.text).toBe('The counter is at 3.\nStructured result (JSON): {"count":3}');
    expect(kept.text.slice(0, kept.textShown)).toBe('The counter is at 3.');
    // A note on the schema stays on the card; only the restated JSON is left to the JSON view.
    const noted = keep(
      { content: [{ type: 'text', text: 'The counter is at 3.' }], structuredContent: { count: 'x' } },
      { outputSchema: { type: 'object', properties: { count: { type: 'integer' } } } },
    );
    expect(noted.text.slice(0, noted.textShown)).toMatch(
      /^The counter is at 3\.\n\[note: structured result does not match the tool's output schema: .*\]$/,
    );
    // Restated by the text already: the model reads it once, and the card shows all of the text.
    expect(
      keep({ content: [{ type: 'text', text: '{"count":3}' }], structuredContent: { count: 3 } }),
    ).not.toHaveProperty('textShown');
  });
});
