// One question over the relay (approvalRelayProtocol.ts) to the app running on this home, whichever it is
// (the desktop app or `mooring web`): each server's live status, for `mooring mcp list`. The caller proves
// it can read the home with the token in run/, like `mooring serve` does.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import {
  ToServingSchema,
  approvalRelayPaths,
  encode,
  lineReader,
  type AppStatus,
} from './approvalRelayProtocol';

export type AppStatusAnswer =
  ({ kind: 'app' } & AppStatus) | { kind: 'none' } | { kind: 'unreachable'; error: string };

/** Asks the app running on `home` for its servers' status; `none` when no app runs there. */
export async function askAppStatus(
  home: string,
  opts: { via: string; timeoutMs?: number; platform?: NodeJS.Platform },
): Promise<AppStatusAnswer> {
  const paths = approvalRelayPaths(home, opts.platform);
  let token: string;
  try {
    token = (await readFile(paths.tokenFile, 'utf8')).trim();
  } catch {
    return { kind: 'none' };
  }
  const id = randomUUID();
  const socket = connect(paths.endpoint);
  return new Promise<AppStatusAnswer>((resolve) => {
    let settled = false;
    const done = (a: AppStatusAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(a);
    };
    const timeoutMs = opts.timeoutMs ?? 5_000;
    const timer = setTimeout(
      () => done({ kind: 'unreachable', error: `it did not answer within ${timeoutMs / 1000} s` }),
      timeoutMs,
    );
    socket.once('connect', () => socket.write(encode({ type: 'hello', token, via: opts.via })));
    // A token left by an app that crashed: nothing listens on the socket any more.
    socket.once('error', (e: NodeJS.ErrnoException) =>
      done(
        e.code === 'ENOENT' || e.code === 'ECONNREFUSED'
          ? { kind: 'none' }
          : { kind: 'unreachable', error: e.message },
      ),
    );
    socket.once('close', () => done({ kind: 'unreachable', error: 'it closed the connection' }));
    socket.on(
      'data',
      lineReader(
        ToServingSchema,
        (m) => {
          if (m.type === 'welcome') socket.write(encode({ type: 'status', id }));
          else if (m.type === 'rejected')
            done({
              kind: 'unreachable',
              // An app from before the status message refuses it as not the protocol.
              error: /bad message/.test(m.error.message)
                ? `${m.error.message} It may be an older Mooring; restart it to see the live status.`
                : m.error.message,
            });
          else if (m.type === 'failed' && m.id === id) done({ kind: 'unreachable', error: m.error.message });
          else if (m.type === 'status' && m.id === id)
            done({ kind: 'app', app: m.app, pid: m.pid, servers: m.servers });
        },
        (why) => done({ kind: 'unreachable', error: `it sent a bad message: ${why}` }),
      ),
    );
  });
}
