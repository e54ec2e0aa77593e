// No server process outlives the Mooring process that started it (ARCHITECTURE.md, "Server processes never
// outlive Mooring"). Stdio servers run in their own process groups, some ignore stdin EOF, and a grandchild
// may call setsid: none of them notices when Mooring is killed (kill -9, a crash). So one small watchdog
// process per Mooring process (watchdogScript.ts), started with the first stdio server, holds a pipe to
// Mooring; Mooring tells it each server's pid as it spawns. When the pipe closes — Mooring died or exited —
// the watchdog ends every recorded tree and exits. A clean close asks it to end the server's leftovers too.
//
// Platforms: Linux (/proc) and macOS (ps) run it. Windows has no process groups or sessions to find a tree
// by after its parent is gone; the tool for this is a job object with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
// which Node cannot create without native code, so on Windows no watchdog runs and a server's tree ends
// only when the stdio transport closes it (the direct child). Electron: the packaged app turns off the
// RunAsNode fuse, so its binary cannot run the script; the shell passes a Node runtime
// (`useWatchdogRuntime`) or the watchdog stays off there.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { WATCHDOG_SCRIPT } from './watchdogScript';

/** How long a clean close waits for the watchdog to note the server's tree before it goes on anyway. */
const SNAPSHOT_WAIT_MS = 1000;

export interface ProcessWatchdogOptions {
  /** The Node runtime that runs the watchdog script; default this process's own (not under Electron). */
  runtime?: string;
}

/** The environment variable that marks a server's processes, one value per spawn (`track`). */
export const SERVER_TAG_VAR = 'MOORING_SERVER_TAG';

export class ProcessWatchdog {
  private child: ChildProcess | undefined;
  /** Each tracked server's pid and the tag its processes inherit. */
  private readonly tracked = new Map<number, string | undefined>();
  private readonly waiting = new Map<number, () => void>();
  private seq = 0;
  private replies = '';

  constructor(private readonly opts: ProcessWatchdogOptions = {}) {}

  /** The watchdog's pid while it runs (tests look for it). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Records a server process just spawned, and the value of SERVER_TAG_VAR in its environment (its
   * descendants inherit it, so they are found even once detached); starts the watchdog with the first one.
   */
  track(pid: number, tag?: string): void {
    this.tracked.set(pid, tag);
    this.send(tag ? `track ${pid} ${tag}` : `track ${pid}`, true);
  }

  /**
   * Has the watchdog note the server's whole tree now, before its stdin closes (a setsid grandchild is
   * reparented once the server exits, and can no longer be found through it). Resolves once noted, or
   * after SNAPSHOT_WAIT_MS.
   */
  snapshot(pid: number): Promise<void> {
    if (!this.child || !this.tracked.has(pid)) return Promise.resolve();
    const id = ++this.seq;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, SNAPSHOT_WAIT_MS);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.waiting.set(id, () => {
        this.waiting.delete(id);
        done();
      });
      if (!this.send(`snapshot ${id} ${pid}`, false)) this.waiting.get(id)?.();
    });
  }

  /** The server is gone (or being closed): the watchdog ends what is left of its tree and forgets it. */
  reap(pid: number): void {
    if (!this.tracked.delete(pid)) return;
    this.send(`reap ${pid}`, false);
  }

  private send(line: string, start: boolean): boolean {
    const child = start ? this.ensure() : this.child;
    const stdin = child?.stdin;
    if (!stdin || stdin.destroyed) return false;
    stdin.write(`${line}\n`);
    return true;
  }

  private ensure(): ChildProcess | undefined {
    if (this.child) return this.child;
    const runtime = this.opts.runtime ?? (process.versions.electron ? undefined : process.execPath);
    if (!runtime) return undefined;
    let child: ChildProcess;
    try {
      child = spawn(runtime, ['-e', WATCHDOG_SCRIPT, String(process.pid)], {
        stdio: ['pipe', 'pipe', 'ignore'],
        // Its own process group and session: Ctrl-C, a closed terminal or a signal to Mooring's group
        // reaches Mooring, never the one process that must outlive it.
        detached: true,
        env: { ELECTRON_RUN_AS_NODE: '1' },
        windowsHide: true,
      });
    } catch {
      return undefined;
    }
    this.child = child;
    child.on('error', () => this.lost(child));
    child.on('exit', () => this.lost(child));
    child.stdin!.on('error', () => this.lost(child));
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (text: string) => this.onReply(text));
    // The watchdog never keeps Mooring alive: Mooring exiting is exactly what it waits for.
    child.unref();
    (child.stdin as Writable & { unref?: () => void }).unref?.();
    (child.stdout as Readable & { unref?: () => void }).unref?.();
    // A watchdog started again (the first one was killed) learns every server still running.
    for (const [pid, tag] of this.tracked)
      child.stdin!.write(tag ? `track ${pid} ${tag}\n` : `track ${pid}\n`);
    return child;
  }

  private onReply(text: string): void {
    this.replies += text;
    for (let nl = this.replies.indexOf('\n'); nl !== -1; nl = this.replies.indexOf('\n')) {
      const [word, id] = this.replies.slice(0, nl).split(' ');
      this.replies = this.replies.slice(nl + 1);
      if (word === 'done') this.waiting.get(Number(id))?.();
    }
  }

  private lost(child: ChildProcess): void {
    if (this.child !== child) return;
    this.child = undefined;
    for (const wake of [...this.waiting.values()]) wake();
  }
}

let shared: ProcessWatchdog | null | undefined;

/** This process's watchdog (one per Mooring process); null where none can run (Windows). */
export function processWatchdog(): ProcessWatchdog | null {
  if (shared === undefined) shared = process.platform === 'win32' ? null : new ProcessWatchdog();
  return shared;
}

/** For a host that knows better how to run Node (the Electron shell), before its first server starts. */
export function useWatchdogRuntime(runtime: string): void {
  if (process.platform !== 'win32') shared = new ProcessWatchdog({ runtime });
}
