// Tool calling for models without native tools (ARCHITECTURE.md, `agent/`): the model is told to answer with one line
// `MCP: <tool_name> <json arguments>`; we parse that line, run the tool, and feed the result back as
// a user message. A malformed line gets one corrective message (the loop enforces "one").
import type { ModelTool } from './providers/types';

export const TEXT_PROTOCOL_PREFIX = 'MCP:';

export function textProtocolSystemPrompt(tools: ModelTool[]): string {
  const list = tools
    .map(
      (t) =>
        `- ${t.name}: ${t.description ?? '(no description)'}\n  arguments schema: ${JSON.stringify(t.inputSchema)}`,
    )
    .join('\n');
  return [
    'You can use tools. To call one, reply with exactly one line and nothing else:',
    `${TEXT_PROTOCOL_PREFIX} <tool_name> <arguments as one JSON object>`,
    `For example: ${TEXT_PROTOCOL_PREFIX} ${tools[0]?.name ?? 'tool_name'} {"key": "value"}`,
    'The tool result comes back in the next message. When you have what you need, answer normally',
    `without any ${TEXT_PROTOCOL_PREFIX} line. Available tools:`,
    list,
  ].join('\n');
}

export type TextProtocolParse =
  | { kind: 'none' }
  | { kind: 'call'; name: string; arguments: Record<string, unknown> }
  | { kind: 'malformed'; line: string; reason: string };

/** Finds the first `MCP:` line in a reply. Only the first call of a reply runs. */
export function parseTextToolCall(reply: string, toolNames: readonly string[]): TextProtocolParse {
  const line = reply
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.startsWith(TEXT_PROTOCOL_PREFIX));
  if (line === undefined) return { kind: 'none' };
  const rest = line.slice(TEXT_PROTOCOL_PREFIX.length).trim();
  const match = /^(\S+)\s*(.*)$/s.exec(rest);
  if (!match) return { kind: 'malformed', line, reason: 'the tool name is missing' };
  const name = match[1]!;
  const json = match[2]!.trim();
  if (!toolNames.includes(name)) {
    return { kind: 'malformed', line, reason: `there is no tool named "${name}"` };
  }
  if (json === '') return { kind: 'call', name, arguments: {} };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    return {
      kind: 'malformed',
      line,
      reason: `the arguments are not valid JSON (${(err as Error).message})`,
    };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return { kind: 'malformed', line, reason: 'the arguments must be one JSON object' };
  }
  return { kind: 'call', name, arguments: value as Record<string, unknown> };
}

export function correctiveMessage(parse: { line: string; reason: string }): string {
  return (
    `Your tool call line could not be used: ${parse.reason}.\nYou wrote: ${parse.line}\n` +
    `Reply again with exactly one line: ${TEXT_PROTOCOL_PREFIX} <tool_name> <JSON object>, ` +
    'using a tool name from the list, or answer without a tool.'
  );
}

/**
 * Streams text to the person while hiding protocol lines: a line is held back while it could still
 * turn into `MCP:`, and dropped from the stream if it does.
 */
export class ProtocolLineFilter {
  private buf = '';
  private mode: 'start' | 'text' | 'hide' = 'start';
  constructor(private readonly out: (text: string) => void) {}

  push(chunk: string): void {
    let shown = '';
    for (const ch of chunk) {
      if (this.mode !== 'start') {
        if (this.mode === 'text') shown += ch;
        if (ch === '\n') this.mode = 'start';
        continue;
      }
      this.buf += ch;
      const head = this.buf.trimStart();
      if (head.startsWith(TEXT_PROTOCOL_PREFIX)) {
        this.buf = '';
        this.mode = ch === '\n' ? 'start' : 'hide';
      } else if (ch === '\n' || !TEXT_PROTOCOL_PREFIX.startsWith(head)) {
        shown += this.buf;
        this.buf = '';
        this.mode = ch === '\n' ? 'start' : 'text';
      }
    }
    if (shown) this.out(shown);
  }

  /** Flushes a held-back tail that never became a protocol line. */
  end(): void {
    if (this.mode === 'start' && this.buf) this.out(this.buf);
    this.buf = '';
  }
}
