// Which registry package a stdio server runs (for osvCheck.ts): read from `npx …` and `uvx …` argv the way
// npm exec and uv's tool runner read them. Only registry packages are returned; git URLs, local paths and
// version ranges are reported as notes, since OSV can only check a registry name (and an exact version).
import { runtimeOf } from './commandAllowlist';

export type Ecosystem = 'npm' | 'PyPI';

export interface PackageRef {
  ecosystem: Ecosystem;
  name: string;
  /** Only an exact version; ranges and tags (`latest`, `^1`) leave it out and OSV checks every version. */
  version?: string;
}

export interface PackageScan {
  packages: PackageRef[];
  /** Things that could not be checked (a git URL, a local path), for the user's warnings. */
  notes: string[];
}

// npm exec options that take a value (npm docs, "npm exec"); all others are flags.
const NPX_VALUE_OPTS = new Set([
  '-p',
  '--package',
  '-c',
  '--call',
  '-w',
  '--workspace',
  '--registry',
  '--cache',
  '--userconfig',
  '--prefix',
]);
// uv tool run options that take a value (uv reference, "uv tool run").
const UVX_VALUE_OPTS = new Set([
  '--from',
  '--with',
  '--with-editable',
  '--with-requirements',
  '-w',
  '-p',
  '--python',
  '--index',
  '--default-index',
  '-i',
  '--index-url',
  '--extra-index-url',
  '-f',
  '--find-links',
  '-c',
  '--constraints',
  '--overrides',
  '--build-constraints',
  '-b',
  '-C',
  '--config-setting',
  '--directory',
  '--project',
  '--config-file',
  '--cache-dir',
  '--env-file',
  '--python-platform',
  '--exclude-newer',
  '-P',
  '--upgrade-package',
  '--reinstall-package',
  '--no-binary-package',
  '--no-build-package',
  '--index-strategy',
  '--keyring-provider',
  '--resolution',
  '--prerelease',
  '--link-mode',
  '--color',
  '--allow-insecure-host',
]);

const EXACT_SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9~][a-z0-9._~-]*$/i;
const PEP508_NAME = /^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)(\[[^\]]*\])?\s*(.*)$/;
const EXACT_PEP440 = /^[0-9][0-9A-Za-z.!+_-]*$/;

/** Splits argv into option values (by option name) and positionals, up to the first positional. */
function scanArgs(args: readonly string[], valueOpts: Set<string>) {
  const values: Array<[string, string]> = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '--') return { values, positional: args[i + 1] };
    if (!a.startsWith('-') || a === '-') return { values, positional: a };
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0) values.push([a.slice(0, eq), a.slice(eq + 1)]);
    else if (valueOpts.has(a)) values.push([a, args[++i] ?? '']);
  }
  return { values, positional: undefined };
}

/** `@scope/pkg@1.2.3` → name + exact version; undefined with a note for git, path and alias specs. */
export function parseNpmSpec(spec: string, notes: string[]): PackageRef | undefined {
  const at = spec.lastIndexOf('@');
  const name = at > 0 ? spec.slice(0, at) : spec;
  const range = at > 0 ? spec.slice(at + 1) : '';
  if (!NPM_NAME.test(name) || range.startsWith('npm:')) {
    notes.push(`"${spec}" is not a plain npm registry package, so it was not checked against OSV`);
    return undefined;
  }
  return EXACT_SEMVER.test(range) ? { ecosystem: 'npm', name, version: range } : { ecosystem: 'npm', name };
}

/** `pkg==1.0`, `pkg[extra]==1.0`, `pkg@1.0`, `pkg>=1` (no version) → a PyPI ref with a PEP 503 name. */
export function parsePypiSpec(spec: string, notes: string[]): PackageRef | undefined {
  const m = PEP508_NAME.exec(spec.trim());
  const rest = m?.[3]?.trim() ?? '';
  if (!m?.[1] || rest.startsWith('@ ') || /^[a-z+]+:/i.test(rest) || spec.includes('://')) {
    notes.push(`"${spec}" is not a plain PyPI package, so it was not checked against OSV`);
    return undefined;
  }
  const name = m[1].toLowerCase().replace(/[-_.]+/g, '-');
  const exact = /^(?:===?|@)\s*(.+)$/.exec(rest)?.[1]?.trim();
  return exact && EXACT_PEP440.test(exact) && exact !== 'latest'
    ? { ecosystem: 'PyPI', name, version: exact }
    : { ecosystem: 'PyPI', name };
}

/** The registry packages an `npx` or `uvx` command line runs; empty for any other command. */
export function packagesOf(
  command: string,
  args: readonly string[],
  platform?: NodeJS.Platform,
): PackageScan {
  const notes: string[] = [];
  const packages: PackageRef[] = [];
  const add = (ref: PackageRef | undefined) => ref && packages.push(ref);
  const runtime = runtimeOf(command, platform);
  if (runtime === 'npx') {
    const { values, positional } = scanArgs(args, NPX_VALUE_OPTS);
    const explicit = values.filter(([k]) => k === '-p' || k === '--package').map(([, v]) => v);
    if (explicit.length) explicit.forEach((s) => add(parseNpmSpec(s, notes)));
    else if (positional) add(parseNpmSpec(positional, notes));
  } else if (runtime === 'uvx') {
    const { values, positional } = scanArgs(args, UVX_VALUE_OPTS);
    const from = values.find(([k]) => k === '--from')?.[1];
    if (from) add(parsePypiSpec(from, notes));
    else if (positional) add(parsePypiSpec(positional, notes));
    for (const [k, v] of values)
      if (k === '--with')
        v.split(',')
          .filter(Boolean)
          .forEach((s) => add(parsePypiSpec(s, notes)));
  }
  return { packages, notes };
}
