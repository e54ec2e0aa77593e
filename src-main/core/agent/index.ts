// The agent room's public API (ARCHITECTURE.md, `agent/`): what the CLI (`mooring chat`), the api router and the UI use.
export { runChatTurn, type ChatTurnOptions, type ChatTurnResult } from './chatTurn';
export { ConversationStore, titleFromText, type LoadedConversation } from './conversationStore';
export {
  runToolLoop,
  DEFAULT_MAX_TOOL_ITERATIONS,
  type ToolLoopOptions,
  type ToolLoopResult,
} from './toolLoop';
export type { AgentToolRuntime, ModelTool, ToolCall, ToolExecutionContext, ToolOutcome } from './toolRuntime';
export {
  resolveProvider,
  parseModelSpec,
  type AgentProviderSettings,
  type ProviderSettings,
  type ModelSpec,
} from './providers/resolveProvider';
export { lookupCapabilities, type CapabilityOverrides } from './providers/modelCapabilities';
export { OllamaProvider } from './providers/ollamaProvider';
export { OpenAIProvider } from './providers/openaiProvider';
export { AnthropicProvider } from './providers/anthropicProvider';
export type {
  ChatProvider,
  ModelCapabilities,
  ProviderEvent,
  ProviderRequest,
  ModelMessage,
} from './providers/types';
