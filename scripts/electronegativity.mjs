// Electronegativity over the built app, in CI (ARCHITECTURE.md, The desktop shell: every finding is fixed
// or explained in a checked-in list). Fails when a finding is neither fixed nor listed in
// security/electronegativity-findings.json, or when a file could not be parsed and is not listed there.
//
// Why a staged copy instead of `electronegativity -i out`: the tool only reads .js/.ts/.html/.json, so the
// sandboxed preload (out/preload/index.cjs) would be skipped silently; the staged copy names it index.js.
// The renderer bundle uses syntax the tool's scope analyser cannot walk (class private fields), so the
// renderer's own sources are staged beside it (renderer-src/) and scanned instead; the list says so.
// The main bundle carries the same syntax from the libraries bundled into it (electron-store's Conf,
// signal-exit), so the staged main/ files are lowered to ES2021 first (esbuild turns class fields into
// plain assignments and WeakMaps): the tool then reads every line of our shell, which is what its
// navigation, permission and openExternal checks are about. Only the scanner's copy is lowered.
//
// Usage: node scripts/electronegativity.mjs [--out DIR] [--list FILE]   (run `electron-vite build` first)
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import run from '@doyensec/electronegativity';
import { transformSync } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    out: { type: 'string', default: join(root, 'out') },
    list: { type: 'string', default: join(root, 'security/electronegativity-findings.json') },
  },
});

/** Copies the built app (and the renderer sources) into one folder the tool can read whole. */
function stage(outDir) {
  for (const part of ['main', 'preload', 'renderer']) {
    if (!existsSync(join(outDir, part))) {
      throw new Error(`${join(outDir, part)} is missing: run \`npx electron-vite build\` first.`);
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'electronegativity-stage-'));
  cpSync(outDir, dir, { recursive: true });
  // Global checks (navigation limits, permission handler, CSP) need to see the whole app at once.
  for (const f of readdirSync(join(dir, 'preload'))) {
    if (/\.(cjs|mjs)$/.test(f))
      renameSync(join(dir, 'preload', f), join(dir, 'preload', f.replace(/\.(cjs|mjs)$/, '.js')));
  }
  lowerForScanner(join(dir, 'main'));
  cpSync(join(root, 'package.json'), join(dir, 'package.json'));
  cpSync(join(root, 'src-renderer/src'), join(dir, 'renderer-src'), {
    recursive: true,
    filter: (src) => !/\.test\.tsx?$/.test(src),
  });
  return dir;
}

/** Rewrites every .js file under dir in ES2021 syntax, which the tool's parser and scope analyser walk. */
function lowerForScanner(dir) {
  for (const entry of readdirSync(dir, { recursive: true })) {
    const file = join(dir, String(entry));
    if (!file.endsWith('.js')) continue;
    const { code } = transformSync(readFileSync(file, 'utf8'), {
      target: 'es2021',
      loader: 'js',
      supported: { 'top-level-await': true },
    });
    writeFileSync(file, code);
  }
}

const oneLine = (s) =>
  String(s ?? '')
    .replace(/\s+/g, ' ')
    .trim();
const globToRegExp = (g) =>
  new RegExp(
    `^${g
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]*')}$`,
  );

/** An entry matches a finding by check id, file (glob) and, when given, the finding's source line. */
function matches(entry, finding) {
  if (entry.id !== finding.id) return false;
  if (!globToRegExp(entry.file).test(finding.file)) return false;
  return entry.sample === undefined || oneLine(entry.sample) === oneLine(finding.sample);
}

async function main() {
  const list = JSON.parse(readFileSync(args.list, 'utf8'));
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const electronVersion = String(pkg.devDependencies?.electron ?? pkg.dependencies?.electron ?? '').replace(
    /^[^\d]*/,
    '',
  );
  if (!electronVersion) throw new Error('package.json names no electron version; the checks depend on it.');

  const dir = stage(args.out);
  let result;
  try {
    result = await run(
      {
        input: dir,
        isRelative: true,
        electronVersionOverride: electronVersion,
        // Lower-cased class names, as the tool compares them.
        excludeFromScan: (list.excludedChecks ?? []).map((c) => c.check.toLowerCase()),
      },
      false,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const failures = [];
  const used = new Set();
  for (const e of result.errors) {
    const file = e.file.startsWith(dir) ? e.file.slice(dir.length + 1) : e.file;
    const listed = (list.unparsed ?? []).find((u) => globToRegExp(u.file).test(file));
    if (listed) used.add(listed);
    else if (e.tolerable) console.log(`note: ${file}: ${e.message}`);
    else
      failures.push(
        `could not parse ${file} (${e.message}), so it was not checked; fix or list it under "unparsed"`,
      );
  }
  for (const f of result.issues) {
    const entry = (list.accepted ?? []).find((a) => matches(a, f));
    const where = `${f.id} ${f.file}:${f.location.line} [${f.severity.name}/${f.confidence.name}] ${oneLine(f.sample).slice(0, 120)}`;
    if (entry) {
      used.add(entry);
      console.log(`explained: ${where}`);
    } else {
      failures.push(`new finding: ${where}\n    ${f.description} (${f.shortenedURL})`);
    }
  }
  for (const a of [...(list.accepted ?? []), ...(list.unparsed ?? [])]) {
    if (!used.has(a))
      console.log(
        `stale list entry (nothing matches it any more; remove it): ${a.id ?? 'unparsed'} ${a.file}`,
      );
  }
  console.log(
    `electronegativity: ${result.globalChecks + result.atomicChecks} checks, ${result.issues.length} findings, ` +
      `${failures.length} not fixed or explained (electron ${electronVersion})`,
  );
  if (failures.length > 0) {
    for (const f of failures) console.error(`FAIL ${f}`);
    console.error(`Fix each finding, or explain it in ${args.list} (id, file, sample, why).`);
    process.exit(1);
  }
}

await main();
