// One entry of another client's file as a Mooring server entry (docs/install.md, "Installing a server":
// importing reads every client's format): names made valid, the transport found from the entry's type or
// its fields, the keys Mooring imports carried over (with where each came from, for error positions), and
// a note for every key it does not.
import { SERVER_NAME_PATTERN, type TransportKind } from '@shared/config';
import type { ImportFormat, RawEntry } from './clientFormats';
import type { JsonPath } from './jsonDiagnostics';

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
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Sanitises invalid names deterministically; valid names are reserved first so none is taken from them. */
export function assignNames(entries: RawEntry[]): { from: string; to: string }[] {
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

export function convertForeign(
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
