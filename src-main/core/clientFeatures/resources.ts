// Resources (spec 2025-11-25 "Resources"): list and read (to attach to a message), templates with
// argument completion (spec "Completion"), and subscriptions where the server offers them, whose updates
// arrive as events and which are renewed on every reconnect. A 2026-07-28 session subscribes through its
// listen stream (spec 2026-07-28 "subscriptions/listen") instead of resources/subscribe. Lists and reads go
// through the SDK's response cache, which serves a result again while its `ttlMs` lasts (spec 2026-07-28,
// "Caching") and fetches it afresh after.
import { EventEmitter } from 'node:events';
import type {
  CompleteRequest,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
} from '@modelcontextprotocol/client';
import { MooringError } from '../errors';
import type { ClientHandlers } from '../mcp/types';
import { isModern, offers, type ServerSession } from './serverSession';

export async function listResources(session: ServerSession): Promise<Resource[]> {
  if (!offers(session).resources) return [];
  return (await session.requests.listResources()).resources;
}

export async function listResourceTemplates(session: ServerSession): Promise<ResourceTemplateType[]> {
  if (!offers(session).resources) return [];
  return (await session.requests.listResourceTemplates()).resourceTemplates;
}

export function readResource(session: ServerSession, uri: string): Promise<ReadResourceResult> {
  offers(session);
  return session.requests.readResource({ uri });
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
  if (!offers(session).completions) return { values: [], hasMore: false };
  const res = await session.requests.complete({
    ref: input.ref,
    argument: input.argument,
    ...(input.context ? { context: { arguments: input.context } } : {}),
  });
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

  /** The notification handlers of each new connection (clientFeatures.ts `clientHandlers`). */
  handlers(server: string): Pick<ClientHandlers, 'resourceUpdated' | 'listChanged'> {
    return {
      resourceUpdated: (uri) => this.emit('updated', { server, uri }),
      listChanged: (what) => this.emit('listChanged', { server, what }),
    };
  }

  async subscribe(session: ServerSession, uri: string): Promise<void> {
    if (!offers(session).resources?.subscribe)
      throw new MooringError(
        'usage',
        `"${session.name}" does not offer resource subscriptions.`,
        'Read the resource again when you need it fresh.',
      );
    let set = this.wanted.get(session.name);
    if (!set) this.wanted.set(session.name, (set = new Set()));
    if (isModern(session)) {
      // A 2026-07-28 server sends updates only on the session's listen stream: reopen it with this URI.
      await session.watchResources?.([...set, uri]);
    } else await session.requests.subscribeResource(uri);
    set.add(uri);
  }

  async unsubscribe(session: ServerSession, uri: string): Promise<void> {
    const set = this.wanted.get(session.name);
    set?.delete(uri);
    if (!session.requests.capabilities()) return;
    if (isModern(session)) await session.watchResources?.([...(set ?? [])]);
    else await session.requests.unsubscribeResource(uri);
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
      await session.requests.subscribeResource(uri).catch(() => failed.push(uri));
    return failed;
  }
}
