// What `mooring mcp call` shows on stderr while a tool runs: the server's progress (MCP 2025-11-25
// "Progress": a percentage when it gives a total, else the count, and its message) and the time so far.
// On a terminal it is one line, rewritten in place and ticking each second, and never while a question is
// open; from a script, one line per notification, at most one a second. The message is server text: escaped.
import type { Progress } from '@shared/toolCall';
import { terminal } from './terminalPrompt';
import { say, tty } from './terminalText';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function describeProgress(p: Progress | undefined, elapsedMs: number): string {
  if (!p) return `running (${seconds(elapsedMs)})`;
  const amount =
    p.total && p.total > 0
      ? `${Math.min(100, Math.round((p.progress / p.total) * 100))}%`
      : `${p.progress}${p.total === undefined ? '' : `/${p.total}`}`;
  return tty`${amount}${p.message ? ` ${p.message}` : ''} (${seconds(elapsedMs)})`;
}

export interface ProgressReporter {
  /** The call is running at its server (after any approval): the clock starts. */
  running(): void;
  onProgress(p: Progress): void;
  /** Clears the line (terminal) and stops the clock. */
  stop(): void;
}

export function reportProgress(opts: { what: string; terminal: boolean }): ProgressReporter {
  let started: number | undefined;
  let last: Progress | undefined;
  let shown = false;
  let lastLineAt = 0;
  let ticker: NodeJS.Timeout | undefined;
  const line = () => `… ${opts.what}: ${describeProgress(last, Date.now() - (started ?? Date.now()))}`;
  const render = () => {
    if (terminal.busy) return;
    say(`\r\x1b[K${line()}`);
    shown = true;
  };
  const running = () => {
    if (started !== undefined) return;
    started = Date.now();
    if (opts.terminal) (ticker = setInterval(render, 1000)).unref();
  };
  return {
    running,
    onProgress(p) {
      running();
      last = p;
      if (opts.terminal) return render();
      const now = Date.now();
      if (now - lastLineAt < 1000 && lastLineAt) return;
      lastLineAt = now;
      say(`${line()}\n`);
    },
    stop() {
      if (ticker) clearInterval(ticker);
      if (shown) say('\r\x1b[K');
      shown = false;
    },
  };
}
