// The one way the core changes mcp_servers.json: a typed door over JsonFileStore. Every change is
// load → change → validate → atomic write under the file's lock, so two concurrent adds never lose one,
// from one process or from thirty, and an edit made by hand between two changes is kept. An invalid file
// on disk blocks every change (it is never overwritten).
import {
  ServerConfigSchema,
  type ServerConfig,
  type ServerConfigInput,
  type ServersFile,
  type ServersFileSchema,
} from '@shared/config';
import type { z } from 'zod';
import { MooringError } from '../errors';
import { homePaths } from '../home';
import { ConfigInvalidError, issuesWithoutFile } from './jsonDiagnostics';
import type { JsonFileStore } from './jsonFileStore';
import { serversFileStore } from './serversFile';

export type ServersChange = { ok: true; servers: ServerConfig[] } | { ok: false; error: MooringError };

export interface ServersStoreOptions {
  /** Path of mcp_servers.json. */
  file: string;
  /** Debounce of the file watch, default 100 ms. */
  watchDebounceMs?: number;
}

type ServersFileInput = z.input<typeof ServersFileSchema>;

const LIST_HINT = 'Run "mooring mcp list" to see the configured servers.';

export class ServersStore {
  readonly file: string;
  private readonly store: JsonFileStore<ServersFile, ServersFileInput>;

  constructor(opts: ServersStoreOptions) {
    this.file = opts.file;
    this.store = serversFileStore(opts.file, {
      ...(opts.watchDebounceMs !== undefined ? { watchDebounceMs: opts.watchDebounceMs } : {}),
    });
  }

  static forHome(home: string): ServersStore {
    return new ServersStore({ file: homePaths(home).servers });
  }

  async list(): Promise<ServerConfig[]> {
    return (await this.store.read()).servers;
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
   * Runs `change` on the list as it is on disk now and writes the result, all or nothing, under the
   * file's lock (after every other change, from this process or another). If `change` throws, nothing is
   * written. Returns the list as written.
   */
  async transaction(
    change: (servers: ServerConfig[]) => readonly ServerConfigInput[] | Promise<readonly ServerConfigInput[]>,
  ): Promise<ServerConfig[]> {
    const doc = await this.store.update(async (current) => ({
      servers: [...(await change(current.servers))],
    }));
    return doc.servers;
  }

  /**
   * Calls `onChange` whenever the file's content changes (by anyone, this store included): with the new
   * valid list, or with the validation error when the file became invalid. Returns an unsubscribe.
   */
  watch(onChange: (change: ServersChange) => void): Promise<() => void> {
    return this.store.watch((c) => onChange(c.ok ? { ok: true, servers: c.value.servers } : c));
  }

  /** Stops every watch and waits for the changes queued in this process. */
  close(): Promise<void> {
    return this.store.close();
  }
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
