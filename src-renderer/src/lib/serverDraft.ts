// The Add/Edit form's model: a server entry as editable rows, and back. The raw JSON view edits the
// same entry; fields the form has no control for (the tool filters, allowPrivateNetwork, …) are kept as
// they are.
import type { ServerConfig, ServerConfigInput, ServerPolicy, TransportKind } from '@shared/config';
import { LogLevelSchema, type LogLevel } from '@shared/settings';
import { isLocalTransport } from '@shared/transports';

export interface KeyValueRow {
  key: string;
  value: string;
  secret: boolean;
}

export interface ServerDraft {
  name: string;
  transport: TransportKind;
  command: string;
  /** One argument per line: arguments may contain spaces. */
  args: string;
  env: KeyValueRow[];
  url: string;
  headers: KeyValueRow[];
  timeoutSeconds: string;
  /** The folder the command runs in (stdio). */
  cwd: string;
  /** The cap on one message from the server, in MB (stdio). */
  maxMessageMB: string;
  /** When tool calls of this server ask first (see shared/config.ts ServerPolicySchema). */
  policy: ServerPolicy;
  /** Run a command outside the runtime allowlist (README, "Safety"); the user's explicit choice. */
  trust: boolean;
  /** The level it logs at; '' is the settings' level. */
  logLevel: LogLevel | '';
  /** Tokens of the user's model it may spend on sampling in an hour; '' is the default. */
  samplingTokensPerHour: string;
  /** Everything else of the entry, carried through unchanged. */
  rest: Partial<ServerConfigInput>;
}

export const emptyDraft = (): ServerDraft => ({
  name: '',
  transport: 'stdio',
  command: '',
  args: '',
  env: [],
  url: '',
  headers: [],
  timeoutSeconds: '',
  cwd: '',
  maxMessageMB: '',
  policy: 'default',
  trust: false,
  logLevel: '',
  samplingTokensPerHour: '',
  rest: {},
});

const rows = (values: Record<string, string> | undefined, secret: string[] | undefined): KeyValueRow[] =>
  Object.entries(values ?? {}).map(([key, value]) => ({
    key,
    value,
    secret: secret?.includes(key) ?? false,
  }));

export function draftFrom(input: ServerConfigInput | ServerConfig): ServerDraft {
  const {
    name,
    transport,
    command,
    args,
    env,
    url,
    headers,
    secretEnv,
    secretHeaders,
    timeoutSeconds,
    cwd,
    maxMessageMB,
    policy,
    trust,
    logLevel,
    samplingTokensPerHour,
    ...rest
  } = input as ServerConfigInput;
  // A level the form cannot show (a typo in the file) stays in the entry, so saving names what is wrong.
  const level = LogLevelSchema.safeParse(logLevel);
  if (logLevel !== undefined && !level.success) Object.assign(rest, { logLevel });
  return {
    name: name ?? '',
    transport: transport ?? 'stdio',
    command: command ?? '',
    args: (args ?? []).join('\n'),
    env: rows(env, secretEnv),
    url: url ?? '',
    headers: rows(headers, secretHeaders),
    timeoutSeconds: timeoutSeconds === undefined ? '' : String(timeoutSeconds),
    cwd: cwd ?? '',
    maxMessageMB: maxMessageMB === undefined ? '' : String(maxMessageMB),
    policy: policy ?? 'default',
    trust: trust ?? false,
    logLevel: level.success ? level.data : '',
    samplingTokensPerHour: samplingTokensPerHour === undefined ? '' : String(samplingTokensPerHour),
    rest,
  };
}

const map = (rs: KeyValueRow[]) =>
  Object.fromEntries(rs.filter((r) => r.key.trim()).map((r) => [r.key.trim(), r.value]));
const secretKeys = (rs: KeyValueRow[]) => rs.filter((r) => r.key.trim() && r.secret).map((r) => r.key.trim());

export function inputFrom(d: ServerDraft): ServerConfigInput {
  const out: ServerConfigInput = { ...d.rest, name: d.name.trim(), transport: d.transport };
  if (isLocalTransport(d.transport)) {
    if (d.command.trim()) out.command = d.command.trim();
    const args = d.args.split('\n').filter((a) => a.trim() !== '');
    if (args.length) out.args = args;
    if (d.cwd.trim()) out.cwd = d.cwd.trim();
    if (d.maxMessageMB.trim()) out.maxMessageMB = Number(d.maxMessageMB);
    if (d.env.length) {
      out.env = map(d.env);
      const s = secretKeys(d.env);
      if (s.length) out.secretEnv = s;
    }
  } else {
    if (d.url.trim()) out.url = d.url.trim();
    if (d.headers.length) {
      out.headers = map(d.headers);
      const s = secretKeys(d.headers);
      if (s.length) out.secretHeaders = s;
    }
  }
  if (d.timeoutSeconds.trim()) out.timeoutSeconds = Number(d.timeoutSeconds);
  if (d.policy !== 'default') out.policy = d.policy;
  if (d.trust) out.trust = true;
  if (d.logLevel) out.logLevel = d.logLevel;
  if (d.samplingTokensPerHour.trim()) out.samplingTokensPerHour = Number(d.samplingTokensPerHour);
  return out;
}

/**
 * The name of the client config a pasted JSON text is, when it is a whole file rather than one entry:
 * `{"mcpServers": {…}}` (Claude Desktop, Cursor and most READMEs), VS Code's `servers` (or `mcp.servers`
 * in its settings), Zed's `context_servers`, Mooring's own `servers` list. Null for anything else.
 */
export function clientConfigKind(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const isMap = (x: unknown) => typeof x === 'object' && x !== null && !Array.isArray(x);
  if (isMap(v.mcpServers)) return 'mcpServers';
  if (isMap(v.context_servers)) return 'context_servers';
  if (Array.isArray(v.servers) || isMap(v.servers)) return 'servers';
  if (isMap(v.mcp) && isMap((v.mcp as Record<string, unknown>).servers)) return 'mcp.servers';
  return null;
}
