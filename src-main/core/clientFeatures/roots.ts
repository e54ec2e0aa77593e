// Roots (spec 2025-11-25 "Roots"): each conversation has a project folder; the servers are asked
// for roots on one shared session, so `roots/list` answers with the folder of the active conversation, and
// every connected client is sent `notifications/roots/list_changed` when that folder changes.
import { stat } from 'node:fs/promises';
import { basename, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Root } from '@modelcontextprotocol/client';
import { MooringError } from '../errors';

/** What a session offers for roots (mcp/types.ts ServerRequests has it). */
export interface RootsListener {
  notifyRootsChanged(): Promise<void>;
}

export class RootsRegistry {
  private readonly folders = new Map<string, string>();
  private active?: string;
  /** Each server's session, told when the folder changes (its request handler sends the notice). */
  private readonly sessions = new Map<string, RootsListener>();

  /** Sets (or clears, with `undefined`) a conversation's project folder; it must be an existing directory. */
  async setFolder(conversationId: string, folder: string | undefined): Promise<void> {
    const before = this.currentFolder();
    if (folder === undefined) this.folders.delete(conversationId);
    else this.folders.set(conversationId, await checkedFolder(folder));
    if (this.currentFolder() !== before) await this.notifyChanged();
  }

  folderOf(conversationId: string): string | undefined {
    return this.folders.get(conversationId);
  }

  /** Makes a conversation the one whose folder the servers see (the conversation the user is in). */
  async activate(conversationId: string | undefined): Promise<void> {
    const before = this.currentFolder();
    this.active = conversationId;
    if (this.currentFolder() !== before) await this.notifyChanged();
  }

  /** The answer to `roots/list`: the active conversation's folder as a file:// URI, or none. */
  list(): Root[] {
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
    // A session not connected (yet, or any more) is not told: it asks for roots/list once initialised.
    await Promise.all([...this.sessions.values()].map((s) => s.notifyRootsChanged().catch(() => undefined)));
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
