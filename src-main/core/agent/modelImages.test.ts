// Images over a provider's limits are scaled down for the model; within them they go as they are
// (docs/chat.md, "Results too large for the model").
import { Buffer } from 'node:buffer';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { fitImage, imageSize } from './modelImages';

function png(width: number, height: number): string {
  const img = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) {
    img.data[i * 4] = (i * 7) % 256;
    img.data[i * 4 + 1] = (i * 13) % 256;
    img.data[i * 4 + 2] = 200;
    img.data[i * 4 + 3] = 255;
  }
  return PNG.sync.write(img).toString('base64');
}

describe('fitImage', () => {
  it('scales a PNG wider than the limit to the longest edge, keeping its shape', () => {
    const out = fitImage(
      { type: 'image', mimeType: 'image/png', data: png(400, 200) },
      { maxEdge: 100, maxBytes: 1e7 },
    );
    expect(out.type).toBe('image');
    if (out.type !== 'image') return;
    expect(imageSize(Buffer.from(out.data, 'base64'), out.mimeType)).toEqual({ width: 100, height: 50 });
  });

  it('leaves an image within the limits untouched', () => {
    const image = { type: 'image' as const, mimeType: 'image/png', data: png(40, 20) };
    expect(fitImage(image, { maxEdge: 100, maxBytes: 1e7 })).toBe(image);
  });

  it('makes an image over the byte limit smaller than the limit', () => {
    const data = png(300, 300);
    const limit = Math.floor(Buffer.from(data, 'base64').length / 4);
    const out = fitImage({ type: 'image', mimeType: 'image/png', data }, { maxEdge: 1000, maxBytes: limit });
    expect(out.type).toBe('image');
    if (out.type === 'image') expect(Buffer.from(out.data, 'base64').length).toBeLessThanOrEqual(limit);
  });

  it('names a kind it cannot scale instead of sending it over the limit', () => {
    const out = fitImage(
      { type: 'image', mimeType: 'image/gif', data: Buffer.alloc(2000).toString('base64') },
      { maxEdge: 100, maxBytes: 1000 },
    );
    expect(out).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/image\/gif.*PNG and JPEG images only/),
    });
  });
});
