// MCP Bundles (`.mcpb`, the format of the @anthropic-ai/mcpb package, Claude Desktop's extensions): a zip
// with `manifest.json` at its root. A bundle is untrusted until the user consents, so it is read with
// limits before anything is written: at most MAX_ENTRIES entries and MAX_UNPACKED_BYTES in all (counted
// as the bytes really come out, not as the zip claims), every name a plain relative path (no `..`, no
// absolute or drive path, no backslash, no control character, no duplicate), no symbolic link, no
// encrypted entry. The manifest is validated against the bundle specification's own schema for its
// version (the mcpb package's `schemas`). Unpacking writes only under the folder it is given.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { VERSIONED_MANIFEST_SCHEMAS } from '@anthropic-ai/mcpb/schemas';
import type { Entry, ZipFile } from 'yauzl';
import { MooringError } from '../errors';
import { loadMcpbSchemas, loadYauzl } from './lazy';

export const MAX_BUNDLE_BYTES = 256 * 1024 * 1024;
export const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;
export const MAX_ENTRIES = 20_000;
const MAX_MANIFEST_BYTES = 1024 * 1024;
const MAX_NAME_LENGTH = 1024;

type ManifestVersion = keyof typeof VERSIONED_MANIFEST_SCHEMAS;
/** A validated manifest, of any version the specification has. */
export type McpbManifest = ReturnType<(typeof VERSIONED_MANIFEST_SCHEMAS)[ManifestVersion]['parse']>;

export interface BundleInfo {
  manifest: McpbManifest;
  /** Hex SHA-256 of the bundle file. */
  sha256: string;
  entries: number;
  unpackedBytes: number;
}

const HINT =
  'Nothing was installed. Get the bundle again from where it is published, or ask its author for a fixed one.';
const bad = (why: string) => new MooringError('refused', `This bundle cannot be installed: ${why}.`, HINT);

/** Why an entry name is not a plain relative path, or undefined when it is one. */
export function entryNameProblem(name: string): string | undefined {
  if (!name) return 'an entry has an empty name';
  if (name.length > MAX_NAME_LENGTH) return 'an entry name is too long';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'an entry name holds control characters';
  if (name.includes('\\'))
    return `entry "${name}" uses a backslash, which could name a path outside the bundle`;
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name))
    return `entry "${name}" is an absolute path, which would be written outside the bundle's folder`;
  if (name.split('/').some((part) => part === '..'))
    return `entry "${name}" climbs out with "..", which would be written outside the bundle's folder`;
  return undefined;
}

const isSymlink = (e: Entry) => ((e.externalFileAttributes >>> 16) & 0o170000) === 0o120000;
const isDirectory = (e: Entry, name: string) => name.endsWith('/');

async function open(file: string): Promise<ZipFile> {
  const { default: yauzl } = await loadYauzl();
  return new Promise((res, rej) =>
    yauzl.open(
      file,
      { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false },
      (err, zip) => (err || !zip ? rej(err ?? new Error('cannot open')) : res(zip)),
    ),
  );
}

const nameOf = (e: Entry) => (e.fileName as unknown as Buffer).toString('utf8');

/**
 * Visits every entry in order after checking it; `visit` may read it. Throws `refused` on the first bad
 * entry, or when the limits are passed.
 */
async function walk(
  file: string,
  visit: (zip: ZipFile, entry: Entry, name: string) => Promise<void>,
): Promise<{ entries: number; declaredBytes: number }> {
  const size = (await stat(file)).size;
  if (size > MAX_BUNDLE_BYTES) throw bad(`it is larger than ${MAX_BUNDLE_BYTES / 1024 / 1024} MB`);
  let zip: ZipFile;
  try {
    zip = await open(file);
  } catch (err) {
    throw bad(`it is not a zip file (${(err as Error).message})`);
  }
  const seen = new Set<string>();
  let entries = 0;
  let declaredBytes = 0;
  try {
    await new Promise<void>((res, rej) => {
      zip.on('error', (err: Error) => rej(err instanceof MooringError ? err : bad((err as Error).message)));
      zip.on('end', () => res());
      zip.on('entry', (entry: Entry) => {
        const name = nameOf(entry);
        const problem = entryNameProblem(name);
        if (problem) return rej(bad(problem));
        if (isSymlink(entry))
          return rej(bad(`entry "${name}" is a symbolic link; bundles with links are not installed`));
        if (entry.isEncrypted()) return rej(bad(`entry "${name}" is encrypted`));
        const key = name.replace(/\/+$/, '');
        if (seen.has(key)) return rej(bad(`entry "${name}" appears twice`));
        seen.add(key);
        if (++entries > MAX_ENTRIES) return rej(bad(`it has more than ${MAX_ENTRIES} entries`));
        declaredBytes += entry.uncompressedSize;
        if (declaredBytes > MAX_UNPACKED_BYTES)
          return rej(bad(`it unpacks to more than ${MAX_UNPACKED_BYTES / 1024 / 1024} MB`));
        visit(zip, entry, name).then(
          () => zip.readEntry(),
          (err: unknown) => rej(err),
        );
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return { entries, declaredBytes };
}

function readStream(zip: ZipFile, entry: Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((res, rej) =>
    zip.openReadStream(entry, (err, stream) =>
      err || !stream ? rej(bad((err ?? new Error('unreadable')).message)) : res(stream),
    ),
  );
}

/** A stream stage that fails once more than `limit.left` bytes pass (sizes in the zip can lie). */
function counter(limit: { left: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      limit.left -= chunk.byteLength;
      if (limit.left < 0) done(bad(`it unpacks to more than ${MAX_UNPACKED_BYTES / 1024 / 1024} MB`));
      else done(null, chunk);
    },
  });
}

/** Validates `manifest.json`'s JSON against the specification's schema for its version. */
export async function validateManifest(raw: unknown): Promise<McpbManifest> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw bad('manifest.json is not a JSON object');
  const m = raw as Record<string, unknown>;
  const version = String(m.manifest_version ?? m.dxt_version ?? '');
  const { VERSIONED_MANIFEST_SCHEMAS } = await loadMcpbSchemas();
  const schema = (
    VERSIONED_MANIFEST_SCHEMAS as Record<string, (typeof VERSIONED_MANIFEST_SCHEMAS)[ManifestVersion]>
  )[version];
  if (!schema)
    throw bad(
      `its manifest_version "${version.slice(0, 20)}" is not one of the bundle specification's (${Object.keys(VERSIONED_MANIFEST_SCHEMAS).join(', ')})`,
    );
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join('.') || 'manifest'}: ${i.message}`)
      .join('; ');
    throw bad(`manifest.json does not follow the bundle specification ${version} (${issues})`);
  }
  return parsed.data as McpbManifest;
}

/** Checks a bundle file and reads its manifest; writes nothing. */
export async function readBundle(file: string): Promise<BundleInfo> {
  const sha256 = createHash('sha256')
    .update(
      await readFile(file).catch((e: NodeJS.ErrnoException) => {
        throw new MooringError(
          'config_not_found',
          `Cannot read ${file}: ${e.code ?? e.message}`,
          'Check the path.',
        );
      }),
    )
    .digest('hex');
  let manifestText: string | undefined;
  const { entries, declaredBytes } = await walk(file, async (zip, entry, name) => {
    if (name !== 'manifest.json') return;
    if (entry.uncompressedSize > MAX_MANIFEST_BYTES) throw bad('manifest.json is larger than 1 MB');
    const chunks: Buffer[] = [];
    const limit = { left: MAX_MANIFEST_BYTES };
    const count = counter(limit);
    const stream = await readStream(zip, entry);
    await pipeline(stream, count, async (source: AsyncIterable<Buffer>) => {
      for await (const c of source) chunks.push(c);
    });
    manifestText = Buffer.concat(chunks).toString('utf8');
  });
  if (manifestText === undefined) throw bad('it has no manifest.json at its root');
  let raw: unknown;
  try {
    raw = JSON.parse(manifestText);
  } catch (err) {
    throw bad(`manifest.json is not valid JSON (${(err as Error).message})`);
  }
  return { manifest: await validateManifest(raw), sha256, entries, unpackedBytes: declaredBytes };
}

/**
 * Unpacks a checked bundle into `dir`, which must not exist yet (it is created). Every path is checked
 * again against `dir`; on any failure `dir` is removed, so a half-unpacked bundle never stays.
 */
export async function unpackBundle(file: string, dir: string): Promise<void> {
  const root = resolve(dir);
  await mkdir(dirname(root), { recursive: true });
  await mkdir(root, { mode: 0o755 });
  const limit = { left: MAX_UNPACKED_BYTES };
  try {
    await walk(file, async (zip, entry, name) => {
      const target = resolve(root, name);
      const rel = relative(root, target);
      if (rel.startsWith('..') || resolve(root, rel) !== target || rel.split(sep).includes('..'))
        throw bad(`entry "${name}" would be written outside the bundle's folder`);
      if (isDirectory(entry, name)) return void (await mkdir(target, { recursive: true, mode: 0o755 }));
      await mkdir(dirname(target), { recursive: true, mode: 0o755 });
      const unixMode = (entry.externalFileAttributes >>> 16) & 0o777;
      const mode = unixMode & 0o111 ? 0o755 : 0o644;
      const stream = await readStream(zip, entry);
      // `wx`: never write through something that is already there.
      await pipeline(stream, counter(limit), createWriteStream(target, { flags: 'wx', mode }));
    });
  } catch (err) {
    await rm(root, { recursive: true, force: true });
    throw err;
  }
}

/** The folder a server's bundle is unpacked in: `<home>/bundles/<server name>`. */
export const bundleDir = (home: string, server: string) => join(home, 'bundles', server);
