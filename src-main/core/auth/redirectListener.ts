// The loopback listener the authorization server redirects the browser back to (RFC 8252 §7.3).
// It listens on 127.0.0.1 on a FIXED port (settings.oauthRedirectPort) so a dynamic client registration,
// made once with that redirect URI, stays valid across runs (a random callback port would not
// match the registered redirect). It accepts exactly one callback: the one whose `state` matches the
// request Mooring sent (CSRF, RFC 6749 §10.12); anything else fails the sign-in with a clear error.
import { createServer, type Server } from 'node:http';
import { MooringError } from '../errors';

export const REDIRECT_PATH = '/oauth/callback';
export const DEFAULT_CALLBACK_TIMEOUT_MS = 5 * 60_000;

export const redirectUrlFor = (port: number) => `http://127.0.0.1:${port}${REDIRECT_PATH}`;

export interface CallbackWait {
  /** The query of the matching callback (`code`, `state`, `iss` or `error`). */
  result: Promise<URLSearchParams>;
  /** Stops listening; a pending `result` rejects as cancelled. */
  close(): void;
}

export interface ListenOptions {
  port: number;
  /** The `state` sent with the authorization request. */
  state: string;
  server: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

const page = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title>` +
  `<body style="font-family:system-ui;margin:3em"><h1>${title}</h1><p>${text}</p></body>`;

/** Starts listening; resolves once the port is bound, so the browser is opened only after. */
export async function listenForCallback(opts: ListenOptions): Promise<CallbackWait> {
  let settle!: { resolve: (p: URLSearchParams) => void; reject: (e: Error) => void };
  const result = new Promise<URLSearchParams>((resolve, reject) => (settle = { resolve, reject }));
  result.catch(() => undefined); // the caller may never await it (e.g. a refused flow)
  let done = false;
  const timer: { handle?: NodeJS.Timeout } = {};
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== REDIRECT_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const params = url.searchParams;
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.setHeader('cache-control', 'no-store');
    if (done) {
      res.writeHead(410).end(page('Sign-in already finished', 'You can close this tab.'));
      return;
    }
    if (params.get('state') !== opts.state) {
      res
        .writeHead(400)
        .end(page('Sign-in refused', 'This response does not belong to the sign-in Mooring started.'));
      finish(
        new MooringError(
          'auth_required',
          `The sign-in response for "${opts.server}" did not match the request Mooring sent (state mismatch), so it was refused`,
          `Start the sign-in again: mooring mcp login ${opts.server}`,
        ),
      );
      return;
    }
    const error = params.get('error');
    res
      .writeHead(error ? 400 : 200)
      .end(
        error
          ? page(
              'Sign-in failed',
              `The authorization server said: ${escapeHtml(error)}. You can close this tab.`,
            )
          : page('Signed in', `Mooring is signed in to ${escapeHtml(opts.server)}. You can close this tab.`),
      );
    finish(undefined, params);
  });

  function finish(err?: Error, params?: URLSearchParams) {
    if (done) return;
    done = true;
    clearTimeout(timer.handle);
    opts.signal?.removeEventListener('abort', onAbort);
    server.close();
    server.closeAllConnections?.();
    if (err) settle.reject(err);
    else settle.resolve(params!);
  }
  const onAbort = () =>
    finish(new MooringError('cancelled', `The sign-in to "${opts.server}" was cancelled`));

  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'EADDRINUSE'
          ? new MooringError(
              'auth_required',
              `Port ${opts.port} for the sign-in redirect is in use (another sign-in, or another program)`,
              'Finish or cancel the other sign-in, or choose another port in Settings (oauthRedirectPort) and sign in again.',
            )
          : e,
      ),
    );
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  server.unref();
  timer.handle = setTimeout(
    () =>
      finish(
        new MooringError(
          'timeout',
          `No answer from the browser for the sign-in to "${opts.server}" within ${Math.round((opts.timeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS) / 1000)} s`,
          `Sign in again: mooring mcp login ${opts.server}`,
        ),
      ),
    opts.timeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS,
  );
  timer.handle.unref?.();
  if (opts.signal?.aborted) onAbort();
  else opts.signal?.addEventListener('abort', onAbort, { once: true });
  return {
    result,
    close: () => finish(new MooringError('cancelled', `The sign-in to "${opts.server}" was cancelled`)),
  };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
