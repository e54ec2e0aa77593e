// What Mooring's own MCP server (this room) uses of the core; see ServedCore.
import type {
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
} from '@modelcontextprotocol/server';
import type { ConversationStore } from '../agent/conversationStore';
import type { ConversationTitles } from '../agent/conversationTitles';
import type { ProviderAccess } from '../agent/providerAccess';
import type { ToolService } from '../calls/toolService';
import type { SettingsService } from '../config/settingsService';
import type { MemoryStore } from '../memory/memoryStore';

/**
 * What Mooring's server uses of the core (the composition root satisfies it): the tools service, the
 * conversations and memory, the model providers and the settings. An interface, so this room never
 * imports the root that builds it.
 */
export interface ServedCore {
  tools: ToolService;
  conversations: ConversationStore;
  /** A conversation start_session began is named by its model after the answer, like the chat's. */
  titles: Pick<ConversationTitles, 'afterTurn'>;
  memory: MemoryStore;
  providers: ProviderAccess;
  settings: Pick<SettingsService, 'current'>;
  /** The connected servers' prompts, resources, completions and logs, served to clients (servedFeatures.ts). */
  servedFeatures?: ServedFeatures;
}

/**
 * A connected server's prompts, resources and completions, as Mooring's own server serves them
 * (servedFeatures.ts). Declared here, by the room that uses it; clientFeatures/servedFeaturesSource.ts implements it
 * over the live sessions.
 */
export interface ServedServer {
  readonly name: string;
  /** What the server advertises (its capabilities); nothing is asked of a server that does not offer it. */
  offers(): { prompts: boolean; resources: boolean; completions: boolean };
  listPrompts(): Promise<Prompt[]>;
  getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult>;
  listResources(): Promise<Resource[]>;
  readResource(uri: string): Promise<ReadResourceResult>;
  complete(params: CompleteRequest['params']): Promise<CompleteResult['completion']>;
}

export interface ServedFeatures {
  /** The servers whose session is ready now. */
  servers(): ServedServer[];
  /** A connected server's own log line (`notifications/message`); returns the unsubscribe. */
  onLog(fn: (server: string, line: { level: LoggingLevel; text: string }) => void): () => void;
  /** A connected server's prompts or resources changed; returns the unsubscribe. */
  onChanged(fn: (what: 'prompts' | 'resources') => void): () => void;
}
