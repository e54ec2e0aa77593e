// Tool arguments while the model still writes them, for MCP App views (extension io.modelcontextprotocol/ui,
// spec 2026-01-26, "ui/notifications/tool-input-partial"; docs/mcp-apps.md, "MCP Apps"). The provider hands
// the JSON received so far; this recovers what it can (the spec's "best-effort recovery of incomplete JSON,
// with unclosed structures automatically closed") and announces it for calls of a tool that has a view.
// Each call gets its conversation-unique id on its first fragment, so its card and its view keep that id
// once the call is complete.
import { Allow, parse } from 'partial-json';
import type { ToolCallRequest } from '@shared/chat';

/**
 * Past this many characters of arguments a call's partial input is no longer announced: each announcement
 * carries the whole object so far, and a view gets the complete input moments later anyway.
 */
export const MAX_PARTIAL_CHARS = 32 * 1024;

/**
 * A half-written string or an unclosed array or object is closed; a half-written number (`12` of `125`)
 * or literal (`tr`) is left out until it is whole, since its value would be wrong rather than short.
 */
const PARTIAL = Allow.STR | Allow.ARR | Allow.OBJ;

/** The arguments the text so far says, or undefined when it is not (yet) the start of a JSON object. */
export function recoverPartialArguments(text: string): Record<string, unknown> | undefined {
  if (!text.trim()) return undefined;
  try {
    const value: unknown = parse(text, PARTIAL);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export interface PartialInput {
  callId: string;
  name: string;
  target: { server: string; tool: string };
  arguments: Record<string, unknown>;
}

interface StreamingCall {
  /** The provider's id for the call, which the finished call carries. */
  providerId: string;
  id: string;
  /** The finished call took this id. */
  done?: true;
  target: { server: string; tool: string } | undefined;
  /** The last announced arguments, as JSON: the same object again is not announced. */
  last?: string;
}

export class PartialInputs {
  private readonly calls = new Map<string, StreamingCall>();

  constructor(
    private readonly deps: {
      /** The conversation-unique id for a provider's call id (the loop's rule for every call). */
      unique: (providerId: string) => string;
      /** The tool a name resolves to when it has a view (`AgentToolRuntime.viewTarget`). */
      viewTarget: (name: string) => { server: string; tool: string } | undefined;
      emit: (input: PartialInput) => void;
    },
  ) {}

  push(delta: { key: string; id: string; name: string; argumentsText: string }): void {
    let call = this.calls.get(delta.key);
    if (!call) {
      call = {
        providerId: delta.id,
        id: this.deps.unique(delta.id),
        target: this.deps.viewTarget(delta.name),
      };
      this.calls.set(delta.key, call);
    }
    if (!call.target || delta.argumentsText.length > MAX_PARTIAL_CHARS) return;
    const args = recoverPartialArguments(delta.argumentsText);
    if (!args) return;
    const json = JSON.stringify(args);
    if (json === call.last) return;
    call.last = json;
    this.deps.emit({ callId: call.id, name: delta.name, target: call.target, arguments: args });
  }

  /**
   * The finished call with the id its fragments were given; undefined for a call that arrived whole.
   * Finished calls come in the order their fragments began, so the first streamed call of that provider
   * id not yet finished is this one (a model may give two calls one id).
   */
  idOf(call: ToolCallRequest): ToolCallRequest | undefined {
    for (const streamed of this.calls.values()) {
      if (streamed.done || streamed.providerId !== call.id) continue;
      streamed.done = true;
      return { ...call, id: streamed.id };
    }
    return undefined;
  }
}
