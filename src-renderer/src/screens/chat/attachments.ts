// Files a person drops, pastes or picks into the composer: images go to the model as image parts (to a
// vision model natively; others get a placeholder, and the composer says so), text files go inline in
// the message as a fenced block named by the file (shared/attachedFiles.ts, in the core). Anything else is refused with a reason, never
// dropped silently. The limits keep a message inside what the app's transport carries (browser mode
// refuses bodies over 8 MB; base64 adds a third).
import type { ImagePart } from '@shared/chat';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_TEXT_BYTES = 256 * 1024;

export type Attachment =
  | { kind: 'image'; name: string; image: ImagePart; bytes: number }
  | { kind: 'text'; name: string; text: string; bytes: number };

const TEXT_NAME =
  /\.(txt|md|markdown|csv|tsv|json|jsonl|ya?ml|toml|ini|xml|html?|css|log|[cm]?[jt]sx?|py|rb|go|rs|java|kt|c|h|cpp|hpp|cs|sh|sql|swift|php|lua|r)$/i;

export const isTextFile = (f: { name: string; type: string }) =>
  f.type.startsWith('text/') || f.type === 'application/json' || TEXT_NAME.test(f.name);

function base64Of(buf: ArrayBuffer): string {
  const bytes = new Uint8Array(buf);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** Reads one file into an attachment, or says why it cannot be one. */
export async function readAttachment(file: File): Promise<Attachment | { error: string }> {
  const name = file.name || (file.type.startsWith('image/') ? 'pasted image' : 'pasted file');
  if (file.type.startsWith('image/')) {
    if (file.size > MAX_IMAGE_BYTES)
      return { error: `${name} is ${mb(file.size)}; images up to ${mb(MAX_IMAGE_BYTES)} can be attached.` };
    const data = base64Of(await file.arrayBuffer());
    return { kind: 'image', name, bytes: file.size, image: { type: 'image', mimeType: file.type, data } };
  }
  if (isTextFile(file)) {
    if (file.size > MAX_TEXT_BYTES)
      return {
        error: `${name} is ${mb(file.size)}; text files up to ${mb(MAX_TEXT_BYTES)} can be attached.`,
      };
    return { kind: 'text', name, bytes: file.size, text: await file.text() };
  }
  return { error: `${name} is neither an image nor a text file, so it cannot go to the model.` };
}

const mb = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`;
