// URL-mode elicitation's second half (MCP 2025-11-25 "Elicitation"): what happens after the link is open.
// - Completion notifications: `notifications/elicitation/complete` names a flow the server saw finish.
//   Clients MUST ignore unknown or already-completed ids; one Mooring waits for resolves that wait.
// - The error path: a request failed with -32042 (URL Elicitation Required), listing the flows it needs.
//   `satisfy` runs the same consent as a request-path link (https only, the full URL shown, opened only
//   after a yes), then waits until each is complete — by the server's notice, or by the person saying so
//   (the spec's "manual controls", since a notice may never come) — and the caller runs the request again.
import { EventEmitter } from 'node:events';
import type { LogLine } from '@shared/session';
import type { UrlElicitationWait } from '@shared/toolCall';
import { MooringError } from '../errors';
import type { ClientHandlers } from '../mcp/types';
import type { RequiredUrlElicitation } from '../mcp/urlElicitationError';
import type { ElicitationService } from './elicitation';
import { isOpenableUrl } from './elicitation';

export interface UrlElicitationEvents {
  /** A flow the server said is done (or the person did). */
  completed: [{ server: string; elicitationId: string; by: 'server' | 'user' }];
}

interface Waiter {
  view: UrlElicitationWait;
  resolve: () => void;
  reject: (err: MooringError) => void;
}

const keyOf = (server: string, id: string) => `${server}\u0000${id}`;

export class UrlElicitations extends EventEmitter<UrlElicitationEvents> {
  private readonly waiters = new Map<string, Waiter>();
  /** Flows opened on the request path: their completion is only noted. */
  private readonly opened = new Set<string>();

  constructor(
    private readonly deps: {
      elicitation: ElicitationService;
      log: (line: LogLine) => void;
      /** How long a call waits for a flow before it gives up (the interaction timeout). */
      timeoutMs: number;
    },
  ) {
    super();
  }

  /** Hears completion notices on each new connection (clientFeatures.ts `clientHandlers`). */
  handlers(server: string): Pick<ClientHandlers, 'elicitationComplete'> {
    return { elicitationComplete: (id) => void this.complete(server, id, 'server') };
  }

  /** A link was opened with consent on the request path: its notice, if any, is expected. */
  noteOpened(server: string, elicitationId: string): void {
    this.opened.add(keyOf(server, elicitationId));
  }

  /** The flow is done; false for an unknown or already-completed id (ignored, as the spec requires). */
  complete(server: string, elicitationId: string, by: 'server' | 'user'): boolean {
    const key = keyOf(server, elicitationId);
    const w = this.waiters.get(key);
    const known = Boolean(w) || this.opened.delete(key);
    if (!known) return false;
    this.waiters.delete(key);
    this.log(
      server,
      'info',
      `browser flow ${elicitationId} completed${by === 'user' ? ' (you said so)' : ''}`,
    );
    this.emit('completed', { server, elicitationId, by });
    w?.resolve();
    return true;
  }

  /** The person stops waiting: the call that waits fails as cancelled; false when nothing waits. */
  abandon(server: string, elicitationId: string): boolean {
    const w = this.waiters.get(keyOf(server, elicitationId));
    if (!w) return false;
    this.waiters.delete(keyOf(server, elicitationId));
    w.reject(
      new MooringError('cancelled', `You stopped waiting for ${w.view.host}; the call was not run again`),
    );
    return true;
  }

  /** What calls wait for now. */
  waiting(): Array<UrlElicitationWait & { server: string }> {
    return [...this.waiters.entries()].map(([k, w]) => ({ server: k.split('\u0000')[0]!, ...w.view }));
  }

  /**
   * The error path: asks consent for each flow and opens it, then waits until every one is complete.
   * Throws `refused` when one is declined (or cannot be opened), `cancelled` when the call is cancelled
   * or the person stops waiting, `timeout` when nothing came in time.
   */
  async satisfy(
    server: string,
    flows: RequiredUrlElicitation[],
    opts: { signal?: AbortSignal; onWaiting: (waits: UrlElicitationWait[]) => void },
  ): Promise<void> {
    if (!flows.length)
      throw new MooringError('protocol_error', `"${server}" asked for a browser flow but named none`);
    const views = flows.map((f) => ({
      elicitationId: f.elicitationId,
      url: f.url,
      host: isOpenableUrl(f.url) ? new URL(f.url).host : f.url,
      message: f.message,
    }));
    // Waits are registered first: a notice that comes right after the link opens must not be lost.
    const waits = views.map((view) => this.waitFor(server, view, opts.signal));
    try {
      for (const view of views) {
        const action = await this.deps.elicitation.consentAndOpen(
          server,
          view,
          opts.signal ?? new AbortController().signal,
        );
        if (action !== 'accept')
          throw new MooringError(
            'refused',
            `"${server}" needs you to finish a step at ${view.host} before this call can run; the link was not opened (${action}), so the call was not run again`,
            'Call the tool again and open the link when asked, if you trust that site.',
          );
      }
      opts.onWaiting(views);
      await Promise.all(waits.map((w) => w.done));
    } finally {
      for (const w of waits) w.stop();
    }
  }

  private waitFor(server: string, view: UrlElicitationWait, signal: AbortSignal | undefined) {
    const key = keyOf(server, view.elicitationId);
    let stop = () => undefined as void;
    const done = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          fail(
            new MooringError(
              'timeout',
              `Mooring did not hear that the step at ${view.host} was finished within ${Math.round(this.deps.timeoutMs / 60_000)} min`,
              'Finish it in your browser, then call the tool again.',
            ),
          ),
        this.deps.timeoutMs,
      );
      timer.unref?.();
      const onAbort = () =>
        fail(new MooringError('cancelled', `The call waiting for ${view.host} was cancelled`));
      const fail = (err: MooringError) => {
        stop();
        reject(err);
      };
      stop = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (this.waiters.get(key)?.view === view) this.waiters.delete(key);
      };
      this.waiters.set(key, { view, resolve: () => (stop(), resolve()), reject: fail });
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    // A wait nobody awaits yet (consent still open) must not surface as an unhandled rejection.
    done.catch(() => undefined);
    return { done, stop: () => stop() };
  }

  private log(server: string, level: LogLine['level'], text: string): void {
    this.deps.log({ server, at: Date.now(), source: 'host', level, text });
  }
}
