// The process's edges, the way scripts expect them (README, "Using it from a terminal"):
// - A closed pipe (`mooring mcp tools | head -1`) ends the command quietly with exit 0 for what was
//   written: the write error is taken, further output is dropped, and the command is stopped the way a
//   SIGTERM stops it (`onStop`: sessions closed, a call in flight cancelled at its server).
// - An error nobody caught is one `error:` line and exit 1, never a stack trace (MOORING_DEBUG=1 adds it).
import { EXIT } from './exitCodes';
import { tty } from './terminalText';

let pipeClosed = false;

/** True once stdout or stderr lost its reader: whatever else happens, the command exits 0. */
export const outputClosed = (): boolean => pipeClosed;

const isClosedPipe = (err: unknown): boolean => {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ECONNRESET';
};

type StopReason = 'SIGINT' | 'SIGTERM' | 'closed-pipe';
const pipeListeners = new Set<() => void>();

/** Runs `fn` once stdout or stderr loses its reader. Returns the unsubscribe. */
export function onClosedPipe(fn: () => void): () => void {
  pipeListeners.add(fn);
  return () => void pipeListeners.delete(fn);
}

/**
 * Runs `fn` on every request to stop: Ctrl-C or SIGINT, SIGTERM, and a closed output pipe. For commands that
 * stop themselves (serve, web, logs --follow, chat, mcp call, schedule run). Returns the unsubscribe.
 */
export function onStop(fn: (why: StopReason) => void): () => void {
  const sigint = () => fn('SIGINT');
  const sigterm = () => fn('SIGTERM');
  const pipe = () => fn('closed-pipe');
  process.on('SIGINT', sigint);
  process.on('SIGTERM', sigterm);
  pipeListeners.add(pipe);
  return () => {
    pipeListeners.delete(pipe);
    // Off once the signal's other listeners have run: signal-exit (proper-lockfile's, execa's) re-raises a
    // signal when it finds itself the last listener, which would kill a process that is stopping cleanly.
    setImmediate(() => {
      process.off('SIGINT', sigint);
      process.off('SIGTERM', sigterm);
    });
  };
}

function closedPipe(): void {
  if (pipeClosed) return;
  pipeClosed = true;
  for (const stream of [process.stdout, process.stderr])
    stream.write = ((_chunk: unknown, ...rest: unknown[]) => {
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    }) as typeof stream.write;
  // Not a synthetic SIGTERM: a library that re-raises a signal when it is the last listener would kill us.
  for (const fn of [...pipeListeners]) fn();
}

/** True once stdout or stderr itself is broken (its reader went away), not some other stream or socket. */
const outputBroken = (): boolean =>
  [process.stdout, process.stderr].some((s) => s.destroyed || s.errored !== null);

function unexpected(err: unknown): void {
  if (isClosedPipe(err)) {
    if (outputBroken()) return closedPipe();
    // A peer that went away (a client of `mooring serve --http` closing its connection mid-write): its
    // socket's error, not this process's output. Stopping here would end a server for one client.
    if (process.env.MOORING_DEBUG)
      process.stderr.write(tty`mooring: a connection closed under a write: ${String(err)}\n`);
    return;
  }
  const message = err instanceof Error ? err.message : String(err);
  try {
    process.stderr.write(
      tty`error: Mooring stopped on an unexpected error: ${message.split('\n')[0]}\n` +
        (process.env.MOORING_DEBUG && err instanceof Error && err.stack
          ? `${err.stack}\n`
          : 'hint: run it again with MOORING_DEBUG=1 to see where, and report it\n'),
    );
  } finally {
    process.exit(EXIT.failed);
  }
}

/** Installs both guards once, before any command runs. */
export function guardProcess(): void {
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (err) => (isClosedPipe(err) ? closedPipe() : unexpected(err)));
  process.on('uncaughtException', unexpected);
  process.on('unhandledRejection', unexpected);
  // After `process.exit(code)` too (closeOnSignals, web's stop): the last word on the code.
  process.on('exit', () => {
    if (pipeClosed) process.exitCode = EXIT.ok;
  });
}
