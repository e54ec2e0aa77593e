// What Mooring checks of a skill's bytes before any use (ext-skills specification, "Integrity and
// Verification"): the size, then the SHA-256 digest of the raw bytes against the held entry; for the skill's
// own SKILL.md, the frontmatter field by field against the entry's ("Frontmatter Verification"); a file not
// in the manifest is refused like a mismatch ("The Acting Window and the Held Entry"). Digests are not a
// trust anchor ("Digests Are Not a Trust Anchor"): a match only lets the content be used as untrusted text.
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { parse as parseYaml } from 'yaml';
import type { SkillChange, SkillEntry, SkillResource } from '@shared/skills';
import { MooringError } from '../errors';

/** The raw bytes a `resources/read` content carries: `text` as UTF-8, a `blob` decoded from base64. */
export function bytesOf(content: { text?: unknown; blob?: unknown }): Buffer {
  if (typeof content.text === 'string') return Buffer.from(content.text, 'utf8');
  if (typeof content.blob === 'string') return Buffer.from(content.blob, 'base64');
  return Buffer.alloc(0);
}

export const sha256 = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** A verification failure: the content is refused, never used ("Verification on Read"). */
export class SkillVerificationError extends MooringError {}

export function verificationError(server: string, uri: string, what: string): MooringError {
  return new SkillVerificationError(
    'refused',
    `Skill file ${uri} from "${server}" failed verification: ${what}. Mooring did not use it.`,
    `The server changed or corrupted the skill after listing it. List its skills again (Skills screen, Refresh) and approve it again if you trust the new content: mooring mcp skills ${server} --refresh`,
  );
}

/** Size first, then digest, of bytes read for `entry` ("Verification on Read"). */
export function verifyBytes(server: string, entry: SkillResource, bytes: Uint8Array): void {
  if (bytes.byteLength !== entry.size)
    throw verificationError(
      server,
      entry.uri,
      `size mismatch (listed ${entry.size} bytes, read ${bytes.byteLength})`,
    );
  const digest = sha256(bytes);
  if (digest !== entry.digest)
    throw verificationError(server, entry.uri, `digest mismatch (listed ${entry.digest}, read ${digest})`);
}

/** The YAML between a SKILL.md's leading `---` lines, parsed; undefined when there is none. */
export function frontmatterOf(text: string): Record<string, unknown> | undefined {
  const m = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?(?:\n|$)/.exec(text);
  if (!m) return undefined;
  const parsed: unknown = parseYaml(m[1]!);
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : undefined;
}

/** "Frontmatter Verification": a SKILL.md whose frontmatter differs from the entry's is not loaded. */
export function verifyFrontmatter(server: string, entry: SkillEntry, text: string): void {
  let read: Record<string, unknown> | undefined;
  try {
    read = frontmatterOf(text);
  } catch {
    read = undefined;
  }
  if (!read) throw verificationError(server, entry.uri, 'its frontmatter cannot be read');
  const listed = entry.frontmatter as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(listed), ...Object.keys(read)])].sort();
  const differ = fields.filter((f) => !isDeepStrictEqual(listed[f], read[f]));
  if (differ.length)
    throw verificationError(
      server,
      entry.uri,
      `frontmatter differs from the listed entry (${differ.join(', ')})`,
    );
}

/** The skill's root: its SKILL.md URI without `/SKILL.md` ("Resource Mapping"). */
export const rootOf = (skillUri: string) => skillUri.replace(/\/SKILL\.md$/, '');

/** A file path relative to the skill's root, or the URI itself when it is not under it. */
export const pathIn = (skillUri: string, uri: string) => {
  const root = `${rootOf(skillUri)}/`;
  return uri.startsWith(root) ? uri.slice(root.length) : uri;
};

/**
 * The manifest entry a reference names: a path relative to the skill's root ("Relative References") or a
 * full URI. Anything outside the held manifest is a verification failure, never a read.
 */
export function listedFile(server: string, entry: SkillEntry, ref: string | undefined): SkillResource {
  if (entry.resources === 'dynamic') throw new MooringError('internal', 'A dynamic skill has no manifest');
  const wanted = !ref
    ? entry.uri
    : ref.includes('://')
      ? ref
      : `${rootOf(entry.uri)}/${ref.replace(/^\.?\//, '')}`;
  if (wanted.split('/').some((seg) => seg === '..'))
    throw verificationError(server, wanted, 'the path leaves the skill');
  const found = entry.resources.find((r) => r.uri === wanted);
  if (!found) throw verificationError(server, wanted, 'the file is not in the skill’s manifest');
  return found;
}

/** What a content-bound approval binds to: every (uri, digest) of the manifest ("Content-bound approval"). */
export function manifestOf(entry: SkillEntry): { uri: string; digest: string; size: number }[] {
  if (entry.resources === 'dynamic') return [];
  return entry.resources
    .map((r) => ({ uri: r.uri, digest: r.digest, size: r.size }))
    .sort((a, b) => a.uri.localeCompare(b.uri));
}

/** Two manifests as the changes a person reads before approving again. */
export function diffManifests(
  skillUri: string,
  before: { uri: string; digest: string; size: number }[],
  after: { uri: string; digest: string; size: number }[],
): SkillChange[] {
  const old = new Map(before.map((r) => [r.uri, r]));
  const now = new Map(after.map((r) => [r.uri, r]));
  const changes: SkillChange[] = [];
  for (const [uri, r] of now) {
    const was = old.get(uri);
    const path = pathIn(skillUri, uri);
    if (!was) changes.push({ uri, change: 'added', summary: `${path} added (${r.size} bytes)` });
    else if (was.digest !== r.digest)
      changes.push({ uri, change: 'changed', summary: `${path} changed (${was.size} → ${r.size} bytes)` });
  }
  for (const [uri, r] of old)
    if (!now.has(uri))
      changes.push({
        uri,
        change: 'removed',
        summary: `${pathIn(skillUri, uri)} removed (was ${r.size} bytes)`,
      });
  return changes.sort((a, b) => a.uri.localeCompare(b.uri));
}
