// Server changes that involve secrets: the keychain and mcp_servers.json change together.
// Secrets are stored first and rolled back if the file write fails, so the file never refers to a
// secret that is not there and a failed change leaves no new secret behind. The file never holds a value.
import type { ServerConfig, ServerConfigInput } from '@shared/config';
import { SET_UP_KEYCHAIN, USE_ENV_REFERENCE } from '@shared/keychainHelp';
import { mergeIntoStore, parseImport, type ImportResult, type MergeResult } from './importFormats';
import { parseServerInput, type ServersStore } from './serversStore';
import { MooringError } from '../errors';
import type { SecretStore } from '../secrets/secretStore';
import {
  deleteServerSecrets,
  envAccount,
  headerAccount,
  inputAccount,
  inputReferences,
  KEYCHAIN_REF,
  maskConfig,
  resolveServerConfig,
  secretAccounts,
  splitSecrets,
  type SecretEntry,
} from '../secrets/serverSecrets';

export interface SplitOptions {
  /** Treat env/header names that look secret (`*TOKEN*`, `*KEY*`, …) as secret; default true. */
  detect?: boolean;
}

/** Keychain writes that can be undone: remembers each account's value before the first write. */
class SecretWrites {
  private readonly prior = new Map<string, string | null>();
  constructor(private readonly store: SecretStore) {}
  async set(account: string, value: string): Promise<void> {
    if (!this.prior.has(account)) this.prior.set(account, await this.store.get(account));
    await this.store.set(account, value);
  }
  async setAll(entries: readonly SecretEntry[]): Promise<void> {
    for (const e of entries) await this.set(e.account, e.value);
  }
  /** Best effort: the original error is what the caller reports. */
  async rollback(): Promise<void> {
    for (const [account, value] of this.prior)
      await (value === null ? this.store.delete(account) : this.store.set(account, value)).catch(
        () => undefined,
      );
  }
}

export class ServerManager {
  constructor(
    readonly store: ServersStore,
    readonly secrets: SecretStore,
  ) {}

  /**
   * Fails early, before anything is written, when there are secrets to store and no keychain: the error
   * names each value that could not be stored (`keychainNeeded`), so nothing is lost without a word.
   */
  private async ensureKeychain(server: string, entries: readonly { field?: string }[]): Promise<void> {
    if (entries.length === 0) return;
    const a = await this.secrets.available();
    if (!a.ok) throw keychainNeeded([{ server, secrets: entries }], { reason: a.reason, action: 'saved' });
  }

  /**
   * Adds a server, its secret values to the keychain and "<keychain>" to the file. `inputValues` are the
   * values of its `${input:ID}` references (an install's secret arguments), kept in the keychain too.
   */
  async add(
    input: ServerConfigInput,
    opts: SplitOptions & { inputValues?: Readonly<Record<string, string>> } = {},
  ): Promise<ServerConfig> {
    const split = splitSecrets(input, opts);
    const server = parseServerInput(split.config);
    const secrets = [...split.secrets, ...inputSecrets(server, opts.inputValues)];
    await this.ensureKeychain(server.name, secrets);
    const writes = new SecretWrites(this.secrets);
    try {
      await this.store.transaction(async (current) => {
        if (current.some((s) => s.name === server.name))
          throw new MooringError(
            'config_invalid',
            `A server named "${server.name}" already exists.`,
            'Choose another name, or remove the existing server first with "mooring mcp remove".',
          );
        await writes.setAll(secrets);
        return [...current, server];
      });
    } catch (err) {
      await writes.rollback();
      throw err;
    }
    return server;
  }

  /**
   * Replaces server `name` with `input`. A secret given as "<keychain>" keeps its stored value (and
   * moves with a rename); secrets that are no longer used are deleted from the keychain.
   */
  async update(name: string, input: ServerConfigInput, opts: SplitOptions = {}): Promise<ServerConfig> {
    const { config, secrets } = splitSecrets(input, opts);
    let server = parseServerInput(config);
    const writes = new SecretWrites(this.secrets);
    let old: ServerConfig | undefined;
    try {
      await this.store.transaction(async (current) => {
        const at = current.findIndex((s) => s.name === name);
        if (at < 0)
          throw new MooringError('not_found', `No server named "${name}".`, 'Run "mooring mcp list".');
        old = current[at]!;
        if (server.name !== name && current.some((s) => s.name === server.name))
          throw new MooringError(
            'config_invalid',
            `Cannot rename "${name}" to "${server.name}": a server with that name already exists.`,
            'Choose a name that is not in use.',
          );
        const kept = keptSecrets(old, server, secrets);
        await this.ensureKeychain(server.name, [...secrets, ...kept]);
        await writes.setAll(secrets);
        for (const k of kept) {
          const value = await this.secrets.get(k.from);
          if (value !== null) await writes.set(k.account, value);
        }
        // What a consent held back stays held through an edit that does not name it (the app's form).
        if (!('heldVariables' in input) && old.heldVariables)
          server = { ...server, heldVariables: old.heldVariables };
        return current.map((s, i) => (i === at ? server : s));
      });
    } catch (err) {
      await writes.rollback();
      throw err;
    }
    const now = new Set(secretAccounts(server));
    for (const account of secretAccounts(old!))
      if (!now.has(account)) await this.secrets.delete(account).catch(() => undefined);
    return server;
  }

  /** Removes the server and its keychain entries; returns accounts that could not be deleted. */
  async remove(name: string): Promise<{ removed: ServerConfig; leftInKeychain: string[] }> {
    const removed = await this.store.remove(name);
    return { removed, leftInKeychain: await deleteServerSecrets(this.secrets, removed) };
  }

  /**
   * Imports any known format (all or nothing); secret-looking plain values go to the keychain. With
   * `only`, just those servers of the file (the ones the user consented to).
   */
  async import(
    text: string,
    opts: {
      fileName: string;
      replaceExisting?: boolean;
      only?: readonly string[];
      /** Values of the file's VS Code inputs (`${input:ID}`), kept in the keychain for each server using them. */
      inputValues?: Readonly<Record<string, string>>;
      /** Per server: the secret-looking variables the person allowed into its remote URL or headers. */
      allowVariables?: Readonly<Record<string, readonly string[]>>;
    } & SplitOptions,
  ): Promise<ImportResult & MergeResult> {
    const parsed = parseImport(text, opts);
    const chosen = opts.only ? pick(parsed.servers, opts.only, opts.fileName) : parsed.servers;
    const split = chosen.map((s) => splitSecrets(s, opts));
    const servers = split.map((s) => parseServerInput(s.config));
    const perServer = servers.map((server, i) => ({
      server: server.name,
      secrets: [...split[i]!.secrets, ...inputSecrets(server, opts.inputValues)],
    }));
    const secrets = perServer.flatMap((p) => p.secrets);
    if (secrets.length > 0) {
      const a = await this.secrets.available();
      if (!a.ok) throw keychainNeeded(perServer, { reason: a.reason, action: 'imported' });
    }
    const before = await this.store.list();
    const writes = new SecretWrites(this.secrets);
    let merged: MergeResult;
    try {
      await writes.setAll(secrets);
      merged = await mergeIntoStore(this.store, servers, opts);
    } catch (err) {
      await writes.rollback();
      throw err;
    }
    for (const name of merged.replaced) {
      const now = new Set(secretAccounts(servers.find((s) => s.name === name)!));
      const old = before.find((s) => s.name === name);
      for (const account of old ? secretAccounts(old) : [])
        if (!now.has(account)) await this.secrets.delete(account).catch(() => undefined);
    }
    return { ...parsed, servers, ...merged };
  }

  /**
   * For an import's consent: the servers among `configs` whose values would go to the keychain (by field:
   * "env GITHUB_TOKEN", "input api_key"), when no keychain is reachable; undefined when none need it or
   * the keychain answers (the keychain is asked only when one does).
   */
  async missingKeychain(
    configs: readonly ServerConfigInput[],
    opts: SplitOptions = {},
  ): Promise<{ reason: string; servers: Record<string, string[]> } | undefined> {
    const needing = configs
      .map((c) => ({
        name: c.name,
        fields: [
          ...splitSecrets(c, opts).secrets.map((e) => e.field ?? 'a secret'),
          ...inputReferences(parseServerInput(c)).map((id) => `input ${id}`),
        ],
      }))
      .filter((n) => n.fields.length > 0);
    if (needing.length === 0) return undefined;
    const a = await this.secrets.available();
    if (a.ok) return undefined;
    return { reason: a.reason, servers: Object.fromEntries(needing.map((n) => [n.name, n.fields])) };
  }

  /** The config to start `name` with: secrets and `${env:NAME}` filled in. Never log the result. */
  async resolve(name: string, env: NodeJS.ProcessEnv = process.env): Promise<ServerConfig> {
    return resolveServerConfig(await this.store.get(name), this.secrets, env);
  }

  /** The servers with secrets masked, for `mcp list` and the UI. */
  async listMasked(opts: { urlHostOnly?: boolean } = {}): Promise<ServerConfig[]> {
    return (await this.store.list()).map((s) => maskConfig(s, opts));
  }
}

/**
 * Secrets to keep on a machine without a keychain (an import, an add, an edit): the title names the
 * servers and says nothing was written, the next line each value that could not be stored ("env
 * GITHUB_TOKEN", "header Authorization", "input key"), the keychain's own words (a D-Bus message) come
 * after, as details (shared/errors.ts, `splitErrorDetails`), and the hint says what works instead
 * (shared/keychainHelp.ts, the wording the app shares).
 */
function keychainNeeded(
  perServer: readonly { server: string; secrets: readonly { field?: string }[] }[],
  opts: { reason: string; action: 'imported' | 'saved' },
): MooringError {
  const needing = perServer.filter((p) => p.secrets.length > 0);
  const names = needing.map((p) => `"${p.server}"`);
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  const fields = needing
    .map((p) => `${p.server}: ${p.secrets.map((e) => e.field ?? 'a secret kept from before').join(', ')}`)
    .join('; ');
  const one = names.length === 1;
  const title =
    `${list} ${one ? 'has secrets' : 'have secrets'} to keep in the keychain, and no keychain is reachable ` +
    `here, so nothing was ${opts.action}.\nSecrets: ${fields}.\nThe keychain said: ${opts.reason}`;
  const example = envExample(needing.flatMap((p) => p.secrets.map((e) => e.field ?? '')));
  const hint =
    opts.action === 'imported'
      ? `Import without ${one ? 'it' : 'them'} (in the app, uncheck ${one ? 'it' : 'them'}; from a terminal, leave ${one ? 'it' : 'them'} out of the file), or in the file replace each secret value with \${env:NAME} (e.g. "\${env:GITHUB_TOKEN}") and export NAME before starting Mooring. ${SET_UP_KEYCHAIN} Servers without secrets need no keychain.`
      : `${USE_ENV_REFERENCE} ${example} ${SET_UP_KEYCHAIN}`;
  return new MooringError('secret_unavailable', title, hint);
}

/** A reference for the first value that could not be stored, as `mooring mcp add` takes it. */
function envExample(fields: readonly string[]): string {
  for (const f of fields) {
    const [kind, key] = f.split(' ');
    if (kind === 'env' && key) return `For example: --env "${key}=\${env:${key}}".`;
    if (kind === 'header' && key) return `For example: --header "${key}=Bearer \${env:API_TOKEN}".`;
  }
  return '';
}

/** The keychain entries of the `${input:ID}` values a server refers to (ids it does not use are ignored). */
function inputSecrets(
  server: ServerConfig,
  values: Readonly<Record<string, string>> | undefined,
): SecretEntry[] {
  if (!values) return [];
  return inputReferences(server)
    .filter((id) => values[id] !== undefined)
    .map((id) => ({ account: inputAccount(server.name, id), value: values[id]!, field: `input ${id}` }));
}

/** The servers named in `names`, in the file's order; a name the file does not have is `not_found`. */
function pick(servers: readonly ServerConfig[], names: readonly string[], fileName: string): ServerConfig[] {
  const missing = names.filter((n) => !servers.some((s) => s.name === n));
  if (missing.length)
    throw new MooringError(
      'not_found',
      `${fileName} has no server named ${missing.map((m) => `"${m}"`).join(', ')}. Nothing was imported.`,
      'Preview the file again and choose among the servers it lists.',
    );
  return servers.filter((s) => names.includes(s.name));
}

/** Secrets given as "<keychain>" whose stored value must follow a rename: old account → new account. */
function keptSecrets(
  old: ServerConfig,
  next: ServerConfig,
  provided: readonly SecretEntry[],
): { from: string; account: string; field: string }[] {
  if (old.name === next.name) return [];
  const given = new Set(provided.map((p) => p.account));
  const out: { from: string; account: string; field: string }[] = [];
  for (const k of next.secretEnv)
    if (next.env[k] === KEYCHAIN_REF && old.secretEnv.includes(k) && !given.has(envAccount(next.name, k)))
      out.push({ from: envAccount(old.name, k), account: envAccount(next.name, k), field: `env ${k}` });
  for (const h of next.secretHeaders)
    if (
      next.headers[h] === KEYCHAIN_REF &&
      old.secretHeaders.includes(h) &&
      !given.has(headerAccount(next.name, h))
    )
      out.push({
        from: headerAccount(old.name, h),
        account: headerAccount(next.name, h),
        field: `header ${h}`,
      });
  const oldInputs = new Set(inputReferences(old));
  for (const id of inputReferences(next))
    if (oldInputs.has(id) && !given.has(inputAccount(next.name, id)))
      out.push({
        from: inputAccount(old.name, id),
        account: inputAccount(next.name, id),
        field: `input ${id}`,
      });
  return out;
}
