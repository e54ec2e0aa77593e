// mcp_servers.json: its format (docs/data-on-disk.md, "Data on disk"): parse with file:line:column and
// duplicate names, validate, and write compactly. Reading and writing go through JsonFileStore, so an
// invalid file is never overwritten and every change holds the file's lock.
import {
  DEFAULT_MAX_MESSAGE_MB,
  DEFAULT_TIMEOUT_SECONDS,
  ServerConfigSchema,
  ServersFileSchema,
  type ServerConfig,
  type ServerConfigInput,
  type ServersFile,
} from '@shared/config';
import type { z } from 'zod';
import {
  ConfigInvalidError,
  locateIssues,
  offsetOf,
  parseJsonText,
  type ConfigIssue,
} from './jsonDiagnostics';
import { JsonFileStore, type JsonFileFormat } from './jsonFileStore';

export const serversFileHint = (file: string) =>
  `Fix ${file} by hand (Mooring has not changed it), then run "mooring mcp list" to check it.`;

/** Parses the text of a servers file; `fileName` is used in messages. Whitespace only = no servers. */
export function parseServersText(text: string, fileName: string): ServersFile {
  if (text.trim() === '') return { servers: [] };
  const hint = serversFileHint(fileName);
  const parsed = parseJsonText(text, { fileName, hint });
  const result = ServersFileSchema.safeParse(parsed.value);
  if (result.success) return result.data;
  const issues = locateIssues(parsed, result.error.issues);
  // zod skips the file-level duplicate check while any entry is invalid; report duplicates anyway,
  // so one round of fixing is enough.
  if (!issues.some((i) => i.message.startsWith('duplicate server name'))) {
    for (const dup of rawDuplicates(parsed.value))
      issues.push({
        file: fileName,
        ...parsed.lines.position(offsetOf(parsed.root, ['servers', dup.index, 'name'])),
        path: `servers[${dup.index}].name`,
        message: `duplicate server name "${dup.name}" (also at servers[${dup.first}]); names must be unique`,
      });
  }
  throw new ConfigInvalidError(sortIssues(issues), hint);
}

function rawDuplicates(value: unknown): { name: string; index: number; first: number }[] {
  const servers = (value as { servers?: unknown } | null)?.servers;
  if (!Array.isArray(servers)) return [];
  const seen = new Map<string, number>();
  const out: { name: string; index: number; first: number }[] = [];
  servers.forEach((s: unknown, index) => {
    const name = (s as { name?: unknown } | null)?.name;
    if (typeof name !== 'string') return;
    const first = seen.get(name);
    if (first === undefined) seen.set(name, index);
    else out.push({ name, index, first });
  });
  return out;
}

const sortIssues = (issues: ConfigIssue[]) =>
  [...issues].sort((a, b) => a.line - b.line || a.column - b.column);

/** Loads the servers file; a missing file is an empty list. Throws `config_invalid` with every issue. */
export function loadServersFile(file: string): Promise<ServersFile> {
  return serversFileStore(file).read();
}

// Keys written only when they differ from the schema default, so the file stays short and readable.
const DEFAULT_VALUED: Partial<Record<keyof ServerConfig, unknown>> = {
  enabled: true,
  timeoutSeconds: DEFAULT_TIMEOUT_SECONDS,
  maxMessageMB: DEFAULT_MAX_MESSAGE_MB,
  trust: false,
  policy: 'default',
  allowPrivateNetwork: false,
};
const EMPTY_DEFAULTED = new Set<keyof ServerConfig>([
  'args',
  'env',
  'headers',
  'secretEnv',
  'secretHeaders',
  'excludeTools',
]);
const KEY_ORDER = Object.keys(ServerConfigSchema.shape) as (keyof ServerConfig)[];

/** A server as written to disk: schema key order, keys equal to their default left out. */
export function compactServer(server: ServerConfig): ServerConfigInput {
  const out: Record<string, unknown> = {};
  for (const key of KEY_ORDER) {
    const value = server[key];
    if (value === undefined) continue;
    if (key in DEFAULT_VALUED && DEFAULT_VALUED[key] === value) continue;
    if (EMPTY_DEFAULTED.has(key) && isEmpty(value)) continue;
    out[key] = value;
  }
  return out as ServerConfigInput;
}

const isEmpty = (v: unknown) => (Array.isArray(v) ? v.length === 0 : Object.keys(v as object).length === 0);

export const serversFormat: JsonFileFormat<ServersFile, z.input<typeof ServersFileSchema>> = {
  schema: ServersFileSchema,
  empty: () => ({ servers: [] }),
  fileHint: serversFileHint,
  changeHint: 'Correct the server settings named above and try again.',
  parse: parseServersText,
  toDisk: (doc) => ({ servers: doc.servers.map(compactServer) }),
};

/** mcp_servers.json as a JsonFileStore (ServersStore is the typed door the core uses). */
export function serversFileStore(file: string, opts: { watchDebounceMs?: number } = {}) {
  return new JsonFileStore({ file, format: serversFormat, ...opts });
}

/** Saves the servers under the file's lock; refuses (throws `config_invalid`) while the file on disk is invalid. */
export async function saveServersFile(
  file: string,
  doc: { servers: readonly ServerConfigInput[] },
): Promise<void> {
  await serversFileStore(file).update(() => ({ servers: [...doc.servers] }));
}
