// The Add/Edit form's model: a server entry as editable rows, and back. The raw JSON view edits the
// same entry (issue 5); fields the form has no control for (policy, filters, trust) are kept as they are.
import type { ServerConfig, ServerConfigInput, TransportKind } from '@shared/config';

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
  /** Run a command outside the runtime allowlist (issue 4); the user's explicit choice. */
  trust: boolean;
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
  trust: false,
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
    trust,
    ...rest
  } = input as ServerConfigInput;
  return {
    name: name ?? '',
    transport: transport ?? 'stdio',
    command: command ?? '',
    args: (args ?? []).join('\n'),
    env: rows(env, secretEnv),
    url: url ?? '',
    headers: rows(headers, secretHeaders),
    timeoutSeconds: timeoutSeconds === undefined ? '' : String(timeoutSeconds),
    trust: trust ?? false,
    rest,
  };
}

const map = (rs: KeyValueRow[]) =>
  Object.fromEntries(rs.filter((r) => r.key.trim()).map((r) => [r.key.trim(), r.value]));
const secretKeys = (rs: KeyValueRow[]) => rs.filter((r) => r.key.trim() && r.secret).map((r) => r.key.trim());

export function inputFrom(d: ServerDraft): ServerConfigInput {
  const out: ServerConfigInput = { ...d.rest, name: d.name.trim(), transport: d.transport };
  if (d.transport === 'stdio') {
    if (d.command.trim()) out.command = d.command.trim();
    const args = d.args.split('\n').filter((a) => a.trim() !== '');
    if (args.length) out.args = args;
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
  if (d.trust) out.trust = true;
  return out;
}
