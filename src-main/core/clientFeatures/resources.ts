// Resources (spec 2025-11-25 "Resources"): list and read (to attach to a message), templates with
// argument completion (spec "Completion"), and subscriptions where the server offers them, whose updates
// arrive as events and which are renewed on every reconnect. A 2026-07-28 session subscribes through its
// listen stream (spec 2026-07-28 "subscriptions/listen") instead of resources/subscribe. Lists and reads go
// through the SDK's response cache, which serves a result again while its `ttlMs` lasts (spec 2026-07-28,
// "Caching") and fetches it afresh after.
import { EventEmitter } from 'node:events';
import type {
  Client,
  CompleteRequest,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
} from '@modelcontextprotocol/client';
import { MooringError } from '../errors';
import { FEATURE_TIMEOUT_MS, isModern, onSession, readyClient, type ServerSession } from './serverSession';

const opts = { timeout: FEATURE_TIMEOUT_MS };

export async function listResources(session: ServerSession): Promise<Resource[]> {
  if (!readyClient(session).getServerCapabilities()?.resources) return [];
  return onSession(
    session,
    'resources/list',
    async (c) => (await c.listResources(undefined, opts)).resources,
  );
}

export async function listResourceTemplates(session: ServerSession): Promise<ResourceTemplateType[]> {
  if (!readyClient(session).getServerCapabilities()?.resources) return [];
  return onSession(
    session,
    'resources/templates/list',
    async (c) => (await c.listResourceTemplates(undefined, opts)).resourceTemplates,
  );
}

export function readResource(session: ServerSession, uri: string): Promise<ReadResourceResult> {
  return onSession(session, `resources/read ${uri}`, (c) => c.readResource({ uri }, opts));
}

/**
 * Suggestions for one argument of a prompt or a resource template (`completion/complete`), given the
 * value typed so far and the arguments already chosen. None when the server does not offer completions.
 */
export async function completeArgument(
  session: ServerSession,
  input: {
    ref: CompleteRequest['params']['ref'];
    argument: { name: string; value: string };
    context?: Record<string, string>;
  },
): Promise<{ values: string[]; hasMore: boolean }> {
  if (!readyClient(session).getServerCapabilities()?.completions) return { values: [], hasMore: false };
  const res = await onSession(session, 'completion/complete', (c) =>
    c.complete(
      {
        ref: input.ref,
        argument: input.argument,
        ...(input.context ? { context: { arguments: input.context } } : {}),
      },
      opts,
    ),
  );
  return { values: res.completion.values, hasMore: res.completion.hasMore ?? false };
}

export interface ResourceEvents {
  updated: [{ server: string; uri: string }];
  /** The server's list of resources (or prompts) changed: the UI lists them again. */
  listChanged: [{ server: string; what: 'resources' | 'prompts' }];
}

/** The subscriptions Mooring holds, per server, so a reconnected session gets them back. */
export class ResourceSubscriptions extends EventEmitter<ResourceEvents> {
  private readonly wanted = new Map<string, Set<string>>();

  /** Registers the notification handlers on each new client (called from configureClient). */
  attach(client: Client, server: string): void {
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      this.emit('updated', { server, uri: n.params.uri });
    });
    client.setNotificationHandler('notifications/resources/list_changed', () => {
      this.emit('listChanged', { server, what: 'resources' });
    });
    client.setNotificationHandler('notifications/prompts/list_changed', () => {
      this.emit('listChanged', { server, what: 'prompts' });
    });
  }

  async subscribe(session: ServerSession, uri: string): Promise<void> {
    if (!readyClient(session).getServerCapabilities()?.resources?.subscribe)
      throw new MooringError(
        'usage',
        `"${session.name}" does not offer resource subscriptions.`,
        'Read the resource again when you need it fresh.',
      );
    let set = this.wanted.get(session.name);
    if (!set) this.wanted.set(session.name, (set = new Set()));
    if (isModern(session)) {
      // A 2026-07-28 server sends updates only on the session's listen stream: reopen it with this URI.
      const wanted = [...set, uri];
      await onSession(session, `subscriptions/listen ${uri}`, async () => session.watchResources?.(wanted));
    } else await onSession(session, `resources/subscribe ${uri}`, (c) => c.subscribeResource({ uri }, opts));
    set.add(uri);
  }

  async unsubscribe(session: ServerSession, uri: string): Promise<void> {
    const set = this.wanted.get(session.name);
    set?.delete(uri);
    if (!session.sdkClient()) return;
    if (isModern(session))
      await onSession(session, `subscriptions/listen`, async () =>
        session.watchResources?.([...(set ?? [])]),
      );
    else
      await onSession(session, `resources/unsubscribe ${uri}`, (c) => c.unsubscribeResource({ uri }, opts));
  }

  subscriptions(server: string): string[] {
    return [...(this.wanted.get(server) ?? [])];
  }

  /** After a (re)connect: subscribes again to what the user had subscribed to. Failures are returned, not thrown. */
  async renew(session: ServerSession): Promise<string[]> {
    const failed: string[] = [];
    if (isModern(session)) {
      // The session's listen stream is reopened with the same list (SessionActor.watchResources).
      const uris = this.subscriptions(session.name);
      if (uris.length) await session.watchResources?.(uris).catch(() => failed.push(...uris));
      return failed;
    }
    for (const uri of this.subscriptions(session.name))
      await onSession(session, `resources/subscribe ${uri}`, (c) => c.subscribeResource({ uri }, opts)).catch(
        () => failed.push(uri),
      );
    return failed;
  }
}
