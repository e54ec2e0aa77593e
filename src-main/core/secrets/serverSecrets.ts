// Server secrets (ARCHITECTURE.md, "The core, by room": secrets): env values and headers marked secret live
// in the keychain under `server/<name>/env/<KEY>` and `server/<name>/header/<Header>`; mcp_servers.json
// holds "<keychain>" in their place. `${env:NAME}` references are resolved from Mooring's own environment
// at start. `secretValuesOf` tells the redactor which resolved values to mask wherever text is shown.
import type { ServerConfig, ServerConfigInput } from '@shared/config';
import { MooringError } from '../errors';
import { checkHeldVariables } from './configVariables';
import type { SecretStore } from './secretStore';

/** What the file holds in place of a value kept in the keychain. */
export const KEYCHAIN_REF = '<keychain>';
/** What displays and logs show in place of a secret value. */
export const MASK = '••••••';

export const envAccount = (server: string, key: string) => `server/${server}/env/${key}`;
export const headerAccount = (server: string, header: string) => `server/${server}/header/${header}`;
/**
 * A value given when the server was installed or imported and referred to as `${input:ID}` in its args, URL
 * or elsewhere (a registry entry's secret argument, a bundle's sensitive setting, a VS Code input).
 */
export const inputAccount = (server: string, id: string) => `server/${server}/input/${id}`;

type AccountFields = Pick<ServerConfig, 'name' | 'secretEnv' | 'secretHeaders'> &
  Partial<Pick<ServerConfig, 'command' | 'args' | 'env' | 'headers' | 'url' | 'cwd'>>;

/** The ids of the `${input:ID}` references in a config's strings. */
export function inputReferences(
  config: Omit<AccountFields, 'name' | 'secretEnv' | 'secretHeaders'>,
): string[] {
  const values = [
    config.command,
    config.url,
    config.cwd,
    ...(config.args ?? []),
    ...Object.values(config.env ?? {}),
    ...Object.values(config.headers ?? {}),
  ];
  const ids = new Set<string>();
  for (const v of values)
    if (typeof v === 'string') for (const m of v.matchAll(/\$\{input:([^}]+)\}/g)) ids.add(m[1]!);
  return [...ids];
}

const SECRET_NAME = /token|key|secret|password|passwd|authorization|cookie|^x-auth/i;
/**
 * Names whose values are treated as secret even when not marked: `*TOKEN*`, `*KEY*`, `*SECRET*`,
 * `*PASSWORD*`, `Authorization` and `Proxy-Authorization`, `Cookie`, `X-Auth*`.
 */
export const looksSecret = (name: string): boolean => SECRET_NAME.test(name);

/** A URL with a password in it (`postgres://user:pw@db/app`): a secret whatever its name. */
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i;
export const holdsCredential = (value: string): boolean => URL_WITH_PASSWORD.test(value);

const ENV_REF = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;
const INPUT_REF = /\$\{input:([^}]+)\}/;
/** A value that points elsewhere (`${env:X}`, `${input:X}`, `<keychain>`) is not itself a secret. */
export const isReference = (value: string): boolean =>
  value === KEYCHAIN_REF || /\$\{(env|input):[^}]+\}/.test(value);

export interface SecretEntry {
  account: string;
  value: string;
  /** What it is, for a person: "env GITHUB_TOKEN", "header Authorization", "input api_key". */
  field?: string;
}

export interface SplitSecrets {
  /** Safe to write to mcp_servers.json: secret values replaced by KEYCHAIN_REF. */
  config: ServerConfigInput;
  /** What to store in the keychain. Values "<keychain>" or "••••••" are not here (they are kept as stored). */
  secrets: SecretEntry[];
}

/**
 * Splits a server input into the file-safe config and the secrets to store. Keys listed in
 * `secretEnv`/`secretHeaders` are secret; with `detect` (default true), so are keys whose names look
 * secret, unless their value is a reference.
 */
export function splitSecrets(input: ServerConfigInput, opts: { detect?: boolean } = {}): SplitSecrets {
  const detect = opts.detect ?? true;
  const name = input.name;
  const secrets: SecretEntry[] = [];
  const split = (
    values: Record<string, string> | undefined,
    marked: string[] | undefined,
    account: (k: string) => string,
    kind: 'env' | 'header',
  ) => {
    const out = { ...(values ?? {}) };
    const keys = new Set(marked ?? []);
    if (detect)
      for (const [k, v] of Object.entries(out))
        if ((looksSecret(k) || holdsCredential(v)) && !isReference(v)) keys.add(k);
    const secretKeys: string[] = [];
    for (const k of keys) {
      // A masked value sent back by a form (from maskConfig) means "unchanged", never the new secret.
      if (out[k] === MASK) out[k] = KEYCHAIN_REF;
      const v = out[k];
      // A marked key missing from the map is left for the schema to report ("is not a key of env").
      if (v === undefined) {
        secretKeys.push(k);
        continue;
      }
      // A reference to the environment or a VS Code input is not a secret value: it stays in the file.
      if (v !== KEYCHAIN_REF && isReference(v)) continue;
      if (v !== KEYCHAIN_REF) secrets.push({ account: account(k), value: v, field: `${kind} ${k}` });
      out[k] = KEYCHAIN_REF;
      secretKeys.push(k);
    }
    return { values: out, secretKeys };
  };
  const env = split(input.env, input.secretEnv, (k) => envAccount(name, k), 'env');
  const headers = split(input.headers, input.secretHeaders, (k) => headerAccount(name, k), 'header');
  return {
    config: {
      ...input,
      env: env.values,
      headers: headers.values,
      secretEnv: env.secretKeys,
      secretHeaders: headers.secretKeys,
    },
    secrets,
  };
}

/** Every keychain account a config refers to. */
export function secretAccounts(config: AccountFields): string[] {
  return [
    ...config.secretEnv.map((k) => envAccount(config.name, k)),
    ...config.secretHeaders.map((h) => headerAccount(config.name, h)),
    ...inputReferences(config).map((id) => inputAccount(config.name, id)),
  ];
}

function substituteEnv(
  value: string,
  where: string,
  server: string,
  env: NodeJS.ProcessEnv,
  inputs: ReadonlyMap<string, string> = new Map(),
): string {
  const withInputs = value.replace(/\$\{input:([^}]+)\}/g, (ref, id: string) => inputs.get(id) ?? ref);
  const out = withInputs.replace(ENV_REF, (_m, name: string) => {
    const v = env[name];
    if (v === undefined)
      throw new MooringError(
        'secret_unavailable',
        `Server "${server}": ${where} refers to \${env:${name}}, but ${name} is not set in Mooring's environment.`,
        `Export ${name} before starting Mooring, or store the value in the keychain instead.`,
      );
    return v;
  });
  const input = INPUT_REF.exec(out);
  if (input)
    throw new MooringError(
      'secret_unavailable',
      `Server "${server}": ${where} refers to the input \${input:${input[1]}}, whose value is not in the keychain.`,
      `Install or import the server again and give the value (it is kept in the keychain), or edit the server and use \${env:NAME}.`,
    );
  return out;
}

/**
 * The config a session starts with: keychain values filled in and `${env:NAME}` references resolved.
 * Throws `secret_unavailable` naming the server and the missing value. Never log the result.
 */
export async function resolveServerConfig(
  config: ServerConfig,
  store: SecretStore,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ServerConfig> {
  const name = config.name;
  // A secret-looking variable the consent held back never reaches a remote server's URL or headers.
  checkHeldVariables(config, env);
  const fetch = async (kind: 'env' | 'header', key: string, account: string): Promise<string> => {
    let value: string | null;
    try {
      value = await store.get(account);
    } catch (err) {
      if (err instanceof MooringError)
        throw new MooringError(
          err.code,
          `Server "${name}": cannot read the secret ${kind} ${key}. ${err.message}`,
          err.hint,
          {
            cause: err,
          },
        );
      throw err;
    }
    if (value === null)
      throw new MooringError(
        'secret_unavailable',
        `Server "${name}": the secret ${kind} ${key} is not in the keychain.`,
        `Enter it again: edit the server in the app, or remove it and add it back with --secret-${kind} ${key}=VALUE.`,
      );
    return value;
  };

  // Values given at install or import (`${input:ID}`), kept in the keychain under this server's name.
  const inputs = new Map<string, string>();
  for (const id of inputReferences(config)) {
    const value = await store.get(inputAccount(name, id)).catch(() => null);
    if (value !== null) inputs.set(id, value);
  }
  const resolveMap = async (values: Record<string, string>, secret: string[], kind: 'env' | 'header') => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(values))
      out[k] = secret.includes(k)
        ? await fetch(kind, k, kind === 'env' ? envAccount(name, k) : headerAccount(name, k))
        : substituteEnv(v, `${kind} ${k}`, name, env, inputs);
    return out;
  };

  return {
    ...config,
    env: await resolveMap(config.env, config.secretEnv, 'env'),
    headers: await resolveMap(config.headers, config.secretHeaders, 'header'),
    args: config.args.map((a, i) => substituteEnv(a, `argument ${i + 1}`, name, env, inputs)),
    ...(config.url !== undefined ? { url: substituteEnv(config.url, 'url', name, env, inputs) } : {}),
  };
}

const ANY_REF = /\$\{(env|input):([^}]+)\}/g;
const escapeRegExp = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The values `${env:…}`/`${input:…}` references in `template` took in `resolved`, with the reference each
 * came from. Empty when the two do not line up.
 */
function substitutions(template: string, resolved: string): { kind: string; name: string; value: string }[] {
  const refs = [...template.matchAll(ANY_REF)];
  if (!refs.length) return [];
  const literal = template.split(ANY_REF).filter((_, i) => i % 3 === 0);
  const m = new RegExp(`^${literal.map(escapeRegExp).join('([\\s\\S]*?)')}$`).exec(resolved);
  if (!m) return [];
  return refs.map((r, i) => ({ kind: r[1]!, name: r[2]!, value: m[i + 1]! }));
}

/** `Bearer abc`, `Basic dXNlcjpw`, `token abc` → the credential after the scheme, too. */
function withCredential(value: string): string[] {
  const m = /^(?:bearer|basic|token|bot)\s+(\S+)$/i.exec(value.trim());
  return m ? [value, m[1]!] : [value];
}

/** The password of a URL in `value`, raw and decoded (none when there is none). */
function passwordOf(value: string): string[] {
  const m = /:\/\/[^/\s:@]*:([^/\s@]+)@/.exec(value);
  if (!m) return [];
  try {
    return [m[1]!, decodeURIComponent(m[1]!)];
  } catch {
    return [m[1]!];
  }
}

/**
 * Every secret value a resolved config holds, for redaction: keychain values and values of secret-looking
 * keys (whole, and the credential of an `Authorization`-style value), what `${input:…}` references became
 * (VS Code inputs are kept in the keychain), what `${env:NAME}` references became when NAME or the key looks
 * secret, secret-looking arguments (`--api-key=…`, `--token …`), and a URL's password and secret-looking
 * query values.
 */
export function secretValuesOf(template: ServerConfig, resolved: ServerConfig): string[] {
  const out: string[] = [];
  const fromRefs = (tmpl: string | undefined, value: string, keySecret: boolean) => {
    for (const sub of substitutions(tmpl ?? '', value))
      if (sub.kind === 'input' || keySecret || looksSecret(sub.name)) out.push(...withCredential(sub.value));
  };
  const maps = [
    [template.env, resolved.env, template.secretEnv],
    [template.headers, resolved.headers, template.secretHeaders],
  ] as const;
  for (const [tmpl, values, marked] of maps)
    for (const [k, v] of Object.entries(values)) {
      const keySecret = marked.includes(k) || looksSecret(k) || holdsCredential(v);
      if (keySecret) out.push(...withCredential(v), ...passwordOf(v));
      fromRefs(tmpl[k], v, keySecret);
    }
  const masked = maskArgs(resolved.args);
  resolved.args.forEach((a, i) => {
    fromRefs(template.args[i], a, false);
    const m = masked[i];
    if (m === a) return;
    if (m === MASK) out.push(a);
    else if (m?.endsWith(`=${MASK}`)) out.push(a.slice(a.indexOf('=') + 1));
  });
  if (resolved.url) {
    fromRefs(template.url, resolved.url, false);
    try {
      const u = new URL(resolved.url);
      if (u.password) out.push(u.password, decodeURIComponent(u.password));
      for (const [k, v] of u.searchParams) if (looksSecret(k)) out.push(v);
    } catch {
      /* not a URL: nothing more to find */
    }
  }
  return [...new Set(out)].filter((v) => v && !isReference(v) && v !== MASK);
}

/** A URL for display: password and secret-looking query values masked; with `hostOnly`, scheme and host only. */
export function maskUrl(url: string, opts: { hostOnly?: boolean } = {}): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return opts.hostOnly ? MASK : url;
  }
  if (opts.hostOnly) return `${u.protocol}//${u.host}`;
  if (u.password) u.password = MASK;
  for (const key of [...u.searchParams.keys()]) if (looksSecret(key)) u.searchParams.set(key, MASK);
  return u.toString().replaceAll(encodeURIComponent(MASK), MASK);
}

/** `--api-key=abc` → `--api-key=••••••`; `--token abc` → `--token ••••••`. */
export function maskArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const inline = /^(--?[\w.-]+)=(.*)$/.exec(a);
    if (inline && looksSecret(inline[1]!) && !isReference(inline[2]!)) out.push(`${inline[1]}=${MASK}`);
    else if (
      /^--?[\w.-]+$/.test(a) &&
      looksSecret(a) &&
      i + 1 < args.length &&
      !args[i + 1]!.startsWith('-')
    ) {
      out.push(a);
      const next = args[++i]!;
      out.push(isReference(next) ? next : MASK);
    } else out.push(a);
  }
  return out;
}

/**
 * A config safe to display or log: secret and secret-looking values → "••••••" (references stay
 * visible, they are not secrets), secret-looking arguments masked, URL password masked; with
 * `urlHostOnly`, the URL is reduced to scheme and host (logs).
 */
export function maskConfig<T extends ServerConfig>(config: T, opts: { urlHostOnly?: boolean } = {}): T {
  const maskMap = (values: Record<string, string>, secret: string[]) =>
    Object.fromEntries(
      Object.entries(values).map(([k, v]) => [
        k,
        secret.includes(k) || ((looksSecret(k) || holdsCredential(v)) && !isReference(v)) ? MASK : v,
      ]),
    );
  return {
    ...config,
    env: maskMap(config.env, config.secretEnv),
    headers: maskMap(config.headers, config.secretHeaders),
    args: maskArgs(config.args),
    ...(config.url !== undefined ? { url: maskUrl(config.url, { hostOnly: opts.urlHostOnly }) } : {}),
  };
}

/** Deletes every keychain entry of a server. Returns the accounts that could not be deleted. */
export async function deleteServerSecrets(store: SecretStore, config: AccountFields): Promise<string[]> {
  const failed: string[] = [];
  for (const account of secretAccounts(config)) await store.delete(account).catch(() => failed.push(account));
  return failed;
}
