// What `mooring mcp call` prints for a tool's result: every content kind the model would get. Text as
// text; images and audio (and binary embedded resources) saved to files it names, never base64 on the
// terminal; resource links and embedded resources listed; structured content with the output-schema
// verdict. Every string in it came from the server and is escaped (terminalText.ts).
import { formatBytes, toResultJson, type ToolResult, type ToolResultJson } from '@shared/toolResult';
import { jsonForTerminal } from '@shared/untrustedText';
import { writeBlobFiles } from '../core/calls/blobFiles';
import { multiline, print, tty } from './terminalText';

/** Writes each image, audio clip and binary resource to a file; returns the JSON with each file named. */
export async function saveMedia(result: ToolResult, opts: { dir?: string }): Promise<ToolResultJson> {
  const json = toResultJson(result);
  const blobs: { bytes: Uint8Array; mimeType?: string; kind: string; entry: { file?: string } }[] = [];
  let image = 0;
  let audio = 0;
  let resource = 0;
  for (const p of result.parts) {
    if (p.kind === 'image') blobs.push({ ...p, entry: json.images[image++]! });
    else if (p.kind === 'audio') blobs.push({ ...p, entry: json.audio[audio++]! });
    else if (p.kind === 'resource') {
      const entry = json.resources[resource++]!;
      if (p.bytes)
        blobs.push({
          kind: 'resource',
          bytes: p.bytes,
          ...(p.mimeType ? { mimeType: p.mimeType } : {}),
          entry,
        });
    }
  }
  const files = await writeBlobFiles(blobs, { dir: opts.dir, tempPrefix: 'mooring-call-' });
  blobs.forEach((b, i) => (b.entry.file = files[i]));
  return json;
}

/** The human-readable result on stdout. */
export function printResult(json: ToolResultJson): void {
  if (json.text) print(tty`${multiline(json.text)}\n`);
  const media = (kind: string, m: ToolResultJson['images'][number]) =>
    print(tty`[${kind}: ${m.mimeType}, ${formatBytes(m.bytes)}${m.file ? `, saved to ${m.file}` : ''}]\n`);
  for (const m of json.images) media('image', m);
  for (const m of json.audio) media('audio', m);
  for (const l of json.resourceLinks)
    print(
      tty`[link: ${l.title ?? l.name} ${l.uri}${l.mimeType ? ` (${l.mimeType})` : ''}]${l.description ? ` ${l.description}` : ''}\n`,
    );
  for (const r of json.resources) {
    const head = tty`[resource: ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}`;
    if (r.text !== undefined) print(tty`${head}]\n${multiline(r.text)}\n`);
    else print(tty`${head}, ${formatBytes(r.bytes ?? 0)}${r.file ? `, saved to ${r.file}` : ''}]\n`);
  }
  for (const type of json.unknown) print(tty`[content of a kind Mooring does not know: ${type}]\n`);
  if (json.structured !== undefined) {
    const v = json.structuredValidation;
    const verdict = !v
      ? ''
      : v.valid
        ? ' (matches the tool’s output schema)'
        : tty` (does NOT match the tool’s output schema: ${v.error ?? 'invalid'})`;
    // Beside text it is usually the same content: the verdict here, the value with --json.
    if (json.text) print(tty`[structured content${verdict}; --json shows it]\n`);
    else print(tty`structured content${verdict}:\n${multiline(jsonForTerminal(json.structured, 2))}\n`);
  }
}
