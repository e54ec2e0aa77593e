// What keeps a ready session's view of its server fresh (docs/sessions.md, "Session actor states"): the
// tool list, listed again on `list_changed` (bursts coalesced), when a listing's TTL runs out (MCP
// 2026-07-28, "Caching") and on every keepalive probe of a remote server; and a 2026-07-28 session's change
// stream (changeStream.ts). Everything it starts belongs to one connection (a DisposableStore) and ends
// when that connection breaks or the session closes.
import { DisposableStore, timer, toDisposable } from '../disposable';
import { ChangeStream } from './changeStream';
import type { RequestHandler } from './requestHandler';
import type { SessionLog } from './sessionLog';
import { listToolsLeniently } from './toolsList';
import type { Tool } from './types';

export const KEEPALIVE_MS = 180_000;
/** A listing while connecting or refreshing; the keepalive's probe gets less. */
const LIST_TIMEOUT_MS = 30_000;
const PROBE_TIMEOUT_MS = 15_000;

export interface KeepaliveOptions {
  requests: RequestHandler;
  log: SessionLog;
  keepaliveMs: number;
  /** How long the change stream's listen request may take (the connect timeout). */
  listenTimeoutMs: number;
  /** Applies a listing to the session's tool handles. */
  applyTools: (tools: Tool[]) => void;
  /** A probe failed: end the connection, so the session reconnects (its transport's close does that). */
  dropConnection: () => void;
  /** The resources the user subscribed to (for the change stream). */
  watched: () => string[];
  isReady: () => boolean;
}

export class Keepalive {
  /** What the current connection started; a fresh one per connection. */
  private store = new DisposableStore();
  private refreshTimer?: NodeJS.Timeout;
  private ttlTimer?: NodeJS.Timeout;
  private changes?: ChangeStream;

  constructor(private readonly o: KeepaliveOptions) {}

  /** A new connection is being made: whatever the last one started has ended. */
  begin(): void {
    this.end();
    this.store = new DisposableStore();
    this.store.add(
      toDisposable(() => {
        clearTimeout(this.refreshTimer);
        clearTimeout(this.ttlTimer);
      }),
    );
  }

  /** The connection broke or the session closes. */
  end(): void {
    void this.store.dispose();
    this.changes = undefined;
  }

  /** Lists the tools now (capability negotiation: only when the server offers tools). */
  async listTools(): Promise<void> {
    if (!this.o.requests.negotiated()?.capabilities?.tools) return this.o.applyTools([]);
    const listing = await listToolsLeniently(this.o.requests, {
      timeout: LIST_TIMEOUT_MS,
      warn: (t) => this.o.log.host('warning', t),
    });
    this.o.applyTools(listing.tools);
    // A list that says how long it stays fresh is listed again when that time is up.
    clearTimeout(this.ttlTimer);
    if (listing.ttlMs === undefined || this.store.isDisposed) return;
    this.ttlTimer = setTimeout(() => this.scheduleRefresh(), listing.ttlMs);
    this.ttlTimer.unref?.();
  }

  /** Lists again soon: bursts of list_changed coalesce; calls in flight are untouched (handles update in place). */
  scheduleRefresh(): void {
    if (this.store.isDisposed) return;
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      if (!this.o.requests.connected) return;
      this.listTools().catch((e: Error) =>
        this.o.log.host('warning', `could not refresh tools: ${e.message}`),
      );
    }, 50);
  }

  /** The session became ready: probe a remote server now and then; open a 2026-07-28 change stream. */
  start(how: { remote: boolean; modern: boolean }): void {
    // Remote transports only; stdio is never probed (a dead child closes its pipe).
    if (how.remote) this.startProbing();
    if (how.modern) this.openChangeStream();
  }

  /** The change stream again, with the resources the user subscribed to now (rejects when refused). */
  async watch(): Promise<void> {
    if (this.o.isReady() && this.changes) await this.changes.open();
  }

  private startProbing(): void {
    const store = this.store;
    const probe = setInterval(() => {
      if (store.isDisposed || !this.o.requests.connected) return;
      listToolsLeniently(this.o.requests, {
        timeout: PROBE_TIMEOUT_MS,
        warn: (t) => this.o.log.host('warning', t),
      })
        .then((listing) => this.o.applyTools(listing.tools))
        .catch((e: Error) => {
          if (store.isDisposed) return;
          this.o.log.host('warning', `keepalive failed (${e.message}); reconnecting`);
          this.o.dropConnection();
        });
    }, this.o.keepaliveMs);
    probe.unref?.();
    store.add(timer(probe));
  }

  private openChangeStream(): void {
    const store = this.store;
    const changes = (this.changes = new ChangeStream({
      requests: this.o.requests,
      resources: this.o.watched,
      isCurrent: () => !store.isDisposed && this.o.isReady(),
      onReopened: () => this.scheduleRefresh(),
      log: (level, text) => this.o.log.host(level, text),
      timeoutMs: this.o.listenTimeoutMs,
    }));
    store.add(toDisposable(() => changes.close()));
    changes.open().catch((e: Error) => {
      if (!store.isDisposed) this.o.log.host('warning', `could not listen for changes: ${e.message}`);
    });
  }
}
