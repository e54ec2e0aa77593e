// A code-mode step as one card (docs/code-mode.md, "What the person sees"): the program the model wrote
// (highlighted), each tool call it made as a nested row (arguments, result, duration, outcome), what it
// printed, and what went back to the model. While it runs, its calls come from the one tool-call stream
// (their ids are the run_code call's id, a dot, a number); once saved, from the step. Images a call returned
// show under its row, as a direct call's do (they are the step's, so the conversation's gallery has them).
import type { ToolCallRequest, ToolChatMessage } from '@shared/chat';
import type { ProgramCall, ProgramStep } from '@shared/codeMode';
import { callKey } from '@shared/toolCall';
import { escapeUntrusted as shown, jsonForTerminal } from '@shared/untrustedText';
import type { WireToolCallEvent } from '@shared/wire';
import { Gallery, imageData, type ImageData } from '../../components/Gallery';
import { Markdown } from '../../components/Markdown';
import { useCalls } from '../../stores/callStore';

/** A fence longer than any run of backticks in the program, so the program cannot end it. */
function fenced(code: string): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}js\n${code}\n${fence}`;
}

interface Row {
  id: string;
  label: string;
  phase: string;
  arguments?: Record<string, unknown>;
  text?: string;
  ms?: number;
  images?: ImageData[];
}

/** Each call's row, with its own images: the step keeps them in the order of the calls. */
function rowsOfProgram(program: ProgramStep, images: ToolChatMessage['images'] = []): Row[] {
  let next = 0;
  return program.calls.map((c) => {
    const own = images.slice(next, next + (c.images ?? 0));
    next += own.length;
    return {
      ...rowOfCall(c),
      ...(own.length ? { images: own.map(imageData) } : {}),
    };
  });
}

const rowOfCall = (c: ProgramCall): Row => ({
  id: c.id,
  label: c.target ? `${c.target.server} / ${c.target.tool}` : c.name,
  phase: c.status,
  arguments: c.editedArguments ?? c.arguments,
  text: c.text,
  ms: c.ms,
});

const rowOfEvent = (e: WireToolCallEvent): Row => ({
  id: e.id,
  label: `${e.server} / ${e.tool}`,
  phase: e.phase,
  ...(e.editedArguments ? { arguments: e.editedArguments } : e.arguments ? { arguments: e.arguments } : {}),
  ...(e.error ? { text: e.error.message } : {}),
});

export function ProgramCard(props: {
  conversationId: string;
  call: ToolCallRequest;
  step: ToolChatMessage | undefined;
}) {
  const { call, step, conversationId } = props;
  const code = typeof call.arguments.code === 'string' ? call.arguments.code : '';
  const calls = useCalls((s) => s.calls);
  const program = step?.program;
  // The program's calls on the stream: keyed like every call, under this call's id and a dot.
  const prefix = callKey({ id: `${call.id}.`, conversationId });
  const rows = program
    ? rowsOfProgram(program, step.images)
    : Object.entries(calls)
        .filter(([key]) => key.startsWith(prefix))
        .map(([, e]) => rowOfEvent(e));
  const phase = step ? step.status : 'running';
  return (
    <article
      className={`card program-card phase-${phase}`}
      data-testid="program-card"
      data-phase={phase}
      aria-label="Program (code mode)"
    >
      <header className="card-head">
        <strong>Program</strong>
        <span className="muted">
          code mode · {rows.length} tool call{rows.length === 1 ? '' : 's'}
          {program ? ` · ran ${program.cpuMs} ms` : ''}
        </span>
        <span className={`badge phase ${phase}`} data-testid="call-phase">
          {phase}
        </span>
      </header>
      <div className="program-code" data-testid="program-code">
        <Markdown text={fenced(code)} />
      </div>
      {rows.length > 0 && (
        <ol className="program-calls" aria-label="Tool calls of the program">
          {rows.map((r) => (
            <li key={r.id} className="program-call" data-testid="program-call" data-phase={r.phase}>
              <details>
                <summary>
                  <span className="program-call-name">{shown(r.label)}</span>
                  <span className={`badge phase ${r.phase}`}>{r.phase}</span>
                  {r.ms !== undefined && <span className="muted small">{r.ms} ms</span>}
                </summary>
                {r.arguments && <pre aria-label="Arguments">{jsonForTerminal(r.arguments, 2)}</pre>}
                {r.text && <pre aria-label="Result">{shown(r.text, { multiline: true })}</pre>}
              </details>
              {r.images && <Gallery images={r.images} label={`${r.label} in the program`} />}
            </li>
          ))}
        </ol>
      )}
      {program?.printed && (
        <section aria-label="Printed">
          <h4 className="program-label">Printed</h4>
          <pre data-testid="program-printed">{shown(program.printed, { multiline: true })}</pre>
        </section>
      )}
      {program?.error && (
        <div className="error-note" role="alert">
          <strong>{shown(program.error.message)}</strong>
        </div>
      )}
      {step && (
        <details data-testid="program-to-model">
          <summary>What the model got</summary>
          <pre>{shown(step.text, { multiline: true })}</pre>
        </details>
      )}
    </article>
  );
}
