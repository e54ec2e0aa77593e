// What Mooring's own MCP server (this room) uses of the core; see ServedCore.
import type { ConversationStore } from '../agent/conversationStore';
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
  memory: MemoryStore;
  providers: ProviderAccess;
  settings: Pick<SettingsService, 'current'>;
}
