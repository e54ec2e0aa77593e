// The variables a server config refers to, and where each one's value would go (docs/config-variables.md).
// One reader for every door a config comes through: an install link is refused when it refers to
// Mooring's environment at all (install/linkDraft.ts), a registry entry or a bundle when a fixed value does
// (install/serverJson.ts), and an imported file or a project folder's file lists every variable at consent
// and holds back a secret-looking one bound for a remote server's URL or headers unless the person allowed
// it for that server (`heldVariables`, config/importConsent.ts). The start refuses a held one
// (`checkHeldVariables`, called by `resolveServerConfig`).
import { isRemoteServer, type ServerConfig } from '@shared/config';
import type { ConfigVariable } from '@shared/importConsent';
import { MooringError } from '../errors';

/** `${env:NAME}`: the one form Mooring itself expands, from its own environment, at start. */
const ENV_FORM = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;
/** `${NAME}` (Claude Code's form; a project's `.mcp.json` is read as `${env:NAME}`) and a bare `$NAME`. */
const BRACED_FORM = /(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const BARE_FORM = /\$([A-Za-z_][A-Za-z0-9_]*)/g;
/** Anything that refers to Mooring's environment or keychain: never in a value a registry or a link fixes. */
export const MOORING_REFERENCE = /\$\{(?:env|input):/;

/** VS Code's workspace variables, filled in from the folder, never from the environment. */
const NOT_ENVIRONMENT = new Set(['workspaceFolder', 'workspaceFolderBasename', 'userHome']);

/** Names whose values are secrets: `*TOKEN*`, `*KEY*`, `*SECRET*`, `*PASSWORD*`, `*COOKIE*`, `*AUTH*`. */
const SECRET_VARIABLE = /token|key|secret|passw(or)?d|cookie|auth|credential|session/i;
/** A `*_URL` variable is a secret when its value carries credentials (`postgres://u:pw@host/db`). */
const URL_VARIABLE = /_URL$/i;

/** Whether a URL-like value carries a user name, a password or a secret-looking query value. */
export function hasCredentials(value: string): boolean {
  try {
    const u = new URL(value);
    if (u.username || u.password) return true;
    return [...u.searchParams.keys()].some((k) => SECRET_VARIABLE.test(k));
  } catch {
    return /^[a-z][a-z0-9+.-]*:\/\/[^/@\s]+@/i.test(value);
  }
}

/**
 * Whether a variable's value must not reach a remote server unasked: its name looks secret, or it is a
 * `*_URL` whose value (now, in `env`) carries credentials — or is not known, so it might.
 */
export function looksSecretVariable(name: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (SECRET_VARIABLE.test(name)) return true;
  if (!URL_VARIABLE.test(name)) return false;
  const value = env[name];
  return value === undefined || hasCredentials(value);
}

/** The strings of a config that can carry a variable, each with where its value goes. */
function places(config: ServerConfig): { value: string; where: string; remote: boolean }[] {
  const remote = isRemoteServer(config);
  const host = hostOf(config.url);
  const cmd = config.command ?? '';
  const out: { value: string; where: string; remote: boolean }[] = [];
  if (config.url !== undefined) out.push({ value: config.url, where: `the URL (${host})`, remote });
  for (const [k, v] of Object.entries(config.headers))
    out.push({ value: v, where: `header ${k}, sent to ${host}`, remote });
  if (config.command !== undefined)
    out.push({ value: config.command, where: 'the command itself', remote: false });
  config.args.forEach((a, i) =>
    out.push({ value: a, where: `argument ${i + 1} of the command ${cmd}`, remote: false }),
  );
  for (const [k, v] of Object.entries(config.env))
    out.push({ value: v, where: `environment variable ${k} of the command ${cmd}`, remote: false });
  if (config.cwd !== undefined)
    out.push({ value: config.cwd, where: 'the working directory', remote: false });
  return out;
}

function hostOf(url: string | undefined): string {
  if (!url) return 'the server';
  const probe = url.replace(/\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*/g, 'VARIABLE');
  try {
    const host = new URL(probe).host;
    return host.includes('VARIABLE') ? 'a host the variable names' : host;
  } catch {
    return 'the server';
  }
}

/**
 * Every variable a config refers to, once per place, with where its value would go and whether it is held
 * (a secret-looking one bound for a remote server's URL or headers, not in `allowed`). `${VAR}` and `$VAR`
 * are listed too: Mooring sends them as written (`expanded: false`), so nothing of them is read.
 */
export function configVariables(
  config: ServerConfig,
  opts: { allowed?: readonly string[]; env?: NodeJS.ProcessEnv } = {},
): ConfigVariable[] {
  const allowed = new Set(opts.allowed ?? []);
  const out: ConfigVariable[] = [];
  for (const p of places(config)) {
    const seen = new Set<string>();
    const add = (name: string, syntax: ConfigVariable['syntax'], expanded: boolean) => {
      const key = `${syntax}:${name}`;
      if (seen.has(key) || NOT_ENVIRONMENT.has(name)) return;
      seen.add(key);
      const secret = looksSecretVariable(name, opts.env);
      const bound = expanded && secret && p.remote;
      out.push({
        name,
        syntax,
        where: p.where,
        expanded,
        secret,
        held: bound && !allowed.has(name),
        ...(bound && allowed.has(name) ? { allowed: true } : {}),
      });
    };
    for (const m of p.value.matchAll(ENV_FORM)) add(m[1]!, 'env', true);
    for (const m of p.value.matchAll(BRACED_FORM)) add(m[1]!, 'braced', false);
    const rest = p.value.replace(ENV_FORM, '').replace(/\$\{[^}]*\}/g, '');
    for (const m of rest.matchAll(BARE_FORM)) add(m[1]!, 'bare', false);
  }
  return out;
}

/** The names a consent holds back for this server (its `heldVariables`). */
export function heldVariableNames(
  config: ServerConfig,
  opts: { allowed?: readonly string[]; env?: NodeJS.ProcessEnv } = {},
): string[] {
  return [
    ...new Set(
      configVariables(config, opts)
        .filter((v) => v.held)
        .map((v) => v.name),
    ),
  ];
}

/**
 * At start: a remote server's URL and headers may not expand a variable its consent held back. Refused
 * before anything is read or sent, naming the variable, where it would have gone and how to allow it.
 */
export function checkHeldVariables(config: ServerConfig, env: NodeJS.ProcessEnv): void {
  const held = new Set(config.heldVariables ?? []);
  if (!held.size || !isRemoteServer(config)) return;
  for (const p of places(config).filter((x) => x.remote))
    for (const m of p.value.matchAll(ENV_FORM)) {
      const name = m[1]!;
      if (!held.has(name)) continue;
      // A `*_URL` held because it might carry credentials goes when, now, it does not.
      if (!SECRET_VARIABLE.test(name) && env[name] !== undefined && !hasCredentials(env[name]!)) continue;
      throw new MooringError(
        'refused',
        `Server "${config.name}": ${p.where} refers to \${env:${name}}, which looks secret and was not allowed for this server when it was imported or approved; nothing was sent.`,
        `If ${config.name} should receive it, allow it: for a project folder's server, mooring mcp approve ${config.name} --workspace DIR --allow-variable ${name}; for an imported one, mooring mcp allow-variable ${config.name} ${name}.`,
      );
    }
}
