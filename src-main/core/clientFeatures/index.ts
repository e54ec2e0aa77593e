// The client-features room's public index (ARCHITECTURE.md, `clientFeatures/`): sampling, elicitation, roots,
// prompts, resources and logging on the client side of each session.
export {
  acceptElicitationsWithDefaults,
  createClientFeatures,
  type ClientFeatures,
  type ClientFeaturesDeps,
} from './clientFeatures';
export { applyElicitationDefaults, completeElicitationContent } from './elicitationContent';
export { isOpenableUrl } from './elicitation';
export { DEFAULT_INTERACTION_TIMEOUT_MS, InteractionBroker } from './interactionBroker';
export { applyLogLevel, MCP_LOG_LEVEL } from './logLevel';
export { getPrompt, listPrompts, PromptsService, slashCommands, type SlashCommand } from './prompts';
export {
  completeArgument,
  listResources,
  listResourceTemplates,
  readResource,
  ResourceSubscriptions,
} from './resources';
export { ResourcesService } from './resourcesService';
export { RootsRegistry } from './roots';
export { SamplingService, USER_REJECTED, type SamplingComplete, type SamplingParams } from './sampling';
export { SamplingModel } from './samplingModel';
export { DEFAULT_SAMPLING_TOKENS_PER_HOUR, SamplingBudget } from './samplingBudget';
export type { ServerSession } from './serverSession';
export { createRelaySource } from './relaySource';
