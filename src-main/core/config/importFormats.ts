// Import of the MCP configurations people already have: every client's format (clientFormats.ts says which
// and where its entries are), JSON with comments or YAML (importSource.ts). The format is detected. Every
// bad entry is named with its file position, and nothing is written unless every entry is valid.
import { basename, dirname, resolve } from 'node:path';
import { ServerConfigSchema, type ServerConfig } from '@shared/config';
import type { ImportDropped } from '@shared/importConsent';
import { MooringError } from '../errors';
import { withHeldVariables, withoutNeverImported } from './importConsent';
import { detectFormat, FORMATS_READ, normaliseEntry, type ImportFormat } from './clientFormats';
import { assignNames, convertForeign, isObject } from './importEntry';
import { collectInputs, type ImportInput } from './importInputs';
import {
  ConfigInvalidError,
  describeZodIssue,
  formatPath,
  type ConfigIssue,
  type JsonPath,
} from './jsonDiagnostics';
import { readImportSource } from './importSource';
import type { ServersStore } from './serversStore';

export type { ImportFormat, ImportInput };

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

export interface ParseImportOptions {
  fileName: string;
  /**
   * Keep the settings an import never carries (importConsent.ts). Only for a project's own server files,
   * whose approval is pinned to each entry's whole content (workspace/workspaceApprovals.ts).
   */
  keepNeverImported?: boolean;
  /** Per server: the secret-looking variables the person allowed into its remote URL or headers. */
  allowVariables?: Readonly<Record<string, readonly string[]>>;
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
    } else if (converted.errors.length === 0)
      servers.push(
        opts.keepNeverImported
          ? result.data
          : withHeldVariables(result.data, opts.allowVariables?.[result.data.name]),
      );
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
