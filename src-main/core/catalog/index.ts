// The catalog room's public surface. Import from here, not from the files behind it.
export { ToolCatalog, buildCatalog } from './catalog';
export type {
  CatalogEntry,
  CatalogOptions,
  CatalogServerInput,
  PreparedArguments,
  ToolSummary,
} from './catalog';
export { ConversationTools, DEFAULT_DEFER_THRESHOLDS, shouldDefer } from './conversationTools';
export type {
  ConversationToolsOptions,
  ConversationToolsState,
  DeferThresholds,
  ModelToolDefinition,
  ToolSearchOutcome,
} from './conversationTools';
export {
  DEFAULT_MAX_RESULTS,
  TOOL_SEARCH_NAME,
  ToolSearchIndex,
  parseSelect,
  parseToolSearchInput,
  toolSearchDefinition,
} from './toolSearch';
export { normalizeResult, toModelContent, validateStructured } from './normalizeResult';
export type {
  ModelContentBlock,
  ModelContentOptions,
  ModelToolContent,
  NormalizeOptions,
} from './normalizeResult';
export {
  annotationFlags,
  defaultExcludeTools,
  missingFromToolSet,
  serverFilterReason,
  toolSetReason,
} from './filters';
export type { AnnotationFlags, DefaultSafeSet, ServerToolFilter, ToolSet } from './filters';
export { adaptSchemaForProvider, PROVIDERS } from './adaptSchema';
export type { AdaptResult, Provider } from './adaptSchema';
export { INTERNAL_ARG_PREFIX, coerceArgs, formatFix, stripInternal } from './argRepair';
export type { ArgFix, FixKind } from './argRepair';
export { flattenArgs, flattenSchema, schemaShape, unflattenArgs } from './schemaFlatten';
export { resolveRefs, resolvePointer, TRUNCATED_DESCRIPTION } from './schemaRefs';
export { computeSchema, processToolSchema } from './schemaPipeline';
export { tokenCostByServer, toolTokenCost } from './tokenCost';
export { resolveToolName } from './resolveName';
export type { Resolution } from './resolveName';
