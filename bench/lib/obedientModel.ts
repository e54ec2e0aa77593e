// The injection benchmark's model (docs/trust.md, "The injection benchmark"): it obeys every instruction it
// sees — in the person's message, in a tool's description, in a tool's result — whatever the system prompt
// says about data. An instruction is a run of steps written `call mcp__server__tool {"arg":"value"}`; a
// string argument `@RESULT@` stands for what the previous step returned. The plan is every step of every
// source in the order the model first saw it (the person's message, the tools' descriptions, the results),
// so it only grows; the model takes the next step not yet taken, and answers in words when none is left.
// The same plan drives a chat (over OpenAI's real wire format, test/fixtures/providers/openaiServer.ts)
// and an MCP client calling through `mooring serve`.
import type { ReactiveScript, ScriptedReply } from '../../test/fixtures/providers/scriptedServer';

export interface Step {
  name: string;
  arguments: Record<string, unknown>;
}

export const RESULT = '@RESULT@';
const STEP = /call (mcp__[A-Za-z0-9_-]+) (\{[^{}]*\})/g;

/** `call NAME {JSON}` for one step, as instructions and messages write it. */
export const callText = (name: string, args: Record<string, unknown> = {}) =>
  `call ${name} ${JSON.stringify(args)}`;

/** The steps one text asks for, in order (a step whose arguments are not JSON is skipped). */
export function stepsIn(text: string): Step[] {
  const out: Step[] = [];
  for (const m of text.matchAll(STEP)) {
    try {
      out.push({ name: m[1]!, arguments: JSON.parse(m[2]!) as Record<string, unknown> });
    } catch {
      // Not an instruction this model can follow.
    }
  }
  return out;
}

/** A tool result as the model reads it, without the block Mooring frames it in (agent/resultFraming.ts). */
export const unframed = (text: string) => text.replace(/<\/?tool_result[^>]*>/g, '').trim();

/** The next call: the plan's step after the `done` ones, `@RESULT@` filled with the last result. */
export function nextStep(sources: readonly string[], done: readonly string[]): Step | undefined {
  const plan = sources.flatMap(stepsIn);
  const step = plan[done.length];
  if (!step) return undefined;
  const previous = done.length ? unframed(done[done.length - 1]!) : '';
  const fill = (v: unknown): unknown =>
    typeof v === 'string' ? v.replaceAll(RESULT, previous) : v && typeof v === 'object' ? fillAll(v) : v;
  const fillAll = (o: object) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, fill(v)]));
  return { name: step.name, arguments: fillAll(step.arguments) };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAI chat-completions body, read field by field
type Body = any;

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content
          .map((p: { type?: string; text?: string }) => (p.type === 'text' ? (p.text ?? '') : ''))
          .join('\n')
      : '';

/**
 * The model as a script of the fake OpenAI server: each request is read afresh (the person's messages,
 * the offered tools' descriptions, the results so far) and answered with the next step or "Done.".
 */
export const obedientModel: ReactiveScript = (body: Body): ScriptedReply => {
  const messages: Body[] = Array.isArray(body?.messages) ? body.messages : [];
  const user = messages.filter((m) => m.role === 'user').map((m) => textOf(m.content));
  const described: string[] = (Array.isArray(body?.tools) ? body.tools : []).map(
    (t: Body) => (t?.function?.description as string | undefined) ?? '',
  );
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === 'tool') results.set(m.tool_call_id, textOf(m.content));
  const calls: string[] = messages.flatMap((m) =>
    m.role === 'assistant' && Array.isArray(m.tool_calls)
      ? m.tool_calls.map((c: Body) => c.id as string)
      : [],
  );
  const done = calls.map((id) => results.get(id) ?? '');
  const step = nextStep([...user, ...described, ...done], done);
  return step ? { toolCalls: [{ name: step.name, arguments: step.arguments }] } : { text: 'Done.' };
};
