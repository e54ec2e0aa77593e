// The change notifications of a 2026-07-28 session (MCP 2026-07-28, "subscriptions/listen"): that revision
// sends list_changed and resources/updated only on a stream the client opened, so a modern session opens
// one right after connecting, asking for what the server advertises (tools, prompts and resources lists,
// and the resources the user subscribed to). The notifications reach the same handlers as a 2025 server's
// unsolicited ones (SessionActor and ResourceSubscriptions register them). A stream that drops while the
// session lives is opened again, and what may have changed meanwhile is listed again (`onReopened`).
import type { McpSubscription, SubscriptionFilter } from '@modelcontextprotocol/client';
import type { RequestHandler } from './requestHandler';

export interface ChangeStreamOptions {
  /** The session's request handler: the stream is one of its requests. */
  requests: Pick<RequestHandler, 'negotiated' | 'listen'>;
  /** The resource URIs the user subscribed to on this server. */
  resources: () => string[];
  /** False once the session moved on (closed, reconnected): nothing is reopened then. */
  isCurrent: () => boolean;
  /** After a dropped stream was opened again: changes may have been missed, list again. */
  onReopened: () => void;
  log: (level: 'info' | 'warning' | 'debug', text: string) => void;
  timeoutMs: number;
}

const REOPEN_FIRST_MS = 1000;
const REOPEN_MAX_MS = 30_000;

export class ChangeStream {
  private current?: McpSubscription;
  private reopenDelay = REOPEN_FIRST_MS;
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly opts: ChangeStreamOptions) {}

  /** What the server may send, given what it advertises and what the user subscribed to. */
  filter(): SubscriptionFilter {
    const caps = this.opts.requests.negotiated()?.capabilities ?? {};
    const uris = caps.resources?.subscribe ? this.opts.resources() : [];
    return {
      ...(caps.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(caps.prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(caps.resources?.listChanged ? { resourcesListChanged: true } : {}),
      ...(uris.length ? { resourceSubscriptions: uris } : {}),
    };
  }

  /** The filter the server agreed to (empty before the first acknowledgement). */
  honored(): SubscriptionFilter {
    return this.current?.honoredFilter ?? {};
  }

  /** Opens the stream (or replaces it, when the resource subscriptions changed). Rejects if the server refuses. */
  async open(): Promise<void> {
    const filter = this.filter();
    const previous = this.current;
    this.current = undefined;
    await previous?.close().catch(() => undefined);
    if (this.stopped || !Object.keys(filter).length) return;
    const sub = await this.opts.requests.listen(filter, { timeoutMs: this.opts.timeoutMs });
    if (this.stopped) return void sub.close().catch(() => undefined);
    this.current = sub;
    this.reopenDelay = REOPEN_FIRST_MS;
    this.opts.log('debug', `listening for changes: ${describe(sub.honoredFilter)}`);
    void sub.closed.then((why) => this.onClosed(sub, why));
  }

  close(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    const sub = this.current;
    this.current = undefined;
    void sub?.close().catch(() => undefined);
  }

  private onClosed(sub: McpSubscription, why: 'local' | 'graceful' | 'remote'): void {
    if (sub !== this.current) return;
    this.current = undefined;
    // 'graceful' is the server ending the stream on purpose (it is shutting down): no reopening.
    if (why !== 'remote' || this.stopped || !this.opts.isCurrent()) return;
    const delay = this.reopenDelay;
    this.reopenDelay = Math.min(this.reopenDelay * 2, REOPEN_MAX_MS);
    this.opts.log('info', `the change stream dropped; opening it again in ${delay / 1000} s`);
    this.timer = setTimeout(() => {
      if (this.stopped || !this.opts.isCurrent()) return;
      this.open().then(
        () => this.opts.onReopened(),
        (e: Error) => this.opts.log('warning', `could not reopen the change stream: ${e.message}`),
      );
    }, delay);
    this.timer.unref?.();
  }
}

function describe(f: SubscriptionFilter): string {
  const parts = [
    f.toolsListChanged && 'tools',
    f.promptsListChanged && 'prompts',
    f.resourcesListChanged && 'resources',
    f.resourceSubscriptions?.length && `${f.resourceSubscriptions.length} subscribed resource(s)`,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'nothing';
}
