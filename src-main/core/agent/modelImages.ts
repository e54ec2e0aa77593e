// Images over a provider's limits are scaled down for the model (docs/chat.md, "Results too large for the
// model"); the conversation keeps the original, which the UI shows. PNG and JPEG are decoded and encoded in
// plain JavaScript (pngjs, jpeg-js: no native code, nothing downloaded at install; docs/decisions/
// 004-scheduled-prompts.md says why these) and scaled with an area average, which keeps small text readable.
// Other kinds (GIF, WebP) over the limits become a placeholder naming why. Scaled images are remembered for
// a while by content, so a long conversation does not decode its images again at every request.
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import type { ContentPart, ImagePart } from '@shared/chat';

export interface ImageLimits {
  /** The longest edge, in pixels, the provider takes (or works best with). */
  maxEdge: number;
  /** The largest image, in bytes. */
  maxBytes: number;
}

/**
 * Anthropic rejects images over 5 MB and resizes anything past ~1.15 megapixels (1568 px) itself, at a cost in
 * latency; OpenAI fits high-detail images into 2048 px and takes up to 20 MB; Ollama's vision models work on
 * far smaller tiles, so a large photo only costs memory there.
 */
export const PROVIDER_IMAGE_LIMITS: Record<string, ImageLimits> = {
  anthropic: { maxEdge: 1568, maxBytes: 5 * 1024 * 1024 },
  openai: { maxEdge: 2048, maxBytes: 20 * 1024 * 1024 },
  ollama: { maxEdge: 1344, maxBytes: 20 * 1024 * 1024 },
};

/** Width and height from the PNG header or the JPEG frame header, without decoding. */
export function imageSize(bytes: Buffer, mimeType: string): { width: number; height: number } | undefined {
  if (mimeType === 'image/png' && bytes.length >= 24 && bytes.toString('ascii', 12, 16) === 'IHDR')
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (mimeType === 'image/jpeg') {
    let i = 2;
    while (i + 9 < bytes.length && bytes[i] === 0xff) {
      const marker = bytes[i + 1]!;
      const len = bytes.readUInt16BE(i + 2);
      // SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
        return { height: bytes.readUInt16BE(i + 5), width: bytes.readUInt16BE(i + 7) };
      i += 2 + len;
    }
  }
  return undefined;
}

/** Area-average downscale of RGBA pixels: every source pixel counts once, weighted by its overlap. */
function scaleRgba(src: Uint8Array, sw: number, sh: number, dw: number, dh: number): Buffer {
  const out = Buffer.alloc(dw * dh * 4);
  const fx = sw / dw;
  const fy = sh / dh;
  const acc = new Float64Array(4);
  for (let y = 0; y < dh; y++) {
    const y0 = y * fy;
    const y1 = y0 + fy;
    for (let x = 0; x < dw; x++) {
      const x0 = x * fx;
      const x1 = x0 + fx;
      acc.fill(0);
      let total = 0;
      for (let sy = Math.floor(y0); sy < Math.min(sh, Math.ceil(y1)); sy++) {
        const wy = Math.min(sy + 1, y1) - Math.max(sy, y0);
        for (let sx = Math.floor(x0); sx < Math.min(sw, Math.ceil(x1)); sx++) {
          const w = wy * (Math.min(sx + 1, x1) - Math.max(sx, x0));
          const i = (sy * sw + sx) * 4;
          acc[0]! += src[i]! * w;
          acc[1]! += src[i + 1]! * w;
          acc[2]! += src[i + 2]! * w;
          acc[3]! += src[i + 3]! * w;
          total += w;
        }
      }
      const o = (y * dw + x) * 4;
      for (let c = 0; c < 4; c++) out[o + c] = Math.round(acc[c]! / total);
    }
  }
  return out;
}

function decode(bytes: Buffer, mimeType: string): { width: number; height: number; data: Uint8Array } {
  if (mimeType === 'image/png') return PNG.sync.read(bytes);
  // maxMemoryUsageInMB: a hostile JPEG header must not make the decoder allocate gigabytes.
  return jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 1024 });
}

function encode(mimeType: string, width: number, height: number, data: Buffer): Buffer {
  if (mimeType === 'image/png') {
    const png = new PNG({ width, height });
    png.data = data;
    return PNG.sync.write(png);
  }
  return jpeg.encode({ width, height, data }, 85).data;
}

const cache = new Map<string, ContentPart>();
const CACHE_SIZE = 32;

/** The image as the model gets it: unchanged when within the limits, else scaled down (or a placeholder). */
export function fitImage(image: ImagePart, limits: ImageLimits): ContentPart {
  const bytes = Buffer.from(image.data, 'base64');
  const dims = imageSize(bytes, image.mimeType);
  const tooBig = bytes.length > limits.maxBytes;
  const tooWide = dims !== undefined && Math.max(dims.width, dims.height) > limits.maxEdge;
  if (!tooBig && !tooWide) return image;
  const key = `${createHash('sha256').update(image.data).digest('hex')}:${limits.maxEdge}:${limits.maxBytes}`;
  const known = cache.get(key);
  if (known) return known;
  let fitted: ContentPart;
  try {
    fitted = scale(bytes, image.mimeType, limits);
  } catch (err) {
    fitted = {
      type: 'text',
      text: `[image: ${image.mimeType}, ${Math.round(bytes.length / 1024)} KB, too large for this model and could not be scaled (${err instanceof Error ? err.message : String(err)})]`,
    };
  }
  cache.set(key, fitted);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return fitted;
}

function scale(bytes: Buffer, mimeType: string, limits: ImageLimits): ContentPart {
  if (mimeType !== 'image/png' && mimeType !== 'image/jpeg')
    throw new Error(`Mooring scales PNG and JPEG images only, not ${mimeType}`);
  const img = decode(bytes, mimeType);
  let factor = Math.min(1, limits.maxEdge / Math.max(img.width, img.height));
  // Halve again while the encoded image is still over the byte limit (a noisy photo as PNG).
  for (let tries = 0; tries < 6; tries++) {
    const w = Math.max(1, Math.round(img.width * factor));
    const h = Math.max(1, Math.round(img.height * factor));
    const data = factor < 1 ? scaleRgba(img.data, img.width, img.height, w, h) : Buffer.from(img.data);
    let out = encode(mimeType, w, h, data);
    let type = mimeType;
    if (out.length > limits.maxBytes && mimeType === 'image/png') {
      out = encode('image/jpeg', w, h, data);
      type = 'image/jpeg';
    }
    if (out.length <= limits.maxBytes) return { type: 'image', mimeType: type, data: out.toString('base64') };
    factor /= 2;
  }
  throw new Error('it stays over the size limit even when scaled down');
}
