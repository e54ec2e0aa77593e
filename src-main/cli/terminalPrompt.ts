// The one terminal prompt every command asks through (approvals in `mcp call`, `chat` and `serve --http`,
// sampling and forms in `chat`, secrets in `mcp add` and `mcp approve`, consent in `mcp import`).
// - One dialog at a time: dialogs queue, so two requests never open two readline prompts on one terminal.
// - A dialog carries the signal of the request it asks about: when the request ends while waiting (timed
//   out, cancelled), its question closes at once and the dialog's outcome is `ended`.
// - Ctrl-C and end of input (Ctrl-D) answer the open dialog with `interrupted`: callers treat it as "no".
// - While a command answers requests (`hold`), the keyboard stays read: a line typed when no question is
//   open (a late answer to a request that ended) is reported and dropped, never kept for the next
//   question; Ctrl-C then is the process's SIGINT as usual.
// - Hidden questions (secrets) never echo what is typed.
// - Nothing here rejects: every outcome is a value, so no prompt can leave an unhandled rejection.
import { EventEmitter } from 'node:events';
import { createInterface, type Interface } from 'node:readline';

export type Ended = { ok: false; why: 'interrupted' | 'ended' };
export type LineResult = { ok: true; text: string } | Ended;

export interface LineOptions {
  /** Do not echo what is typed (a secret). */
  hidden?: boolean;
}

/** What a dialog may do while it holds the terminal. */
export interface Asker {
  /** Text printed before a question (escaped by the caller with `tty`). */
  say(text: string): void;
  line(question: string, opts?: LineOptions): Promise<LineResult>;
  /** y/yes is true, anything else (Enter included) is false. */
  confirm(question: string): Promise<{ ok: true; yes: boolean } | Ended>;
}

export type DialogResult<T> = { ok: true; value: T } | Ended;

interface TerminalStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream & { isTTY?: boolean };
}

interface OpenQuestion {
  onLine: (text: string) => void;
  onInterrupt: () => void;
}

/** One readline interface on the terminal; the open question, if any, gets its lines. */
class Keyboard {
  readonly rl: Interface;
  muted = false;
  closed = false;
  question?: OpenQuestion;

  constructor(private readonly io: TerminalStreams) {
    const output = io.output;
    // What readline writes (the prompt, the echo of each key) passes through unless a hidden question is
    // open. readline needs only `write`, `columns` and the `resize` event of its output.
    const gate = Object.assign(new EventEmitter(), {
      write: (chunk: string | Uint8Array) => (this.muted ? true : output.write(chunk)),
      get columns() {
        return (output as { columns?: number }).columns;
      },
    });
    this.rl = createInterface({
      input: io.input,
      output: gate as unknown as NodeJS.WritableStream,
      terminal: Boolean(io.input.isTTY),
      historySize: 0,
    });
    this.rl.on('line', (text) => {
      if (this.question) this.question.onLine(text);
      else if (text.trim()) io.output.write('(no question is open; that input was ignored)\n');
    });
    this.rl.on('SIGINT', () => {
      if (this.question) this.question.onInterrupt();
      // No question open: Ctrl-C means what it always means (chat stops its turn, serve stops).
      else process.kill(process.pid, 'SIGINT');
    });
    this.rl.on('close', () => {
      this.closed = true;
      this.question?.onInterrupt();
    });
  }

  /** Forgets a half-typed answer (the question it was for has ended). */
  clearLine(): void {
    this.rl.write(null, { ctrl: true, name: 'e' });
    this.rl.write(null, { ctrl: true, name: 'u' });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.rl.close();
  }
}

export class TerminalPrompt {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly io: TerminalStreams;
  private keyboard?: Keyboard;
  private holds = 0;
  private running = 0;

  constructor(io: Partial<TerminalStreams> = {}) {
    this.io = { input: io.input ?? process.stdin, output: io.output ?? process.stderr };
  }

  /** A question is open or queued: nothing else should write over the terminal's line now. */
  get busy(): boolean {
    return this.running > 0;
  }

  /** A person can be asked: input and output are both a terminal. */
  get available(): boolean {
    return Boolean(this.io.input.isTTY && this.io.output.isTTY);
  }

  /**
   * Keeps the keyboard read while a command answers requests, so a late answer is dropped instead of
   * answering the next question. Returns the release; the last release lets the process end.
   */
  hold(): () => void {
    if (!this.available) return () => undefined;
    this.holds++;
    this.keys();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      this.idle();
    };
  }

  /**
   * Runs `dialog` when the terminal is free, with exclusive use of it until it returns. When `signal`
   * aborts (the request ended), the open question closes and the outcome is `ended`, whatever the dialog
   * returns. A dialog that throws is reported and ends as `interrupted`.
   */
  dialog<T>(
    dialog: (ask: Asker) => Promise<DialogResult<T>>,
    opts: { signal?: AbortSignal } = {},
  ): Promise<DialogResult<T>> {
    const run = async (): Promise<DialogResult<T>> => {
      if (opts.signal?.aborted) return { ok: false, why: 'ended' };
      this.running++;
      try {
        const result = await dialog(this.asker(opts.signal));
        return opts.signal?.aborted ? { ok: false, why: 'ended' } : result;
      } catch (err) {
        this.io.output.write(`\n(the question failed: ${(err as Error).message})\n`);
        return { ok: false, why: 'interrupted' };
      } finally {
        this.running--;
        this.idle();
      }
    };
    const next = this.queue.then(run, run);
    this.queue = next;
    return next;
  }

  /** One yes/no question, queued like any dialog; false unless answered yes. */
  async confirm(question: string, opts: { signal?: AbortSignal } = {}): Promise<boolean> {
    const r = await this.dialog(async (ask) => {
      const a = await ask.confirm(question);
      return a.ok ? { ok: true, value: a.yes } : a;
    }, opts);
    return r.ok && r.value;
  }

  /** One line, queued like any dialog; `null` when interrupted. */
  async line(question: string, opts: LineOptions = {}): Promise<string | null> {
    const r = await this.dialog(async (ask) => {
      const a = await ask.line(question, opts);
      return a.ok ? { ok: true, value: a.text } : a;
    });
    return r.ok ? r.value : null;
  }

  private keys(): Keyboard {
    if (!this.keyboard || this.keyboard.closed) this.keyboard = new Keyboard(this.io);
    return this.keyboard;
  }

  /** Nobody holds the terminal and no dialog runs: close the keyboard so the process can end. */
  private idle(): void {
    if (this.holds > 0 || this.running > 0) return;
    this.keyboard?.close();
    this.keyboard = undefined;
  }

  private asker(signal: AbortSignal | undefined): Asker {
    const line = (question: string, opts: LineOptions = {}): Promise<LineResult> => {
      if (signal?.aborted) return Promise.resolve({ ok: false, why: 'ended' });
      const kb = this.keys();
      return new Promise<LineResult>((resolve) => {
        const finish = (r: LineResult) => {
          kb.question = undefined;
          signal?.removeEventListener('abort', onAbort);
          if (kb.muted) {
            kb.muted = false;
            this.io.output.write('\n');
          }
          if (!r.ok) {
            if (!kb.closed) kb.clearLine();
            this.io.output.write('\n');
          }
          resolve(r);
        };
        const onAbort = () => finish({ ok: false, why: 'ended' });
        kb.question = {
          onLine: (text) => finish({ ok: true, text }),
          onInterrupt: () => finish({ ok: false, why: 'interrupted' }),
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        kb.rl.setPrompt(question);
        kb.rl.prompt();
        // Muted after the question is written: readline's echo of each key goes nowhere.
        kb.muted = Boolean(opts.hidden);
      });
    };
    return {
      say: (text) => this.io.output.write(text),
      line,
      async confirm(question) {
        const r = await line(`${question} [y/N] `);
        return r.ok ? { ok: true, yes: /^y(es)?$/i.test(r.text.trim()) } : r;
      },
    };
  }
}

/** The process's one terminal (stdin, stderr): every command asks through it. */
export const terminal = new TerminalPrompt();

/** A person can answer on this terminal (stdin and stderr are both a TTY). */
export const interactive = (): boolean => terminal.available;
