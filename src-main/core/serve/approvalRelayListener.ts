// The app's side of the relay (wire in approvalRelayProtocol.ts): while the app (Electron or `mooring
// web`) runs, it listens on `<home>/run/approvals.sock` and parks what a serving process relays on its own
// brokers — approvals on the approval broker, sampling and elicitation on the interaction broker — so the
// app's dialogs show them next to its own requests, labelled with the external client or server and the
// process they came through. Only a process that can read the token file in the user's home may connect.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, lstat, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { InteractionAnswer, InteractionInput } from '@shared/interactions';
import type { ApprovalBroker } from '../safety/approvalBroker';
import { MooringError, toErrorData } from '../errors';
import {
  MAX_RELAYED_WAIT_MS,
  RELAY_GRACE_MS,
  ToAppSchema,
  approvalRelayPaths,
  asInteractionInput,
  type LiveServer,
  encode,
  lineReader,
  type ToApp,
  type ToServing,
} from './approvalRelayProtocol';

/** The app's interaction broker, as the relay uses it (clientFeatures/interactionBroker.ts fits). */
export interface RelayedInteractions {
  request(
    input: InteractionInput,
    opts: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<InteractionAnswer>;
}

export interface ApprovalRelayListenerOptions {
  /** The app's own broker: its `requested` events drive the approval dialog. */
  broker: Pick<ApprovalBroker, 'request'>;
  /** The app's interaction broker (sampling, elicitation dialogs); without it those requests fail at once. */
  interactions?: RelayedInteractions;
  home: string;
  /** Which app this is, as `mooring mcp list` names it ('mooring web', 'the desktop app'). */
  app?: string;
  /** Each server's live status, for `mooring mcp list`; without it a status request fails. */
  statuses?: () => LiveServer[];
  /** A connection that does not present the token within this time is closed. */
  helloTimeoutMs?: number;
  platform?: NodeJS.Platform;
}

export interface ApprovalRelayListener {
  endpoint: string;
  tokenFile: string;
  /** Stops listening, cancels every relayed request still waiting, removes the socket and the token. */
  close(): Promise<void>;
}

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The run dir must be ours and private: another user must not be able to reach the socket or read the token. */
async function privateDir(dir: string, posix: boolean): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (!posix) return;
  const st = await lstat(dir);
  if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid()))
    throw new MooringError(
      'usage',
      `${dir} is not a folder owned by you, so Mooring will not put its approval socket there.`,
      'Remove it (or fix its owner) and start Mooring again.',
    );
  await chmod(dir, 0o700);
}

/** True when a live app already listens there; a dead socket file (crash) is removed. */
async function liveOrStale(endpoint: string): Promise<boolean> {
  const live = await new Promise<boolean>((resolve) => {
    const s = connect(endpoint);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
  if (!live) await rm(endpoint, { force: true });
  return live;
}

const anotherApp = (endpoint: string) =>
  new MooringError(
    'usage',
    `Another Mooring app already answers approvals for this home (${endpoint}).`,
    'Approvals from `mooring serve` go to that one; close it to have them shown here.',
  );

export async function startApprovalRelayListener(
  opts: ApprovalRelayListenerOptions,
): Promise<ApprovalRelayListener> {
  const posix = (opts.platform ?? process.platform) !== 'win32';
  const { dir, endpoint, tokenFile } = approvalRelayPaths(opts.home, opts.platform);
  const helloTimeoutMs = opts.helloTimeoutMs ?? 5_000;
  await privateDir(dir, posix);
  if (posix && (await liveOrStale(endpoint))) throw anotherApp(endpoint);

  const token = randomBytes(32).toString('base64url');
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    serveConnection(socket, {
      broker: opts.broker,
      ...(opts.interactions ? { interactions: opts.interactions } : {}),
      ...(opts.statuses ? { statuses: opts.statuses } : {}),
      app: opts.app ?? 'the Mooring app',
      token,
      helloTimeoutMs,
    });
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'EADDRINUSE' ? anotherApp(endpoint) : e),
    );
    server.listen(endpoint, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  server.on('error', () => undefined);
  if (posix) await chmod(endpoint, 0o600);
  // The token only once the endpoint is ours: an app that lost the race for it (a named pipe has no
  // file to check first) leaves the live app's token in place. Written beside, then renamed: a client
  // never reads half a token, and the file is 0600 from birth.
  const tmp = `${tokenFile}.${process.pid}.tmp`;
  await writeFile(tmp, `${token}\n`, { mode: 0o600 });
  await rename(tmp, tokenFile);

  let closing: Promise<void> | undefined;
  return {
    endpoint,
    tokenFile,
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((r) => server.close(() => r()));
        for (const s of sockets) s.destroy();
        await stopped;
        // Only our own token: a newer app may have taken the home over meanwhile.
        const onDisk = await readFile(tokenFile, 'utf8').catch(() => '');
        if (onDisk.trim() === token) await rm(tokenFile, { force: true });
        if (posix && onDisk.trim() === token) await rm(endpoint, { force: true });
      })()),
  };
}

/** One serving process: authenticate, then park each of its requests on the app's brokers. */
function serveConnection(
  socket: Socket,
  ctx: {
    broker: Pick<ApprovalBroker, 'request'>;
    interactions?: RelayedInteractions;
    statuses?: () => LiveServer[];
    app: string;
    token: string;
    helloTimeoutMs: number;
  },
): void {
  let via: string | undefined;
  let refused = false;
  const waiting = new Map<string, AbortController>();
  const send = (m: ToServing) => {
    if (!socket.destroyed) socket.write(encode(m));
  };
  const refuse = (message: string, hint: string) => {
    if (refused) return;
    refused = true;
    if (!socket.destroyed)
      socket.end(encode({ type: 'rejected', error: { code: 'refused', message, hint } }), () =>
        socket.destroy(),
      );
  };
  const helloTimer = setTimeout(
    () => refuse('No hello in time.', 'Send {"type":"hello","token":…} first.'),
    ctx.helloTimeoutMs,
  );

  const onMessage = (m: ToApp) => {
    if (refused) return;
    if (via === undefined) {
      clearTimeout(helloTimer);
      if (m.type !== 'hello' || !sameSecret(m.token, ctx.token))
        return refuse(
          'The approval relay token is wrong.',
          'Read the current token from <home>/run/approvals.token (it changes each time Mooring starts).',
        );
      via = m.via || 'mooring serve';
      return send({ type: 'welcome' });
    }
    if (m.type === 'cancel') return waiting.get(m.id)?.abort(new Error(m.reason ?? `${via} stopped waiting`));
    if (m.type === 'status') {
      try {
        if (!ctx.statuses)
          throw new MooringError('refused', "This Mooring app does not tell its servers' status.");
        return send({ type: 'status', id: m.id, app: ctx.app, pid: process.pid, servers: ctx.statuses() });
      } catch (err) {
        return send({ type: 'failed', id: m.id, error: toErrorData(err) });
      }
    }
    if ((m.type !== 'request' && m.type !== 'interaction') || waiting.has(m.id)) return;
    const abort = new AbortController();
    waiting.set(m.id, abort);
    const wait = {
      signal: abort.signal,
      timeoutMs: Math.min(m.timeoutMs + RELAY_GRACE_MS, MAX_RELAYED_WAIT_MS),
    };
    const failed = (err: unknown) => send({ type: 'failed', id: m.id, error: toErrorData(err) });
    const done = () => waiting.delete(m.id);
    if (m.type === 'request') {
      const who = m.input.client ?? 'an external MCP client';
      // The dialog names the external client and the process it came through.
      void ctx.broker
        .request({ ...m.input, client: `${who} (via ${via})` }, wait)
        .then((decision) => send({ type: 'decision', id: m.id, decision }), failed)
        .finally(done);
      return;
    }
    if (!ctx.interactions) {
      done();
      return failed(
        new MooringError(
          'refused',
          'This Mooring app does not answer relayed sampling or elicitation requests.',
        ),
      );
    }
    // The dialog names the server and the process it came through.
    void ctx.interactions
      .request({ ...asInteractionInput(m.input), server: `${m.input.server} (via ${via})` }, wait)
      .then((answer) => send({ type: 'answer', id: m.id, answer }), failed)
      .finally(done);
  };

  socket.on(
    'data',
    lineReader(ToAppSchema, onMessage, (why) =>
      refuse(
        `The approval relay got a bad message: ${why}.`,
        'Speak the protocol in approvalRelayProtocol.ts.',
      ),
    ),
  );
  socket.on('error', () => undefined);
  socket.once('close', () => {
    clearTimeout(helloTimer);
    for (const a of waiting.values()) a.abort(new Error(`${via ?? 'the serving process'} disconnected`));
  });
}
