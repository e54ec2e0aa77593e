// Who may see and call a tool under MCP Apps (extension io.modelcontextprotocol/ui, `_meta.ui.visibility`):
// "model" (the agent lists and calls it) and "app" (its server's views call it); both when absent. A tool
// for the app only is never shown to the model; the catalog leaves it out of what the model gets.
import type { Tool } from '@modelcontextprotocol/client';

type WithMeta = Pick<Tool, '_meta'>;

const uiMeta = (tool: WithMeta) =>
  (tool._meta?.ui ?? undefined) as { resourceUri?: unknown; visibility?: unknown } | undefined;

function visibility(tool: WithMeta): string[] {
  const v = uiMeta(tool)?.visibility;
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : ['model', 'app'];
}

export const isAppOnly = (tool: WithMeta) => !visibility(tool).includes('model');
export const visibleToApp = (tool: WithMeta) => visibility(tool).includes('app');

/** The tool's view, a `ui://` resource (`_meta.ui.resourceUri`, or the older flat `ui/resourceUri` key). */
export function uiResourceUriOf(tool: WithMeta): string | undefined {
  const uri = uiMeta(tool)?.resourceUri ?? tool._meta?.['ui/resourceUri'];
  return typeof uri === 'string' && uri.startsWith('ui://') ? uri : undefined;
}
