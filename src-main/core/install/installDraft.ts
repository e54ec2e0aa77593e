// A server to install, before the user has given its values (README, "Installing servers"): a registry
// entry, a bundle's manifest and a link all become an InstallDraft, and `materialize` turns a draft and the
// user's answers into the one server entry `core.servers.add` saves. Where a value goes decides how a secret
// is kept: an environment variable or a header marked secret goes to the keychain whole (secretEnv,
// secretHeaders); a secret inside an argument or a URL stays in the file as `${input:ID}` and its value goes
// to the keychain as that server's input (secrets/serverSecrets.ts resolves it at start).
import type { ServerConfigInput, TransportKind } from '@shared/config';
import type { InstallInput } from '@shared/registry';
import { MooringError } from '../errors';
import { describeCommandLine } from '../safety/commandAllowlist';

/** `${input:ID}` in a draft's strings: a value the user gives at install. */
export const inputRef = (id: string) => `\${input:${id}}`;
const INPUT_REF = /\$\{input:([^}]+)\}/g;

/** Command-line words that go together: dropped as a group when `dropUnless` (an optional input) is empty. */
export interface ArgGroup {
  tokens: string[];
  dropUnless?: string;
}

export interface KeyedValue {
  key: string;
  value: string;
  dropUnless?: string;
}

export interface InstallDraft {
  transport: TransportKind;
  command?: string;
  args: ArgGroup[];
  env: KeyedValue[];
  headers: KeyedValue[];
  url?: string;
  inputs: InstallInput[];
  warnings: string[];
  /** Other settings the source carries that Mooring keeps (an install link's cwd, timeout, tool filters). */
  extra?: Pick<
    ServerConfigInput,
    | 'cwd'
    | 'timeoutSeconds'
    | 'maxMessageMB'
    | 'includeTools'
    | 'excludeTools'
    | 'policy'
    | 'enabled'
    | 'sandbox'
  >;
}

export interface Materialized {
  config: ServerConfigInput;
  /** Values kept in the keychain as this server's inputs (`${input:ID}` in its args or URL). */
  inputValues: Record<string, string>;
}

const refsIn = (value: string) => [...value.matchAll(INPUT_REF)].map((m) => m[1]!);

/**
 * The command line or URL of a draft as the consent shows it: a value with a default shows the default
 * (what runs unless the user changes it), a secret or a value still to be given shows as `${input:ID}`.
 */
export function draftCommandLine(draft: InstallDraft): string {
  const preview = (value: string) =>
    value.replace(INPUT_REF, (ref, id: string) => {
      const input = draft.inputs.find((i) => i.id === id);
      return input && !input.secret && input.default !== undefined ? input.default : ref;
    });
  return describeCommandLine({
    transport: draft.transport,
    command: draft.command,
    args: draft.args.flatMap((g) => g.tokens.map(preview)),
    env: Object.fromEntries(draft.env.map((e) => [e.key, preview(e.value)])),
    url: draft.url === undefined ? undefined : preview(draft.url),
    secretEnv: draft.env.filter((e) => refsIn(e.value).some((id) => isSecret(draft, id))).map((e) => e.key),
  });
}

const isSecret = (draft: InstallDraft, id: string) => draft.inputs.find((i) => i.id === id)?.secret === true;

/** Checks one answer against its input's format and choices; returns the value to use. */
function checkValue(input: InstallInput, value: string): string {
  if (input.choices?.length && !input.choices.includes(value))
    throw new MooringError(
      'usage',
      `${input.label} must be one of ${input.choices.map((c) => JSON.stringify(c)).join(', ')}.`,
    );
  if (input.format === 'number' && !/^-?\d+(\.\d+)?$/.test(value))
    throw new MooringError('usage', `${input.label} must be a number.`);
  if (input.format === 'boolean' && value !== 'true' && value !== 'false')
    throw new MooringError('usage', `${input.label} must be true or false.`);
  if (/[\0\r\n]/.test(value)) throw new MooringError('usage', `${input.label} must be one line of text.`);
  return value;
}

/**
 * The server entry for `name` from a draft and the user's answers. Throws `usage` naming every required
 * value that is missing; nothing is written here.
 */
export function materialize(
  draft: InstallDraft,
  answers: Readonly<Record<string, string>>,
  name: string,
): Materialized {
  const values = new Map<string, string>();
  const missing: string[] = [];
  for (const input of draft.inputs) {
    const given = answers[input.id];
    const value = given !== undefined && given !== '' ? given : input.default;
    if (value === undefined || value === '') {
      if (input.required) missing.push(input.label);
      continue;
    }
    values.set(input.id, checkValue(input, value));
  }
  if (missing.length)
    throw new MooringError(
      'usage',
      `Required ${missing.length === 1 ? 'value' : 'values'} missing: ${missing.join('; ')}. Nothing was installed.`,
      'Give each one (in the app’s install form, or answer the prompts in a terminal; --input ID=VALUE for a script).',
    );
  const unknown = Object.keys(answers).filter((id) => !draft.inputs.some((i) => i.id === id));
  if (unknown.length)
    throw new MooringError(
      'usage',
      `This server asks for no value named ${unknown.map((u) => `"${u}"`).join(', ')}.`,
      `It asks for: ${draft.inputs.map((i) => i.id).join(', ') || 'nothing'}.`,
    );

  const inputValues: Record<string, string> = {};
  /** `dropUnless` is an input's id (kept when it has a value) or `id=value` (kept when it has that value). */
  const present = (cond: string | undefined) => {
    if (cond === undefined) return true;
    const [id, want] = cond.split('=') as [string, string | undefined];
    return want === undefined ? values.has(id) : values.get(id) === want;
  };
  /** Non-secret values substituted; secret ones kept as references (or substituted, with `inline`). */
  const fill = (template: string, inline: boolean) =>
    template.replace(INPUT_REF, (ref, id: string) => {
      const value = values.get(id) ?? '';
      if (!inline && isSecret(draft, id)) {
        inputValues[id] = value;
        return ref;
      }
      return value;
    });
  const keyed = (list: KeyedValue[]) => {
    const out: Record<string, string> = {};
    const secret: string[] = [];
    for (const e of list) {
      if (!present(e.dropUnless)) continue;
      out[e.key] = fill(e.value, true);
      if (refsIn(e.value).some((id) => isSecret(draft, id))) secret.push(e.key);
    }
    return { out, secret };
  };
  const env = keyed(draft.env);
  const headers = keyed(draft.headers);
  const config: ServerConfigInput = {
    ...draft.extra,
    name,
    transport: draft.transport,
    ...(draft.command ? { command: draft.command } : {}),
    args: draft.args.filter((g) => present(g.dropUnless)).flatMap((g) => g.tokens.map((t) => fill(t, false))),
    env: env.out,
    headers: headers.out,
    secretEnv: env.secret,
    secretHeaders: headers.secret,
    ...(draft.url !== undefined ? { url: fill(draft.url, false) } : {}),
  };
  return { config, inputValues };
}
