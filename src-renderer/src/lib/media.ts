// Tool images arrive as base64; the renderer shows them from blob: URLs (CSP img-src allows blob:).
export function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function blobUrl(b64: string, mimeType: string): string {
  const bytes = base64ToBytes(b64);
  return URL.createObjectURL(new Blob([bytes.buffer as ArrayBuffer], { type: mimeType }));
}

const EXT: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
};

export const fileNameFor = (base: string, mimeType: string) => `${base}.${EXT[mimeType] ?? 'bin'}`;
