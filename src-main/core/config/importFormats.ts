// Import of the MCP configurations people already have: every client's format (clientFormats.ts says which
// and where its entries are), JSON with comments or YAML (importSource.ts). The format is detected. Every
// bad entry is named with its file position, and nothing is written unless every entry is valid.
import { basename, dirname, resolve } from 'node:path';
import {
  SERVER_NAME_PATTERN,
  ServerConfigSchema,
  type ServerConfig,
  type TransportKind,
} from '@shared/config';
import type { ImportDropped } from '@shared/importConsent';
import { MooringError } from '../errors';
import { withoutNeverImported } from './importConsent';
import {
  detectFormat,
  FORMATS_READ,
  normaliseEntry,
  type ImportFormat,
  type RawEntry,
} from './clientFormats';
import {
  ConfigInvalidError,
  describeZodIssue,
  formatPath,
  type ConfigIssue,
  type JsonPath,
} from './jsonDiagnostics';
import { readImportSource } from './importSource';
import type { ServersStore } from './serversStore';

export type { ImportFormat };

/** A VS Code input (`${input:ID}`) the UI must ask for before the server can start. */
export interface ImportInput {
  id: string;
  type: string;
  description?: string;
  password: boolean;
  /** Servers whose values refer to it. */
  usedBy: string[];
  /** False when a server refers to it but the file's `inputs` do not declare it. */
  declared: boolean;
}

export interface ImportResult {
  format: ImportFormat;
  servers: ServerConfig[];
  /** Names that were not valid server names and what they became. */
  renamed: { from: string; to: string }[];
  inputs: ImportInput[];
  /** Keys that were present but are not imported, and similar notes for the user. */
  warnings: string[];
  /** Per server: the settings an import never carries that its entry had (importConsent.ts). */
  dropped: Record<string, ImportDropped[]>;
}

const importHint = (file: string) =>
  `Nothing was imported. Fix the entries named above in ${file} and import again.`;

/** `my server.v2` → `my-server-v2`: invalid characters become "-", at most 64 characters, never empty. */
export function sanitizeServerName(name: string): string {
  if (SERVER_NAME_PATTERN.test(name)) return name;
  const cleaned = name
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return cleaned || 'server';
}

/** Streamable HTTP unless the URL's path ends in /sse, the legacy SSE endpoint's usual name. */
export function inferTransport(url: unknown): TransportKind {
  if (typeof url !== 'string') return 'http';
  try {
    return /\/sse\/?$/i.test(new URL(url).pathname) ? 'sse' : 'http';
  } catch {
    return /\/sse\/?$/i.test(url) ? 'sse' : 'http';
  }
}

const TYPE_NAMES: Record<string, TransportKind> = {
  stdio: 'stdio',
  sse: 'sse',
  http: 'http',
  'streamable-http': 'http',
  streamableHttp: 'http',
  streamable_http: 'http',
};

// Keys each foreign format may carry that Mooring imports (after mapping), per entry.
/** Fields other clients write the way Mooring does; `sandboxEnabled`/`sandbox` are VS Code's confinement. */
const CARRIED = [
  'command',
  'args',
  'env',
  'url',
  'headers',
  'cwd',
  'timeoutSeconds',
  'sandboxEnabled',
  'sandbox',
] as const;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ParseImportOptions {
  fileName: string;
  /**
   * Keep the settings an import never carries (importConsent.ts). Only for a project's own server files,
   * whose approval is pinned to each entry's whole content (workspace/workspaceApprovals.ts).
   */
  keepNeverImported?: boolean;
}

export function parseImport(text: string, opts: ParseImportOptions): ImportResult {
  const hint = importHint(opts.fileName);
  const source = readImportSource(text, { fileName: opts.fileName, hint });
  const issues: ConfigIssue[] = [];
  const issueAt = (path: JsonPath, message: string, display: JsonPath = path) =>
    issues.push({
      file: opts.fileName,
      ...source.position(path),
      path: formatPath(display),
      message,
    });
  const doc = source.value;
  const detected = isObject(doc) ? detectFormat(doc) : null;
  if (!isObject(doc) || !detected) {
    issueAt([], `not a known MCP configuration: ${FORMATS_READ}`);
    throw new ConfigInvalidError(issues, hint);
  }
  const { format, entries } = detected;
  const folder = vscodeFolderOf(opts.fileName);
  const renamed = assignNames(entries);
  const warnings: string[] = [];
  const servers: ServerConfig[] = [];
  const dropped: Record<string, ImportDropped[]> = {};
  for (const entry of entries) {
    const display = entry.source;
    if (!isObject(entry.value)) {
      issueAt(entry.source, 'each server must be an object');
      continue;
    }
    if (format === 'zed' && entry.value.command === undefined && entry.value.url === undefined) {
      // A server a Zed extension provides: Zed starts it from the extension, there is no command to copy.
      warnings.push(`${formatPath(display)}: provided by a Zed extension (no command), not imported`);
      continue;
    }
    const warn = (w: string) => warnings.push(`${formatPath(display)}: ${w}`);
    const normal = format === 'mooring' ? undefined : normaliseEntry(format, entry.value);
    if (normal?.skip) {
      warn(normal.skip);
      continue;
    }
    normal?.notes.forEach(warn);
    const converted =
      format === 'mooring' || !normal
        ? {
            input: { ...entry.value, name: entry.name },
            fieldMap: {} as Record<string, JsonPath>,
            errors: [],
          }
        : convertForeign(normal.raw, entry.name, format, warn, normal.map);
    if (entry.projectFolder && converted.input.cwd === undefined) converted.input.cwd = entry.projectFolder;
    if (format === 'vscode' && folder && usesFolder(converted.input))
      converted.input.workspaceFolder = folder;
    for (const e of converted.errors)
      issueAt([...entry.source, ...e.path], e.message, [...display, ...e.path]);
    const safe = opts.keepNeverImported
      ? { entry: converted.input, dropped: [] }
      : withoutNeverImported(converted.input);
    if (safe.dropped.length && typeof entry.name === 'string') dropped[entry.name] = safe.dropped;
    const result = ServerConfigSchema.safeParse(safe.entry);
    if (!result.success) {
      for (const d of result.error.issues.flatMap(describeZodIssue)) {
        const [field, ...rest] = d.path as (string | number)[];
        const mapped = field === undefined ? [] : (converted.fieldMap[field] ?? [field]);
        issueAt([...entry.source, ...mapped, ...rest], d.message, [...display, ...mapped, ...rest]);
      }
    } else if (converted.errors.length === 0) servers.push(result.data);
  }
  if (format === 'mooring')
    for (const key of Object.keys(doc)) if (key !== 'servers') warnings.push(`"${key}" is not imported`);
  const projects = [...new Set(entries.map((e) => e.projectFolder).filter(Boolean))];
  if (projects.length)
    warnings.push(
      `the servers of Claude Code projects run in their project's folder (${projects.join(', ')})`,
    );
  if (issues.length > 0)
    throw new ConfigInvalidError(
      issues.sort((a, b) => a.line - b.line || a.column - b.column),
      hint,
    );

  const inputs =
    format === 'vscode' ? collectInputs(doc, detected.inputsAt ?? ['inputs'], servers, warnings) : [];
  return { format, servers, renamed, inputs, warnings, dropped };
}

/** `<folder>/.vscode/mcp.json` → `<folder>`: what VS Code's `${workspaceFolder}` meant for that file. */
function vscodeFolderOf(fileName: string): string | undefined {
  const full = resolve(fileName);
  return basename(dirname(full)) === '.vscode' && basename(full) === 'mcp.json'
    ? dirname(dirname(full))
    : undefined;
}

const FOLDER_VARIABLE = /\$\{workspaceFolder(Basename)?\}/;
const usesFolder = (input: Record<string, unknown>) =>
  [input.command, input.cwd, input.url, ...(Array.isArray(input.args) ? input.args : [])]
    .concat(isObject(input.env) ? Object.values(input.env) : [])
    .some((v) => typeof v === 'string' && FOLDER_VARIABLE.test(v));

function valueAt(doc: unknown, path: JsonPath): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], doc);
}

/** Sanitises invalid names deterministically; valid names are reserved first so none is taken from them. */
function assignNames(entries: RawEntry[]): { from: string; to: string }[] {
  const taken = new Set(
    entries
      .map((e) => e.name)
      .filter((n): n is string => typeof n === 'string' && SERVER_NAME_PATTERN.test(n)),
  );
  const renamed: { from: string; to: string }[] = [];
  for (const entry of entries) {
    if (typeof entry.name !== 'string' || SERVER_NAME_PATTERN.test(entry.name)) continue;
    const base = sanitizeServerName(entry.name);
    let to = base;
    for (let n = 2; taken.has(to); n++) to = `${base.slice(0, 64 - `-${n}`.length)}-${n}`;
    taken.add(to);
    renamed.push({ from: entry.name, to });
    entry.name = to;
  }
  return renamed;
}

interface Converted {
  input: Record<string, unknown>;
  /** Our field → the key it came from in the entry, for error positions. */
  fieldMap: Record<string, JsonPath>;
  errors: { path: JsonPath; message: string }[];
}

const KNOWN_FOREIGN = new Set<string>([...CARRIED, 'type', 'transport', 'disabled']);

/**
 * Zed's entry as the others write it: older Zed settings nest the command as `{"command": {"path", "args",
 * "env"}}`; current ones write `command`/`args`/`env` flat with `"source": "custom"`.
 */
function flattenZed(raw: Record<string, unknown>): {
  raw: Record<string, unknown>;
  map: Record<string, JsonPath>;
} {
  const { source: _source, ...rest } = raw;
  if (!isObject(rest.command)) return { raw: rest, map: {} };
  const { path, args, env } = rest.command;
  return {
    raw: {
      ...rest,
      command: path,
      ...(args !== undefined ? { args } : {}),
      ...(env !== undefined ? { env } : {}),
    },
    map: { command: ['command', 'path'], args: ['command', 'args'], env: ['command', 'env'] },
  };
}

function convertForeign(
  original: Record<string, unknown>,
  name: unknown,
  format: Exclude<ImportFormat, 'mooring'>,
  warn: (w: string) => void,
  renamedFrom: Record<string, JsonPath> = {},
): Converted {
  const zed = format === 'zed' ? flattenZed(original) : { raw: original, map: {} };
  const raw = zed.raw;
  const input: Record<string, unknown> = { name };
  const fieldMap: Record<string, JsonPath> = { ...renamedFrom, ...zed.map };
  const errors: Converted['errors'] = [];
  for (const key of CARRIED) if (raw[key] !== undefined) input[key] = raw[key];

  const typeKey = raw.type !== undefined ? 'type' : raw.transport !== undefined ? 'transport' : undefined;
  if (typeKey) {
    fieldMap.transport ??= [typeKey];
    const t = raw[typeKey];
    const kind = typeof t === 'string' ? TYPE_NAMES[t] : undefined;
    if (kind) input.transport = kind;
    else {
      // Guess from the other fields so the rest of the entry is checked against the likely kind.
      input.transport = guessTransport(raw);
      errors.push({
        path: [typeKey],
        message: `unknown transport ${JSON.stringify(t)}; expected "stdio", "http", "streamable-http" or "sse"`,
      });
    }
  } else input.transport = guessTransport(raw);
  // Confinement is for a process on this machine: a remote entry's is meaningless (VS Code ignores it too).
  if (input.transport !== 'stdio') {
    delete input.sandboxEnabled;
    delete input.sandbox;
  }

  if (raw.disabled !== undefined) {
    fieldMap.enabled ??= ['disabled'];
    if (typeof raw.disabled === 'boolean') input.enabled = !raw.disabled;
    else errors.push({ path: ['disabled'], message: 'must be true or false' });
  }

  for (const key of Object.keys(raw)) {
    if (KNOWN_FOREIGN.has(key)) continue;
    if (key === 'envFile') warn('"envFile" is not imported; copy the variables you need into "env"');
    else if (format === 'zed' && key === 'settings')
      warn('"settings" is not imported; Zed passes it to the server itself');
    else if (format === 'claude' && (key === 'autoApprove' || key === 'alwaysAllow'))
      warn(`"${key}" is not imported; Mooring asks for approval by its own rules`);
    else warn(`"${key}" is not imported`);
  }
  return { input, fieldMap, errors };
}

const guessTransport = (raw: Record<string, unknown>): TransportKind =>
  raw.url !== undefined && raw.command === undefined ? inferTransport(raw.url) : 'stdio';

const INPUT_REF = /\$\{input:([^}]+)\}/g;

function referencedInputs(server: ServerConfig): Set<string> {
  const values = [
    server.command,
    server.url,
    server.cwd,
    ...server.args,
    ...Object.values(server.env),
    ...Object.values(server.headers),
  ];
  const ids = new Set<string>();
  for (const v of values) if (typeof v === 'string') for (const m of v.matchAll(INPUT_REF)) ids.add(m[1]!);
  return ids;
}

function collectInputs(
  doc: Record<string, unknown>,
  inputsPath: JsonPath,
  servers: ServerConfig[],
  warnings: string[],
): ImportInput[] {
  const raw = valueAt(doc, inputsPath);
  const inputs = new Map<string, ImportInput>();
  if (Array.isArray(raw))
    for (const item of raw) {
      if (!isObject(item) || typeof item.id !== 'string') continue;
      inputs.set(item.id, {
        id: item.id,
        type: typeof item.type === 'string' ? item.type : 'promptString',
        ...(typeof item.description === 'string' ? { description: item.description } : {}),
        password: item.password === true,
        usedBy: [],
        declared: true,
      });
    }
  for (const server of servers)
    for (const id of referencedInputs(server)) {
      let input = inputs.get(id);
      if (!input) {
        input = { id, type: 'promptString', password: false, usedBy: [], declared: false };
        inputs.set(id, input);
        warnings.push(`"\${input:${id}}" is used by "${server.name}" but not declared in "inputs"`);
      }
      input.usedBy.push(server.name);
    }
  return [...inputs.values()];
}

export interface MergeResult {
  added: string[];
  replaced: string[];
}

/**
 * Adds `servers` to the store in one write: all or nothing. A name that already exists is an error
 * naming every collision, unless `replaceExisting` (then the existing entry is replaced in place).
 */
export async function mergeIntoStore(
  store: ServersStore,
  servers: readonly ServerConfig[],
  opts: { replaceExisting?: boolean } = {},
): Promise<MergeResult> {
  const result: MergeResult = { added: [], replaced: [] };
  await store.transaction((current) => {
    const incoming = new Map(servers.map((s) => [s.name, s]));
    const clashes = current.filter((s) => incoming.has(s.name)).map((s) => s.name);
    if (clashes.length > 0 && !opts.replaceExisting)
      throw new MooringError(
        'config_invalid',
        `Already configured: ${clashes.map((n) => `"${n}"`).join(', ')}. Nothing was imported.`,
        'Rename them in the file, remove the existing servers first, or import with --replace to overwrite them.',
      );
    result.replaced = clashes;
    const next = current.map((s) => incoming.get(s.name) ?? s);
    for (const s of servers) {
      if (clashes.includes(s.name)) continue;
      next.push(s);
      result.added.push(s.name);
    }
    return next;
  });
  return result;
}

/** Parses `text` in any known format and merges it into the store, all or nothing. */
export async function importIntoStore(
  store: ServersStore,
  text: string,
  opts: { fileName: string; replaceExisting?: boolean },
): Promise<ImportResult & MergeResult> {
  const parsed = parseImport(text, opts);
  const merged = await mergeIntoStore(store, parsed.servers, opts);
  return { ...parsed, ...merged };
}
