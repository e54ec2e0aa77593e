// The serving side of the relay (wire in approvalRelayProtocol.ts): a process that serves MCP with nobody
// to ask (`mooring serve --stdio`, `--http` without a terminal) answers its own brokers' requests with the
// running app's: each approval, and each sampling or elicitation request a connected server sends, is
// forwarded as it is raised; the app's answer comes back through the broker, so the gate, the audit log and
// the bounded waits stay exactly as they are. When the local wait ends first (timeout, the client
// cancelled), the app is told to drop its copy. With no app to ask (no socket, connection refused, no
// token, or the app went away), a request is ended at once with what to do, never left waiting for a
// timeout the external client would hit first: an approval is refused, a sampling request declined with
// the spec's user-rejected error, an elicitation answered "decline" (MCP spec 2025-11-25, "Elicitation").
import { readFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import type { ApprovalRequest } from '@shared/approval';
import type { Interaction, InteractionAnswer, InteractionResolved } from '@shared/interactions';
import { MooringError } from '../errors';
import type { ApprovalBroker, ApprovalResolved } from '../safety/approvalBroker';
import { eachParked, type PendingRequests } from '../safety/pendingRequests';
import {
  ToServingSchema,
  approvalRelayPaths,
  encode,
  lineReader,
  type ToApp,
  type ToServing,
} from './approvalRelayProtocol';

/** The serving process's interaction broker, as the relay uses it (clientFeatures/interactionBroker.ts). */
export type InteractionsToRelay = Pick<
  PendingRequests<Interaction, InteractionAnswer>,
  'on' | 'off' | 'answer' | 'pending' | 'reject'
>;

export interface ApprovalRelayClientOptions {
  /** The serving process's own broker (the gate parks its calls there). */
  broker: Pick<ApprovalBroker, 'on' | 'off' | 'answer' | 'pending' | 'cancel' | 'reject'>;
  /** Its interaction broker: sampling and elicitation requests of the connected servers. */
  interactions?: InteractionsToRelay;
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

/** What to do when nobody can be asked: open the app, whose dialogs answer for this process. */
const openTheApp = (via: string) =>
  `Open Mooring on this computer (the desktop app, or \`mooring web\`) and try again: its dialogs answer for ${via}.`;

export function relayApprovalsToApp(opts: ApprovalRelayClientOptions): ApprovalRelayClient {
  const { broker, interactions } = opts;
  const paths = approvalRelayPaths(opts.home, opts.platform);
  const connectTimeoutMs = opts.connectTimeoutMs ?? 3_000;
  const notice = (t: string) => opts.onNotice?.(t);
  /** Requests the app holds a copy of: their ids are the serving brokers' (random, never shared). */
  const forwarded = new Map<string, 'approval' | 'interaction'>();
  let current: Link | undefined;
  let connecting: Promise<Attempt> | undefined;
  let stopped = false;

  /** Ends an approval nobody can answer: refused now, with the way out. */
  const refuseApproval = (req: ApprovalRequest, why: string) => {
    notice(
      `${why}, so nobody can approve "${req.friendlyName}" for ${req.client ?? 'the client'}; it was refused.`,
    );
    // `cancelled` for the audit log (the approval was never asked); the tools relay reports it as refused.
    broker.reject(
      req.id,
      new MooringError(
        'cancelled',
        `Nobody can approve "${req.friendlyName}" (${req.server}/${req.tool}) for ${req.client ?? 'this client'}: ${why}, so Mooring refused the call.`,
        `${openTheApp(opts.via)} Or give this client a read-only scope (\`mooring serve --read-only\`) so it uses only tools that need no approval.`,
      ),
    );
  };

  /** Ends a sampling or elicitation request nobody can answer: declined now. */
  const declineInteraction = (req: Interaction, why: string) => {
    if (!interactions) return;
    notice(`${why}, so nobody can answer the ${req.kind} request from "${req.server}"; it was declined.`);
    if (req.kind === 'sampling')
      interactions.reject(
        req.id,
        new MooringError(
          'refused',
          `Mooring declined the sampling request from "${req.server}": ${why}, so nobody can approve it.`,
          openTheApp(opts.via),
        ),
      );
    else
      try {
        interactions.answer(req.id, { kind: req.kind, action: 'decline', decidedBy: `${opts.via}: ${why}` });
      } catch {
        // It ended at the same moment.
      }
  };

  const onAppMessage = (m: ToServing) => {
    if (m.type === 'decision' || m.type === 'answer') {
      // Deleted first: the `resolved` this answer raises must not send a cancel back.
      if (!forwarded.delete(m.id)) return;
      try {
        if (m.type === 'decision') broker.answer(m.id, m.decision);
        else interactions?.answer(m.id, m.answer);
      } catch {
        // The local wait ended at the same moment; its own error stands.
      }
    } else if (m.type === 'failed') {
      const kind = forwarded.get(m.id);
      if (!kind) return;
      forwarded.delete(m.id);
      // The app gave up on it (its own wait ended, or it cannot answer this kind): end the local wait now.
      if (m.error.code !== 'cancelled') notice(`the Mooring app did not answer: ${m.error.message}`);
      const error = new MooringError(m.error.code, m.error.message, m.error.hint);
      if (kind === 'approval') broker.reject(m.id, error);
      else interactions?.reject(m.id, error);
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
      if (stopped) return forwarded.clear();
      // The app dropped its copies (it aborts them when a connection closes): nobody is left to ask.
      const orphans = [...forwarded];
      forwarded.clear();
      const why = 'the Mooring app closed before answering';
      for (const [id, kind] of orphans) {
        const approval = kind === 'approval' && broker.pending().find((p) => p.id === id);
        if (approval) refuseApproval(approval, why);
        const asked = kind === 'interaction' && interactions?.pending().find((p) => p.id === id);
        if (asked) declineInteraction(asked, why);
      }
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

  const timeLeft = (expiresAt: number) => Math.max(1, expiresAt - Date.now());

  const onApproval = (req: ApprovalRequest) => {
    void reach().then((a) => {
      if (stopped || !broker.pending().some((p) => p.id === req.id)) return;
      if (!('link' in a)) return refuseApproval(req, a.why);
      const { id, requestedAt: _at, expiresAt, ...input } = req;
      forwarded.set(id, 'approval');
      a.link.send({ type: 'request', id, input, timeoutMs: timeLeft(expiresAt) });
    });
  };

  const onInteraction = (req: Interaction) => {
    void reach().then((a) => {
      if (stopped || !interactions?.pending().some((p) => p.id === req.id)) return;
      if (!('link' in a)) return declineInteraction(req, a.why);
      const { id, requestedAt: _at, expiresAt, ...input } = req;
      forwarded.set(id, 'interaction');
      // The broker's own type is stricter than what the wire schema checks.
      const wire = input as Extract<ToApp, { type: 'interaction' }>['input'];
      a.link.send({ type: 'interaction', id, input: wire, timeoutMs: timeLeft(expiresAt) });
    });
  };

  // The local wait ended without the app (timeout, the client cancelled, answered on a terminal).
  const onResolved = (r: ApprovalResolved | InteractionResolved) => {
    if (!forwarded.delete(r.request.id)) return;
    const by = (r as ApprovalResolved).decision?.decidedBy ?? (r as InteractionResolved).answer?.decidedBy;
    current?.send({
      type: 'cancel',
      id: r.request.id,
      reason: r.error ? r.error.message : `answered by ${by ?? 'someone else'}`,
    });
  };

  broker.on('resolved', onResolved);
  interactions?.on('resolved', onResolved);
  // What was parked before the relay started (a client was quick, the servers slow) is forwarded too.
  const stopApprovals = eachParked(broker, onApproval);
  const stopInteractions = interactions ? eachParked(interactions, onInteraction) : () => undefined;
  return {
    connected: () => Boolean(current && !current.socket.destroyed),
    stop() {
      if (stopped) return;
      stopped = true;
      stopApprovals();
      broker.off('resolved', onResolved);
      stopInteractions();
      interactions?.off('resolved', onResolved);
      current?.socket.end();
      current = undefined;
      forwarded.clear();
    },
  };
}
