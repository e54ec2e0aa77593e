// What an MCP App view hears about the tool call it belongs to (extension io.modelcontextprotocol/ui, spec
// 2026-01-26, "Notifications (Host → View)" and "Lifecycle"), decided from what the card knows now. The
// order is the spec's: `tool-input-partial` zero or more times while the model writes the arguments, then
// `tool-input` once with the complete arguments, then `tool-result` when the call completed or
// `tool-cancelled` when it did not (the person stopped the turn, denied the call, or the call failed) —
// and nothing after either. Nothing goes before the view is initialized: the caller asks only then.
import type { CallToolResult } from '@modelcontextprotocol/client';

export interface ToolCallState {
  /** The arguments so far, while the model still writes them. */
  partial?: Record<string, unknown>;
  /** The complete arguments, once the model's message is complete. */
  input?: Record<string, unknown>;
  /** The call's result (`isError` set when the tool answered with an error). */
  result?: CallToolResult;
  /** Why the call ended without a result. */
  cancelled?: string;
}

export type ToolFeedMessage =
  | { method: 'ui/notifications/tool-input-partial'; params: { arguments: Record<string, unknown> } }
  | { method: 'ui/notifications/tool-input'; params: { arguments: Record<string, unknown> } }
  | { method: 'ui/notifications/tool-result'; params: CallToolResult }
  | { method: 'ui/notifications/tool-cancelled'; params: { reason: string } };

export class ToolFeed {
  private lastPartial: string | undefined;
  private inputSent = false;
  private ended = false;

  /** The notifications the view has not had yet, in the order they must go. */
  next(state: ToolCallState): ToolFeedMessage[] {
    if (this.ended) return [];
    const out: ToolFeedMessage[] = [];
    if (!this.inputSent && state.input === undefined && state.partial && state.cancelled === undefined) {
      const json = JSON.stringify(state.partial);
      if (json !== this.lastPartial) {
        this.lastPartial = json;
        out.push({ method: 'ui/notifications/tool-input-partial', params: { arguments: state.partial } });
      }
    }
    if (!this.inputSent && state.input !== undefined) {
      this.inputSent = true;
      out.push({ method: 'ui/notifications/tool-input', params: { arguments: state.input } });
    }
    // A result follows the complete input (spec: tool-input "is required before sending tool-result").
    if (state.result && this.inputSent) {
      this.ended = true;
      out.push({ method: 'ui/notifications/tool-result', params: state.result });
    } else if (state.cancelled !== undefined) {
      this.ended = true;
      out.push({ method: 'ui/notifications/tool-cancelled', params: { reason: state.cancelled } });
    }
    return out;
  }
}
