// The serving side of the approval relay (issue 8, "Approval relay"; wire in approvalRelayProtocol.ts): a
// process that serves MCP with nobody to ask (`mooring serve --stdio`, `--http` without a terminal) answers
// its own broker's requests with the running app's decisions. Each request is forwarded as it is raised;
// the app's answer comes back through `broker.answer`, so the gate, the audit log and the bounded wait stay
// exactly as they are. With no app running (no socket, connection refused, no token) the request simply
// stays local and is refused when its wait ends; when the local wait ends first (timeout, the client
// cancelled), the app is told to drop its copy.
import { readFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import type { ApprovalRequest } from '@shared/approval';
import type { ApprovalBroker, ApprovalResolved } from '../safety/approvalBroker';
import {
  ToServingSchema,
  approvalRelayPaths,
  encode,
  lineReader,
  type ToApp,
  type ToServing,
} from './approvalRelayProtocol';

export interface ApprovalRelayClientOptions {
  /** The serving process's own broker (the gate parks its calls there). */
  broker: Pick<ApprovalBroker, 'on' | 'off' | 'answer' | 'pending' | 'cancel'>;
  home: string;
  /** Which process forwards, shown in the app's dialog after the client's name, e.g. "mooring serve --stdio". */
  via: string;
  /** One line for the operator (stderr): no app to ask, the app went away, the token was refused. */
  onNotice?: (text: string) => void;
  connectTimeoutMs?: number;
  platform?: NodeJS.Platform;
}

export interface ApprovalRelayClient {
  /** Whether a running app answers right now (false until the first request tried, or after it closed). */
  connected(): boolean;
  /** Stops forwarding and closes the connection (the app then drops what it still shows). */
  stop(): void;
}

interface Link {
  socket: Socket;
  send(m: ToApp): void;
}

/** Why no app could be reached, or the open link. */
type Attempt = { link: Link } | { why: string };

export function relayApprovalsToApp(opts: ApprovalRelayClientOptions): ApprovalRelayClient {
  const { broker } = opts;
  const paths = approvalRelayPaths(opts.home, opts.platform);
  const connectTimeoutMs = opts.connectTimeoutMs ?? 3_000;
  const notice = (t: string) => opts.onNotice?.(t);
  /** Requests the app holds a copy of: their ids are the serving broker's. */
  const forwarded = new Set<string>();
  let current: Link | undefined;
  let connecting: Promise<Attempt> | undefined;
  let stopped = false;

  const onAppMessage = (m: ToServing) => {
    if (m.type === 'decision') {
      // Deleted first: the `resolved` this answer raises must not send a cancel back.
      if (!forwarded.delete(m.id)) return;
      try {
        broker.answer(m.id, m.decision);
      } catch {
        // The local wait ended at the same moment; its own error stands.
      }
    } else if (m.type === 'failed' && forwarded.delete(m.id)) {
      // The app gave up on it (closed, or its own wait ended): end the local wait now, not at its timeout.
      if (m.error.code !== 'cancelled')
        notice(`the Mooring app did not answer the approval: ${m.error.message}`);
      broker.cancel(m.id, m.error.message);
    }
  };

  const open = async (): Promise<Attempt> => {
    let token: string;
    try {
      token = (await readFile(paths.tokenFile, 'utf8')).trim();
    } catch {
      return { why: 'no Mooring app is running for this home' };
    }
    const socket = connect(paths.endpoint);
    socket.setNoDelay?.(true);
    const first = await new Promise<{ ok: true } | { ok: false; why: string }>((resolve) => {
      const timer = setTimeout(() => {
        socket.destroy();
        resolve({ ok: false, why: 'the Mooring app did not answer the relay in time' });
      }, connectTimeoutMs);
      const done = (r: { ok: true } | { ok: false; why: string }) => {
        clearTimeout(timer);
        resolve(r);
      };
      socket.once('error', (e: NodeJS.ErrnoException) =>
        done({
          ok: false,
          why:
            e.code === 'ENOENT' || e.code === 'ECONNREFUSED'
              ? 'no Mooring app is running for this home'
              : `the Mooring app's approval relay failed (${e.message})`,
        }),
      );
      socket.once('close', () => done({ ok: false, why: 'the Mooring app closed the relay' }));
      socket.on(
        'data',
        lineReader(
          ToServingSchema,
          (m) =>
            m.type === 'welcome'
              ? done({ ok: true })
              : m.type === 'rejected'
                ? done({ ok: false, why: `the Mooring app refused the relay: ${m.error.message}` })
                : onAppMessage(m),
          (why) => {
            done({ ok: false, why: `the approval relay sent a bad message: ${why}` });
            socket.destroy();
          },
        ),
      );
      socket.once('connect', () => socket.write(encode({ type: 'hello', token, via: opts.via })));
    });
    if (!first.ok) {
      socket.destroy();
      return { why: first.why };
    }
    socket.removeAllListeners('error');
    socket.removeAllListeners('close');
    socket.on('error', () => undefined);
    const link: Link = { socket, send: (m) => void (!socket.destroyed && socket.write(encode(m))) };
    socket.once('close', () => {
      if (current === link) current = undefined;
      // The app dropped its copies (it aborts them when a connection closes); they wait here until their end.
      if (forwarded.size && !stopped)
        notice(`the Mooring app closed; ${forwarded.size} approval(s) now wait here until they time out`);
      forwarded.clear();
    });
    return { link };
  };

  const reach = (): Promise<Attempt> => {
    if (current && !current.socket.destroyed) return Promise.resolve({ link: current });
    connecting ??= open().then((a) => {
      connecting = undefined;
      if ('link' in a) {
        if (stopped) a.link.socket.destroy();
        else current = a.link;
      }
      return a;
    });
    return connecting;
  };

  const onRequested = (req: ApprovalRequest) => {
    void reach().then((a) => {
      if (stopped || !broker.pending().some((p) => p.id === req.id)) return;
      const { id, requestedAt: _at, expiresAt, ...input } = req;
      if (!('link' in a)) {
        notice(
          `${a.why}, so nobody can approve "${req.friendlyName}" for ${req.client ?? 'the client'}; ` +
            `it is refused in ${Math.max(0, Math.round((expiresAt - Date.now()) / 1000))} s unless you open Mooring.`,
        );
        return;
      }
      forwarded.add(id);
      a.link.send({ type: 'request', id, input, timeoutMs: Math.max(1, expiresAt - Date.now()) });
    });
  };

  // The local wait ended without the app (timeout, the client cancelled, answered on a terminal).
  const onResolved = (r: ApprovalResolved) => {
    if (!forwarded.delete(r.request.id)) return;
    current?.send({
      type: 'cancel',
      id: r.request.id,
      reason: r.error ? r.error.message : `answered by ${r.decision?.decidedBy ?? 'someone else'}`,
    });
  };

  broker.on('requested', onRequested);
  broker.on('resolved', onResolved);
  return {
    connected: () => Boolean(current && !current.socket.destroyed),
    stop() {
      if (stopped) return;
      stopped = true;
      broker.off('requested', onRequested);
      broker.off('resolved', onResolved);
      current?.socket.end();
      current = undefined;
      forwarded.clear();
    },
  };
}
