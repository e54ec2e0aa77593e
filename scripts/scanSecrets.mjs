// After the whole test suite, a scan of the home directory and logs must find none of the
// test secrets. Scans every Mooring temp dir the tests left (os.tmpdir()/mooring-*: homes, their logs/,
// conversations, audit logs) for the test-secret marker and the known test secret values
// (test/security/testSecrets.json), and fails listing file and line of each hit.
//
// The checkout itself is never read, wherever it is (a clone under /tmp/mooring-ci-…): its tests and
// fixtures hold the test secrets on purpose.
//
// Usage: node scripts/scanSecrets.mjs [--tmp DIR] [--prefix mooring-] [--dir EXTRA_DIR]... [--allow-empty]
//          [--checkout DIR (default: this checkout)]
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    tmp: { type: 'string', default: tmpdir() },
    prefix: { type: 'string', default: 'mooring-' },
    dir: { type: 'string', multiple: true, default: [] },
    secrets: { type: 'string', default: join(root, 'test/security/testSecrets.json') },
    'allow-empty': { type: 'boolean', default: false },
    checkout: { type: 'string', default: root },
  },
});
const checkout = resolve(args.checkout);

// Files are read whole; none of Mooring's own files comes near this size.
const MAX_FILE_BYTES = 64 * 1024 * 1024;

const conventions = JSON.parse(readFileSync(args.secrets, 'utf8'));
const needles = [
  { label: `marker ${conventions.marker}`, bytes: Buffer.from(conventions.marker) },
  ...conventions.knownValues.map((k) => ({
    label: `known test secret from ${k.usedIn}`,
    bytes: Buffer.from(k.value),
  })),
];

/** Every regular file under dir (symlinks are not followed: they could point anywhere). */
function* files(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // removed while we looked (another run cleaning up), or unreadable
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory() && p !== checkout) yield* files(p);
    else if (e.isFile()) yield p;
  }
}

/** Line number (1-based) of a byte offset. */
function lineOf(buf, offset) {
  let line = 1;
  for (let i = buf.indexOf(10); i !== -1 && i < offset; i = buf.indexOf(10, i + 1)) line++;
  return line;
}

function scanFile(path, hits) {
  let buf;
  try {
    if (lstatSync(path).size > MAX_FILE_BYTES)
      return console.log(`note: skipped ${path} (larger than 64 MiB)`);
    buf = readFileSync(path);
  } catch {
    return;
  }
  for (const n of needles) {
    for (let at = buf.indexOf(n.bytes); at !== -1; at = buf.indexOf(n.bytes, at + 1)) {
      hits.push({ path, line: lineOf(buf, at), label: n.label });
    }
  }
}

function main() {
  const roots = [];
  try {
    for (const e of readdirSync(args.tmp, { withFileTypes: true })) {
      if (e.isDirectory() && e.name.startsWith(args.prefix)) roots.push(join(args.tmp, e.name));
    }
  } catch (err) {
    console.error(`scanSecrets: cannot list ${args.tmp}: ${err.message}`);
    process.exit(2);
  }
  roots.push(...args.dir.map((d) => resolve(d)));

  const hits = [];
  let fileCount = 0;
  let homes = 0;
  let logs = 0;
  for (const dir of roots) {
    let isHome = false;
    for (const f of files(dir)) {
      fileCount++;
      if (/[/\\](mcp_servers|settings)\.json$/.test(f)) isHome = true;
      if (/[/\\]logs[/\\]|\.(log|jsonl)$/.test(f)) logs++;
      scanFile(f, hits);
    }
    if (isHome) homes++;
  }

  console.log(
    `scanSecrets: ${roots.length} dirs (${homes} Mooring homes), ${fileCount} files (${logs} logs), ` +
      `${needles.length} needles: ${hits.length} hits`,
  );
  if (hits.length > 0) {
    for (const h of hits) console.error(`FAIL ${h.path}:${h.line}: ${h.label}`);
    console.error(
      'A test secret reached a file on disk: find what wrote it (config, settings, a log) and keep it in the keychain or mask it.',
    );
    process.exit(1);
  }
  if (homes === 0 && !args['allow-empty']) {
    console.error(
      `scanSecrets: no Mooring home under ${join(args.tmp, `${args.prefix}*`)}: nothing was checked. Run the test suite first (or pass --allow-empty).`,
    );
    process.exit(1);
  }
}

main();
