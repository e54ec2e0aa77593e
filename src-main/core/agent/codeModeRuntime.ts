// Code mode (docs/code-mode.md): one built-in, `run_code`, in place of the conversation's server tools,
// whose argument is a program against a typed API of those tools (catalog/toolDeclarations.ts). The program runs in the
// sandbox (sandbox/programSandbox.ts); each call it makes goes through the inner runtime's `execute` with
// the conversation's own context — name resolution in its catalog, the caller's admission, the unattended
// policy, argument repair, the gate (a person asked, the program shown), the flows from what the
// conversation and the program read, the audit log, cancellation — exactly as a direct call does. A
// refused or failed call throws inside the program; a name outside the conversation's tools has no
// function, and the runtime's resolution refuses it all the same.
import { setMaxListeners } from 'node:events';
import { PROGRAM_CALL_TEXT, RUN_CODE_TOOL, type ProgramCall, type ProgramStep } from '@shared/codeMode';
import type { ReadOrigin } from '@shared/dataFlow';
import { toolDeclarations, toolFunctions, type DeclaredTool } from '../catalog/toolDeclarations';
import { toErrorData } from '../errors';
import {
  DEFAULT_SANDBOX_LIMITS,
  runProgram,
  type ProgramRun,
  type SandboxLimits,
} from '../sandbox/programSandbox';
import type { AgentToolRuntime, ModelTool, ToolCall, ToolExecutionContext, ToolOutcome } from './toolRuntime';

/** What code mode needs of the runtime it wraps: the tools it declares, and the one way to run a call. */
export interface CodeModeInner extends AgentToolRuntime {
  declaredTools(conversationId: string): DeclaredTool[];
}

const RUN_CODE_INTRO =
  'Runs a short JavaScript program (an async function body: use await, return a value) in a sandbox with ' +
  'no network, files or timers. Prefer it when a task needs several tool calls or large results: only ' +
  'what the program prints and returns comes back to you. Each tool call still passes the same approvals; ' +
  'a refused or failed call throws an Error the program may catch. The API:';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export class CodeModeRuntime implements AgentToolRuntime {
  constructor(
    private readonly inner: CodeModeInner,
    private readonly limits: Partial<SandboxLimits> = {},
  ) {}

  /** The program's tools: the conversation's, less the built-ins (tool_search is not a server's tool). */
  private declared(conversationId: string): DeclaredTool[] {
    return this.inner.declaredTools(conversationId);
  }

  /**
   * The built-ins (tool_search) and run_code, whose declarations stand in for the server tools' schemas:
   * offered beside them too, every request carried each tool twice (the bench measured 1.4× the tokens of
   * direct mode on a small task). A model that calls a server tool by name anyway is served as before.
   */
  tools(conversationId: string): ModelTool[] {
    const declared = this.declared(conversationId);
    const names = new Set(declared.map((t) => t.name));
    const builtIns = this.inner.tools(conversationId).filter((t) => !names.has(t.name));
    return [...builtIns, runCodeTool(declared)];
  }

  beginTurn(conversationId: string): string | undefined {
    return this.inner.beginTurn?.(conversationId);
  }

  systemPrompt(conversationId: string): string | undefined {
    return this.inner.systemPrompt?.(conversationId);
  }

  viewTarget(conversationId: string, name: string) {
    return name === RUN_CODE_TOOL ? undefined : this.inner.viewTarget?.(conversationId, name);
  }

  async execute(call: ToolCall, ctx: ToolExecutionContext): Promise<ToolOutcome> {
    if (call.name !== RUN_CODE_TOOL) return this.inner.execute(call, ctx);
    const code = call.arguments.code;
    if (typeof code !== 'string' || !code.trim())
      return { status: 'failed', text: 'run_code takes {"code": "<the program>"}' };
    const declared = this.declared(ctx.conversationId);
    const functions = toolFunctions(declared);
    const schemaOf = new Map(declared.map((t) => [t.name, t.outputSchema]));
    const calls: ProgramCall[] = [];
    const images: { mimeType: string; data: string }[] = [];
    // What the conversation read, and then what this program read: each call's flows count both.
    const readFrom: ReadOrigin[] = [...(ctx.readFrom ?? [])];
    // One signal for the program and its calls, ended with the turn's: its calls may all be in flight at once.
    const ac = new AbortController();
    setMaxListeners(this.limits.maxCalls ?? DEFAULT_SANDBOX_LIMITS.maxCalls, ac.signal);
    const onAbort = () => ac.abort(ctx.signal.reason);
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
    let n = 0;
    const callTool = async (name: string, args: unknown): Promise<unknown> => {
      if (!isRecord(args)) throw new Error(`${name} takes one argument object`);
      const number = ++n;
      const id = `${call.id}.${number}`;
      const started = performance.now();
      let outcome: ToolOutcome;
      try {
        outcome = await this.inner.execute(
          { id, name, arguments: args },
          { ...ctx, signal: ac.signal, readFrom: [...readFrom], program: { code, call: number } },
        );
      } catch (err) {
        outcome = { status: 'failed', text: toErrorData(err).message };
      }
      calls.push({
        id,
        name,
        ...(outcome.target ? { target: outcome.target } : {}),
        arguments: args,
        status: outcome.status,
        text: outcome.text.slice(0, PROGRAM_CALL_TEXT),
        ms: Math.round(performance.now() - started),
        ...(outcome.editedArguments ? { editedArguments: outcome.editedArguments } : {}),
        ...(outcome.origin ? { origin: outcome.origin } : {}),
        ...(outcome.images?.length ? { images: outcome.images.length } : {}),
      });
      if (outcome.origin && outcome.status !== 'refused') readFrom.push(outcome.origin);
      if (outcome.images) images.push(...outcome.images);
      if (outcome.status === 'refused') throw new Error(`${name} was refused: ${outcome.text}`);
      if (outcome.status === 'failed') throw new Error(`${name} failed: ${outcome.text}`);
      if (schemaOf.get(name) && outcome.structured !== undefined) return outcome.structured;
      return {
        text: outcome.text,
        ...(outcome.structured !== undefined ? { structured: outcome.structured } : {}),
      };
    };
    let run: ProgramRun;
    try {
      run = await runProgram({ code, functions, call: callTool, limits: this.limits, signal: ac.signal });
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
    }
    const program: ProgramStep = {
      code,
      calls,
      printed: run.printed,
      ...(run.returned !== undefined ? { returned: run.returned } : {}),
      ...(run.error ? { error: run.error } : {}),
      cpuMs: run.cpuMs,
    };
    return {
      status: run.ok ? 'done' : 'failed',
      text: textForModel(run),
      program,
      ...(images.length ? { images } : {}),
    };
  }
}

/** The run_code tool: its description carries the declarations of the conversation's tools. */
export function runCodeTool(declared: readonly DeclaredTool[]): ModelTool {
  return {
    name: RUN_CODE_TOOL,
    description: `${RUN_CODE_INTRO}\n${toolDeclarations(declared)}`,
    inputSchema: {
      type: 'object',
      properties: { code: { type: 'string', description: 'The program: the body of an async function.' } },
      required: ['code'],
    },
  };
}

/** What the model reads of a run: what it printed, what it returned, and how it ended if it failed. */
function textForModel(run: ProgramRun): string {
  const parts: string[] = [];
  if (run.error) parts.push(`The program stopped: ${run.error.message}`);
  if (run.printed) parts.push(`Printed:\n${run.printed.trimEnd()}`);
  if (run.returned !== undefined) parts.push(`Returned:\n${run.returned}`);
  if (!parts.length) parts.push('The program finished without printing or returning anything.');
  parts.push(`(${run.calls} tool call${run.calls === 1 ? '' : 's'})`);
  return parts.join('\n');
}
