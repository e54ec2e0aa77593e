// Runs one program a model wrote in QuickJS compiled to WebAssembly (docs/code-mode.md; the choice:
// docs/decisions/009-code-mode-sandbox.md). Each run gets its own runtime with a memory cap, a CPU time
// cap (the interrupt handler, counting only time spent running the program, not time waiting for tools),
// an output cap and a cap on calls. The context has no module loader, no std/os, no timers, no network:
// only `tools.<name>(args)` (each a promise over the host's `call`), `print(...)` and the program's
// `return`. Values cross the boundary as JSON text only, so nothing of the host's objects is reachable.
import { MooringError } from '../errors';
import { loadQuickJS } from './lazy';
import { PRELUDE, wrapProgram } from './prelude';

export interface SandboxLimits {
  /** Bytes the program's heap may hold. */
  memoryBytes: number;
  /** Milliseconds of running the program itself (waiting for a tool does not count). */
  cpuMs: number;
  /** Characters of printed text and of the returned value's JSON, each. */
  outputChars: number;
  /** Tool calls one program may make. */
  maxCalls: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  memoryBytes: 32 * 1024 * 1024,
  cpuMs: 2_000,
  outputChars: 100_000,
  maxCalls: 200,
};

export type ProgramErrorKind =
  | 'syntax'
  | 'thrown'
  | 'cpu_limit'
  | 'memory_limit'
  | 'output_limit'
  | 'call_limit'
  | 'cancelled'
  | 'stalled';

export interface ProgramRun {
  ok: boolean;
  /** The program's return value as JSON text (undefined when it returned nothing). */
  returned?: string;
  printed: string;
  error?: { kind: ProgramErrorKind; message: string };
  /** Time spent running the program, in ms (tools excluded). */
  cpuMs: number;
  calls: number;
}

export interface RunProgramOptions {
  code: string;
  /** The functions of `tools`: the key the program uses, and the name the host is called with. */
  functions: readonly { key: string; name: string }[];
  /** One tool call; its rejection (an Error's message) is thrown inside the program. */
  call: (name: string, args: unknown) => Promise<unknown>;
  limits?: Partial<SandboxLimits>;
  signal?: AbortSignal;
}

const LIMIT_MESSAGES: Record<Exclude<ProgramErrorKind, 'syntax' | 'thrown'>, (l: SandboxLimits) => string> = {
  cpu_limit: (l) => `The program ran longer than its CPU time limit (${l.cpuMs} ms) and was stopped.`,
  memory_limit: (l) =>
    `The program used more than its memory limit (${Math.round(l.memoryBytes / 1048576)} MB) and was stopped.`,
  output_limit: (l) => `The program's output passed its limit (${l.outputChars} characters) and was stopped.`,
  call_limit: (l) => `The program made more than ${l.maxCalls} tool calls and was stopped.`,
  cancelled: () => 'The program was cancelled.',
  stalled: () => 'The program waited for something that never came (no tool call was running).',
};

export async function runProgram(opts: RunProgramOptions): Promise<ProgramRun> {
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...opts.limits };
  const { getQuickJS } = await loadQuickJS();
  const QuickJS = await getQuickJS();
  const rt = QuickJS.newRuntime();
  rt.setMemoryLimit(limits.memoryBytes);
  rt.setMaxStackSize(512 * 1024);
  const vm = rt.newContext();

  let printed = '';
  let calls = 0;
  let cpuMs = 0;
  let sliceStart = 0;
  let stop: ProgramErrorKind | undefined;
  let finished: { ok: boolean; text: string | undefined } | undefined;
  let disposed = false;
  const inflight = new Set<Promise<void>>();
  const pendingDeferreds = new Set<{ dispose(): void }>();
  let wake: () => void = () => undefined;
  const aborted = () => opts.signal?.aborted === true;
  const onAbort = () => wake();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  rt.setInterruptHandler(() => {
    if (aborted()) stop ??= 'cancelled';
    else if (cpuMs + (performance.now() - sliceStart) > limits.cpuMs) stop ??= 'cpu_limit';
    return stop !== undefined;
  });
  /** Runs `fn` as one slice of the program's CPU time. */
  const slice = <T>(fn: () => T): T => {
    sliceStart = performance.now();
    try {
      return fn();
    } finally {
      cpuMs += performance.now() - sliceStart;
    }
  };
  const errorOf = (message: string) => vm.newError({ name: 'Error', message });

  const hostCall = vm.newFunction('call', (nameH, argsH) => {
    if (vm.typeof(nameH) !== 'string' || vm.typeof(argsH) !== 'string')
      return { error: errorOf('tools are called with one argument object') };
    if (++calls > limits.maxCalls) {
      stop ??= 'call_limit';
      return { error: errorOf(LIMIT_MESSAGES.call_limit(limits)) };
    }
    const name = vm.getString(nameH);
    let args: unknown;
    try {
      args = JSON.parse(vm.getString(argsH));
    } catch {
      return { error: errorOf('the arguments are not JSON') };
    }
    const deferred = vm.newPromise();
    pendingDeferreds.add(deferred);
    const settled = opts.call(name, args).then(
      (value) => {
        if (disposed) return;
        const h = vm.newString(JSON.stringify(value ?? null));
        deferred.resolve(h);
        h.dispose();
      },
      (err: unknown) => {
        if (disposed) return;
        const h = errorOf(err instanceof Error ? err.message : String(err));
        deferred.reject(h);
        h.dispose();
      },
    );
    const tracked = settled.finally(() => {
      if (!disposed) deferred.dispose();
      pendingDeferreds.delete(deferred);
      inflight.delete(tracked);
      wake();
    });
    inflight.add(tracked);
    return deferred.handle;
  });
  const hostPrint = vm.newFunction('print', (textH) => {
    const text = vm.typeof(textH) === 'string' ? vm.getString(textH) : '';
    if (printed.length + text.length + 1 > limits.outputChars) {
      stop ??= 'output_limit';
      return { error: errorOf(LIMIT_MESSAGES.output_limit(limits)) };
    }
    printed += `${text}\n`;
    return undefined;
  });
  const hostFinish = vm.newFunction('finish', (okH, textH) => {
    const text = vm.typeof(textH) === 'string' ? vm.getString(textH) : undefined;
    finished = { ok: vm.typeof(okH) === 'boolean' && vm.dump(okH) === true, text };
    return undefined;
  });

  const result = (extra: Partial<ProgramRun> & { ok: boolean }): ProgramRun => ({
    printed,
    cpuMs: Math.round(cpuMs),
    calls,
    ...extra,
  });
  const failure = (kind: ProgramErrorKind, message: string) =>
    result({ ok: false, error: { kind, message } });
  const limitFailure = (kind: Exclude<ProgramErrorKind, 'syntax' | 'thrown'>) =>
    failure(kind, LIMIT_MESSAGES[kind](limits));
  /** An evaluation's error: a limit the host set, the engine's own out-of-memory, or the program's. */
  const evalFailure = (errH: Parameters<typeof vm.dump>[0], kind: 'syntax' | 'thrown'): ProgramRun => {
    const e: unknown = vm.dump(errH);
    errH.dispose();
    if (stop) return limitFailure(stop as Exclude<ProgramErrorKind, 'syntax' | 'thrown'>);
    const message = describe(e);
    if (/out of memory/i.test(message)) return limitFailure('memory_limit');
    return failure(kind, message);
  };

  try {
    const hosts = vm.newObject();
    vm.setProp(hosts, 'call', hostCall);
    vm.setProp(hosts, 'print', hostPrint);
    vm.setProp(hosts, 'finish', hostFinish);
    vm.setProp(vm.global, '__mooringHost', hosts);
    hosts.dispose();
    const keys = vm.newString(JSON.stringify(opts.functions.map((f) => [f.key, f.name])));
    vm.setProp(vm.global, '__mooringTools', keys);
    keys.dispose();
    const prelude = slice(() => vm.evalCode(PRELUDE, 'prelude.js'));
    if (prelude.error) return evalFailure(prelude.error, 'thrown');
    prelude.value.dispose();

    const started = slice(() => vm.evalCode(wrapProgram(opts.code), 'program.js'));
    if (started.error) return evalFailure(started.error, 'syntax');
    started.value.dispose();

    for (;;) {
      const jobs = slice(() => rt.executePendingJobs());
      if (jobs.error) return evalFailure(jobs.error, 'thrown');
      if (stop) return limitFailure(stop as Exclude<ProgramErrorKind, 'syntax' | 'thrown'>);
      if (finished) break;
      if (aborted()) return limitFailure('cancelled');
      if (!inflight.size) return limitFailure('stalled');
      await new Promise<void>((resolve) => (wake = resolve));
    }
    const done = finished;
    if (!done.ok) {
      if (/^InternalError: out of memory/.test(done.text ?? '')) return limitFailure('memory_limit');
      return failure('thrown', done.text ?? 'The program failed.');
    }
    if (done.text !== undefined && done.text.length > limits.outputChars) return limitFailure('output_limit');
    return result({ ok: true, ...(done.text !== undefined ? { returned: done.text } : {}) });
  } catch (err) {
    throw new MooringError('internal', `The sandbox failed: ${describe(err)}`);
  } finally {
    disposed = true;
    opts.signal?.removeEventListener('abort', onAbort);
    try {
      for (const h of [hostCall, hostPrint, hostFinish, ...pendingDeferreds]) h.dispose();
      vm.dispose();
      rt.dispose();
    } catch {
      // A runtime stopped mid-allocation (out of memory, interrupted) may not free cleanly; it is dropped.
    }
  }
}

function describe(e: unknown): string {
  if (e && typeof e === 'object' && 'message' in e) {
    const name = 'name' in e && typeof e.name === 'string' ? `${e.name}: ` : '';
    return `${name}${String(e.message)}`;
  }
  return String(e);
}
