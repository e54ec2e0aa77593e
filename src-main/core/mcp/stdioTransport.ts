// A stdio client transport that goes further than the SDK's (ARCHITECTURE.md, "Session actor states"):
// - the child runs in its own process group, and close kills the whole group in stages
//   (end stdin, wait, SIGTERM, wait, SIGKILL; each wait 2 s, or what the host sets), so an `npx` child's
//   grandchildren die too;
// - the process watchdog (processWatchdog.ts) knows every child: if Mooring dies, it ends their trees; on a
//   clean close it ends what the group kill cannot reach (a grandchild that called setsid);
// - stderr is kept in bounded memory (stderrLines.ts);
// - every stdout line is capped (4 MB): an oversized line is dropped, reported, and the request
//   it answered fails at once with a clear error instead of hanging until its timeout;
// - a line that is not JSON-RPC ("garbage", e.g. a stray console.log) is reported, never fatal.
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/client';
import { MESSAGE_TOO_LARGE, type MessageTooLargeData } from './connectionDoctor';
import { processWatchdog, SERVER_TAG_VAR, type ProcessWatchdog } from './processWatchdog';
import { StderrLines } from './stderrLines';

export const MAX_LINE_BYTES = 4 * 1024 * 1024;
/** How long close waits after ending stdin, and again after SIGTERM, unless told otherwise. */
export const STAGE_WAIT_MS = 2000;
/**
 * The stages for a host whose user (or client) waits on the close: a one-shot CLI command, `mooring serve`
 * and `Mooring --mcp-server` when their client leaves. A server that exits on EOF does so in a few ms; one
 * that ignores EOF gets SIGTERM after this, so the whole close stays under 300 ms instead of 2 s per stage.
 */
export const QUICK_CLOSE_STAGE_MS = 120;

export interface StdioTransportOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  maxLineBytes?: number;
  /** One line of the server's stderr (cut at 4000 bytes; see StderrLines). */
  onStderr?: (line: string) => void;
  /** A stdout line that is not a JSON-RPC message, or one over the cap (text is cut). */
  onGarbage?: (info: { reason: 'not-json-rpc' | 'oversized'; sample: string; bytes: number }) => void;
  /** The process watchdog; default this process's own; null for none. */
  watchdog?: ProcessWatchdog | null;
  /**
   * How long close gives the server after stdin EOF, and again after SIGTERM (default STAGE_WAIT_MS). A
   * host whose user waits on the close (a one-shot CLI command) sets less: some servers ignore EOF
   * (server-everything once it was offered roots or elicitation), and each of them would hold the close
   * for the whole wait.
   */
  closeStageMs?: number;
  /** Called once the child has exited (or never started): the end of what its launcher set up (stdioLauncher.ts). */
  onExit?: () => void;
}

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child?: ChildProcess;
  private chunks: Buffer[] = [];
  private buffered = 0;
  private discarding = false;
  private discardedBytes = 0;
  private discardHead = '';
  private discardTail = Buffer.alloc(0);
  private closed = false;
  /** stdin holds the tick's messages after its first until the tick ends (see send). */
  private corked = false;
  private exitPromise?: Promise<ChildExit>;
  /** How the child ended, once it has. */
  exit?: ChildExit;

  private readonly watchdog: ProcessWatchdog | null;

  constructor(private readonly opts: StdioTransportOptions) {
    this.watchdog = opts.watchdog === undefined ? processWatchdog() : opts.watchdog;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * The child's stderr (null before start). Mooring reads it itself (onStderr); it is exposed because the
   * SDK's version negotiation tells a stdio transport from an HTTP one by a `stderr` and a `pid` property,
   * and a probe timeout means "a legacy server" on stdio but "an outage" on HTTP (docs/decisions/
   * 006-protocol-eras.md).
   */
  get stderr(): NodeJS.ReadableStream | null {
    return this.child?.stderr ?? null;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('StdioTransport already started');
    return new Promise((resolve, reject) => {
      // A mark every descendant inherits, however it detaches (setsid, a double fork): the watchdog finds
      // the server's tree by it once the server is gone (mcp/watchdogScript.ts).
      const tag = randomBytes(12).toString('hex');
      const child = spawn(this.opts.command, this.opts.args, {
        env: { ...this.opts.env, [SERVER_TAG_VAR]: tag },
        cwd: this.opts.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        // Own process group (POSIX): lets close() signal every descendant at once.
        detached: process.platform !== 'win32',
        windowsHide: true,
        shell: false,
      });
      this.child = child;
      this.exitPromise = new Promise((res) =>
        child.once('close', (code, signal) => {
          this.exit = { code, signal };
          res(this.exit);
        }),
      );
      child.once('error', (err) => {
        reject(err);
        this.onerror?.(err);
        this.finish();
      });
      child.once('spawn', () => {
        if (child.pid) this.watchdog?.track(child.pid, tag);
        resolve();
      });
      child.once('close', () => this.finish());
      child.stdout!.on('data', (chunk: Buffer) => this.onData(chunk));
      child.stdout!.on('error', (err) => this.onerror?.(err));
      child.stdin!.on('error', (err) => this.onerror?.(err));
      const stderr = new StderrLines((line) => this.opts.onStderr?.(line));
      child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
      child.stderr!.once('end', () => stderr.end());
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed || stdin.destroyed)
      throw new Error('Not connected: the server process is not running');
    const line = serializeMessage(message);
    const more = stdin.write(line);
    // The tick's first message goes out at once; the ones after it in the same tick leave together in
    // one write when the tick ends. At 16 calls in flight the answers come back several to a read, so
    // as many requests follow in one tick, and a pipe write per message cost more than the rest of the send.
    if (!this.corked) {
      stdin.cork();
      this.corked = true;
      process.nextTick(this.uncork, stdin);
    }
    if (!more) await new Promise<void>((res) => stdin.once('drain', () => res()));
  }

  /** Ends the tick's cork; one function for the transport, not one per send. */
  private readonly uncork = (stdin: Writable): void => {
    this.corked = false;
    stdin.uncork();
  };

  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.exit) {
      this.finish();
      return;
    }
    // The whole tree, noted while the server still holds it together (see ProcessWatchdog.snapshot).
    if (child.pid) await this.watchdog?.snapshot(child.pid);
    if (this.exit) return;
    const stage = this.opts.closeStageMs ?? STAGE_WAIT_MS;
    // Stage 1: end stdin; well-behaved servers exit on EOF.
    child.stdin?.end();
    if (await this.exitedWithin(stage)) return;
    // Stage 2 and 3: the whole process group, so grandchildren (npx → node) go too.
    this.signalGroup('SIGTERM');
    if (await this.exitedWithin(stage)) return;
    this.signalGroup('SIGKILL');
    await this.exitedWithin(STAGE_WAIT_MS);
  }

  /** Kill at once (used on app exit when there is no time for stages). */
  killNow(): void {
    this.signalGroup('SIGKILL');
  }

  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (!pid) return;
    try {
      if (process.platform === 'win32') this.child!.kill(signal);
      else process.kill(-pid, signal);
    } catch {
      try {
        this.child!.kill(signal);
      } catch {
        /* already gone */
      }
    }
  }

  private async exitedWithin(ms: number): Promise<boolean> {
    if (this.exit) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((res) => (timer = setTimeout(() => res(false), ms)));
    const done = await Promise.race([this.exitPromise!.then(() => true as const), timeout]);
    clearTimeout(timer);
    return done;
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    // The group may outlive its leader (a grandchild that ignored stdin EOF): make sure it dies.
    if (this.child?.pid && process.platform !== 'win32') {
      try {
        process.kill(-this.child.pid, 'SIGKILL');
      } catch {
        /* no such group: all gone */
      }
    }
    // And what left the group (setsid): the watchdog ends what it noted of the tree, then forgets it.
    if (this.child?.pid) this.watchdog?.reap(this.child.pid);
    this.opts.onExit?.();
    this.onclose?.();
  }

  private onData(chunk: Buffer): void {
    const max = this.opts.maxLineBytes ?? MAX_LINE_BYTES;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      const piece = nl === -1 ? chunk.subarray(start) : chunk.subarray(start, nl);
      if (this.discarding) {
        this.discardTail = Buffer.concat([this.discardTail, piece]).subarray(-256);
        this.discardedBytes += piece.length;
      } else if (this.buffered + piece.length > max) {
        this.discarding = true;
        const all = Buffer.concat([...this.chunks, piece]);
        this.discardHead = all.subarray(0, 256).toString('utf8');
        this.discardTail = all.subarray(-256);
        this.discardedBytes = this.buffered + piece.length;
        this.chunks = [];
        this.buffered = 0;
      } else if (piece.length) {
        this.chunks.push(piece);
        this.buffered += piece.length;
      }
      if (nl === -1) return;
      start = nl + 1;
      if (this.discarding) this.endDiscard();
      else this.emitLine();
    }
  }

  private emitLine(): void {
    const buf = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.chunks = [];
    this.buffered = 0;
    const line = buf.toString('utf8').replace(/\r$/, '');
    if (!line.trim()) return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch {
      this.opts.onGarbage?.({ reason: 'not-json-rpc', sample: line.slice(0, 200), bytes: buf.length });
      return;
    }
    this.onmessage?.(message);
  }

  private endDiscard(): void {
    const head = this.discardHead;
    const tail = this.discardTail.toString('utf8');
    const bytes = this.discardedBytes;
    this.discarding = false;
    this.discardHead = '';
    this.discardTail = Buffer.alloc(0);
    this.discardedBytes = 0;
    this.opts.onGarbage?.({ reason: 'oversized', sample: head.slice(0, 200), bytes });
    // Fail the request this line answered, now, rather than at its timeout. Serialisers put "id"
    // first or last, so look at both ends of the dropped line.
    const idRe = /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/;
    const id = idRe.exec(head)?.[1] ?? idRe.exec(tail)?.[1];
    if (id !== undefined && /"jsonrpc"/.test(head + tail)) {
      this.onmessage?.({
        jsonrpc: '2.0',
        id: JSON.parse(id) as string | number,
        error: {
          code: -32001,
          message: `The server's response was ${(bytes / 1048576).toFixed(1)} MB, over Mooring's ${(
            (this.opts.maxLineBytes ?? MAX_LINE_BYTES) / 1048576
          ).toFixed(0)} MB limit for one message; it was dropped`,
          // Marked as Mooring's own, so no one reports it as the server's error (connectionDoctor.ts).
          data: {
            reason: MESSAGE_TOO_LARGE,
            bytes,
            limitBytes: this.opts.maxLineBytes ?? MAX_LINE_BYTES,
          } satisfies MessageTooLargeData,
        },
      });
    }
  }
}
