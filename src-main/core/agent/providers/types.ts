// The one interface every LLM provider implements (ARCHITECTURE.md, `agent/`). The tool loop only sees this:
// neutral messages in, a stream of neutral events out. Wire formats live in each provider file.
import type { ContentPart, TokenUsage, ToolCallRequest } from '@shared/chat';

export interface ModelCapabilities {
  /** The model takes a `tools` list and answers with structured tool calls. If not: the text protocol. */
  tools: boolean;
  /** The model takes image blocks. If not: images become `[image: …]` placeholders. */
  vision: boolean;
}

/** A tool as the model sees it (name already unique across servers, schema already repaired). */
export interface ModelTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/**
 * What a provider is given: already prepared for the model (placeholders in place of images for
 * non-vision models, text-protocol rewriting done), so providers only translate shapes.
 */
export type ModelMessage =
  | { role: 'user'; content: ContentPart[] }
  | { role: 'assistant'; text: string; toolCalls: ToolCallRequest[] }
  | { role: 'tool'; toolCallId: string; name: string; content: ContentPart[]; isError: boolean };

export interface ProviderRequest {
  model: string;
  system?: string;
  messages: ModelMessage[];
  tools: ModelTool[];
  /** 'required': the model must call one of `tools` (a sampling request's `toolChoice`); default 'auto'. */
  toolChoice?: 'auto' | 'required';
  signal?: AbortSignal;
}

export type ProviderEvent =
  | { type: 'text'; text: string }
  | {
      type: 'tool-call';
      call: ToolCallRequest;
      /** Set when the model's arguments were not a JSON object; the loop fails that call with this reason. */
      invalidArguments?: string;
    }
  /**
   * A tool call's arguments so far, while the model still writes them: `argumentsText` is everything of
   * the JSON received yet (not parseable in general). `id` is the id the finished call will carry (not
   * unique: a model may repeat one), `key` tells this reply's calls apart (the wire's index). Optional
   * for a provider: one whose wire sends a call whole (Ollama) never sends it.
   */
  | { type: 'tool-call-delta'; key: string; id: string; name: string; argumentsText: string }
  | { type: 'done'; stopReason: string; usage?: TokenUsage };

/** A model as its provider lists it; `vision` only where the list itself says whether it takes images. */
export interface ListedModel {
  name: string;
  vision?: boolean;
}

export interface ChatProvider {
  /** 'ollama' | 'openai' | 'anthropic' */
  readonly id: string;
  /** The provider's own model list, each with what the list says it takes (when it says). */
  listModels?(signal?: AbortSignal): Promise<ListedModel[]>;
  capabilities(model: string): ModelCapabilities;
  /** Throws MooringError (connect_failed, auth_required, protocol_error, cancelled). */
  stream(req: ProviderRequest): AsyncIterable<ProviderEvent>;
}
