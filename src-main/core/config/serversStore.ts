// The one way the core changes mcp_servers.json (issue 2). Every change is load → change → validate →
// atomic write, run one at a time, so two concurrent adds never lose one and an edit made by hand
// between two changes is kept. An invalid file on disk blocks every change (it is never overwritten).
import { resolve } from 'node:path';
import { ServerConfigSchema, type ServerConfig, type ServerConfigInput } from '@shared/config';
import { MooringError } from '../errors';
import { homePaths } from '../home';
import { watchParsedFile, type FileWatch } from './fileWatch';
import { ConfigInvalidError, issuesWithoutFile } from './jsonDiagnostics';
import { loadServersFile, parseServersText, writeServersFile } from './serversFile';

export type ServersChange = { ok: true; servers: ServerConfig[] } | { ok: false; error: MooringError };

export interface ServersStoreOptions {
  /** Path of mcp_servers.json. */
  file: string;
  /** Debounce of the file watch, default 100 ms. */
  watchDebounceMs?: number;
}

const LIST_HINT = 'Run "mooring mcp list" to see the configured servers.';

export class ServersStore {
  readonly file: string;
  private readonly debounceMs: number;
  private readonly watches = new Set<FileWatch>();

  constructor(opts: ServersStoreOptions) {
    this.file = opts.file;
    this.debounceMs = opts.watchDebounceMs ?? 100;
  }

  static forHome(home: string): ServersStore {
    return new ServersStore({ file: homePaths(home).servers });
  }

  async list(): Promise<ServerConfig[]> {
    return (await loadServersFile(this.file)).servers;
  }

  /** The server named `name`; throws `not_found` when there is none. */
  async get(name: string): Promise<ServerConfig> {
    const found = (await this.list()).find((s) => s.name === name);
    if (!found) throw notFound(name);
    return found;
  }

  async has(name: string): Promise<boolean> {
    return (await this.list()).some((s) => s.name === name);
  }

  /** Adds a server; throws `config_invalid` when the input is invalid or the name is taken. */
  async add(input: ServerConfigInput): Promise<ServerConfig> {
    const server = parseServerInput(input);
    await this.transaction((servers) => {
      if (servers.some((s) => s.name === server.name))
        throw new MooringError(
          'config_invalid',
          `A server named "${server.name}" already exists.`,
          'Choose another name, or remove the existing server first with "mooring mcp remove".',
        );
      return [...servers, server];
    });
    return server;
  }

  /** Replaces the server `name` with `input` (which may carry a new name: a rename). Position is kept. */
  async update(name: string, input: ServerConfigInput): Promise<ServerConfig> {
    const server = parseServerInput(input);
    await this.transaction((servers) => {
      const at = servers.findIndex((s) => s.name === name);
      if (at < 0) throw notFound(name);
      if (server.name !== name && servers.some((s) => s.name === server.name))
        throw new MooringError(
          'config_invalid',
          `Cannot rename "${name}" to "${server.name}": a server with that name already exists.`,
          'Choose a name that is not in use.',
        );
      return servers.map((s, i) => (i === at ? server : s));
    });
    return server;
  }

  /** Removes the server and returns what it was. */
  async remove(name: string): Promise<ServerConfig> {
    let removed: ServerConfig | undefined;
    await this.transaction((servers) => {
      removed = servers.find((s) => s.name === name);
      if (!removed) throw notFound(name);
      return servers.filter((s) => s !== removed);
    });
    return removed!;
  }

  async setEnabled(name: string, enabled: boolean): Promise<ServerConfig> {
    let changed: ServerConfig | undefined;
    await this.transaction((servers) => {
      const at = servers.findIndex((s) => s.name === name);
      if (at < 0) throw notFound(name);
      changed = { ...servers[at]!, enabled };
      return servers.map((s, i) => (i === at ? changed! : s));
    });
    return changed!;
  }

  /**
   * Runs `change` on the current list and writes the result, all or nothing, queued behind every other
   * change. If `change` throws, nothing is written. Returns the list as written.
   */
  transaction(
    change: (servers: ServerConfig[]) => readonly ServerConfigInput[] | Promise<readonly ServerConfigInput[]>,
  ): Promise<ServerConfig[]> {
    return serialised(this.file, async () => {
      const current = (await loadServersFile(this.file)).servers;
      const next = await change(current.map((s) => structuredClone(s)));
      return (await writeServersFile(this.file, next)).servers;
    });
  }

  /**
   * Calls `onChange` whenever the file's content changes (by anyone, this store included): with the new
   * valid list, or with the validation error when the file became invalid. Returns an unsubscribe.
   */
  async watch(onChange: (change: ServersChange) => void): Promise<() => void> {
    const w = await watchParsedFile({
      file: this.file,
      debounceMs: this.debounceMs,
      parse: (text) => (text === null ? [] : parseServersText(text, this.file).servers),
      onChange: (c) => onChange(c.ok ? { ok: true, servers: c.value } : c),
    });
    this.watches.add(w);
    return () => {
      w.close();
      this.watches.delete(w);
    };
  }

  /** Stops every watch and waits for the write in flight. */
  async close(): Promise<void> {
    for (const w of this.watches) w.close();
    this.watches.clear();
    await writeQueues.get(resolve(this.file));
  }
}

// One write queue per file in this process, shared by every store on that file. (Two processes, say the
// CLI and the app, are not serialised against each other; each write is still atomic.)
const writeQueues = new Map<string, Promise<unknown>>();

function serialised<T>(file: string, job: () => Promise<T>): Promise<T> {
  const key = resolve(file);
  const run = (writeQueues.get(key) ?? Promise.resolve()).then(job);
  // The queue continues after a failed change; the caller still sees the failure.
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  writeQueues.set(key, tail);
  void tail.then(() => {
    if (writeQueues.get(key) === tail) writeQueues.delete(key);
  });
  return run;
}

/** Validates one server input; throws `config_invalid` naming the server and every field that is wrong. */
export function parseServerInput(input: ServerConfigInput): ServerConfig {
  const result = ServerConfigSchema.safeParse(input);
  if (result.success) return result.data;
  const label = typeof input?.name === 'string' ? `server "${input.name}"` : 'the server';
  throw new ConfigInvalidError(
    issuesWithoutFile(result.error.issues).map((i) => ({ ...i, path: `${label}: ${i.path || 'entry'}` })),
    `Nothing was written. Correct ${label} and try again.`,
  );
}

function notFound(name: string): MooringError {
  return new MooringError('not_found', `No server named "${name}".`, LIST_HINT);
}
