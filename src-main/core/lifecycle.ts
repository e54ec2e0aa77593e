// Process shutdown for every host: SIGTERM/SIGINT close every session once, idempotently;
// a second signal while closing kills the process groups at once.
/** What a host closes on a signal: the core (mooringCore.ts) satisfies it. */
export interface Closable {
  close(): Promise<void>;
  /** Kills every server's process group at once (a second signal while closing). */
  killAllNow(): void;
}

export interface ShutdownOptions {
  /** Exit code after a signal (default 130 for SIGINT, 143 for SIGTERM). */
  exit?: (code: number) => void;
  signals?: NodeJS.Signals[];
}

export function closeOnSignals(core: Closable, opts: ShutdownOptions = {}): () => void {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let closing: Promise<void> | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    const code = signal === 'SIGINT' ? 130 : 143;
    if (closing) {
      core.killAllNow();
      exit(code);
      return;
    }
    closing = core.close().finally(() => exit(code));
  };
  const signals = opts.signals ?? ['SIGINT', 'SIGTERM'];
  for (const s of signals) process.on(s, onSignal);
  return () => {
    for (const s of signals) process.off(s, onSignal);
  };
}
