// Roots (spec 2025-11-25 "Roots"): each conversation has a project folder; the servers are asked
// for roots on one shared session, so `roots/list` answers with the folder of the active conversation, and
// every connected client is sent `notifications/roots/list_changed` when that folder changes. A change made
// as a turn starts would race the turn's first tool call: a server that asks for roots again when told they
// changed is waited for (up to ROOTS_REREAD_MS), so it sees the folder of the conversation that calls it.
// Only a turn waits: a conversation opened to be read (`wait: false`) shows at once, and a turn started
// after it waits for the re-reads its opening began.
import { stat } from 'node:fs/promises';
import { basename, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Root } from '@modelcontextprotocol/client';
import { MooringError } from '../errors';

/** What a session offers for roots (mcp/types.ts ServerRequests has it). */
export interface RootsListener {
  notifyRootsChanged(): Promise<boolean>;
}

/** How long a change waits for a server that reads roots to read them again. */
export const ROOTS_REREAD_MS = 3000;

export class RootsRegistry {
  private readonly folders = new Map<string, string>();
  private active?: string;
  /** Each server's session, told when the folder changes (its request handler sends the notice). */
  private readonly sessions = new Map<string, RootsListener>();
  /** Bumped by every change of the roots offered. */
  private revision = 0;
  /** The revision each server last read; a server that never read roots (or ignores changes) is not here. */
  private readonly read = new Map<string, number>();
  private readonly waiters = new Set<() => void>();
  /** The re-reads the last change waits for (settled when none is outstanding). */
  private settling: Promise<void> = Promise.resolve();

  constructor(private readonly rereadMs = ROOTS_REREAD_MS) {}

  /**
   * Sets (or clears, with `undefined`) a conversation's project folder; it must be an existing directory.
   * When that changes the roots offered, it waits for the servers to read them again; `wait: false` does not.
   */
  async setFolder(
    conversationId: string,
    folder: string | undefined,
    o: { wait?: boolean } = {},
  ): Promise<void> {
    const before = this.currentFolder();
    if (folder === undefined) this.folders.delete(conversationId);
    else this.folders.set(conversationId, await checkedFolder(folder));
    if (this.changed(before) && (o.wait ?? true)) await this.settling;
  }

  folderOf(conversationId: string): string | undefined {
    return this.folders.get(conversationId);
  }

  /**
   * Makes a conversation the one whose folder the servers see (the conversation the user is in). It waits
   * for the servers to read the roots again, also after a change it did not make itself (a conversation
   * opened with `wait: false` just before its turn); `wait: false` does not.
   */
  async activate(conversationId: string | undefined, o: { wait?: boolean } = {}): Promise<void> {
    const before = this.currentFolder();
    this.active = conversationId;
    this.changed(before);
    if (o.wait ?? true) await this.settling;
  }

  /** The re-reads of the last change, done (a server call made for the active conversation waits for them). */
  settled(): Promise<void> {
    return this.settling;
  }

  /** Tells the servers when the roots offered are not what they were (`before`); whether they changed. */
  private changed(before: string | undefined): boolean {
    if (this.currentFolder() === before) return false;
    // Never rejects: a listener that throws counts as not told (notifyChanged), and nothing may stay failed.
    this.settling = this.notifyChanged().catch(() => undefined);
    return true;
  }

  /** The answer to `roots/list` (to `server`, when a session asks): the active folder as a file:// URI. */
  list(server?: string): Root[] {
    if (server !== undefined) {
      this.read.set(server, this.revision);
      for (const w of [...this.waiters]) w();
    }
    const folder = this.currentFolder();
    return folder ? [{ uri: pathToFileURL(folder).href, name: basename(folder) || folder }] : [];
  }

  /** Called for every new connection (clientHandlers), so the latest session of each server is told. */
  track(session: RootsListener, server: string): void {
    this.sessions.set(server, session);
  }

  private currentFolder(): string | undefined {
    return this.active === undefined ? undefined : this.folders.get(this.active);
  }

  private async notifyChanged(): Promise<void> {
    const revision = ++this.revision;
    // A session not connected (yet, or any more: a removed server's) is not told: it asks for roots/list
    // once initialised. Those told that read roots before are given the time to read them again.
    const told = await Promise.all(
      [...this.sessions].map(async ([name, s]) =>
        (await s.notifyRootsChanged().catch(() => false)) ? name : '',
      ),
    );
    const readers = told.filter((name) => name !== '' && this.read.has(name));
    await Promise.all(readers.map((name) => this.rereadBy(name, revision)));
  }

  /** Resolves once `server` read roots at `revision` or later; after the wait, it is not waited for again. */
  private rereadBy(server: string, revision: number): Promise<void> {
    const done = () => (this.read.get(server) ?? -1) >= revision;
    if (done()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const check = () => {
        if (done()) finish();
      };
      const timer = setTimeout(() => {
        // It does not read roots again when told: later changes do not wait for it (its next read counts).
        if (!done()) this.read.delete(server);
        finish();
      }, this.rereadMs);
      timer.unref?.();
      this.waiters.add(check);
    });
  }
}

async function checkedFolder(folder: string): Promise<string> {
  if (!isAbsolute(folder))
    throw new MooringError(
      'usage',
      `The project folder "${folder}" is not an absolute path.`,
      'Choose the folder with the folder picker, or give its full path.',
    );
  const full = resolve(folder);
  const s = await stat(full).catch(() => undefined);
  if (!s?.isDirectory())
    throw new MooringError(
      'not_found',
      `The project folder "${full}" does not exist or is not a folder.`,
      'Choose an existing folder for this conversation.',
    );
  return full;
}
