// An MCP App view's `ui/open-link` (docs/mcp-apps.md, "MCP Apps"): https only, after the person's consent
// in the same dialog as URL elicitation, through the host's one checked opener. The answer is the spec's
// result: `isError` when the link was not opened.
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { InteractionBroker } from '../clientFeatures/interactionBroker';
import { isOpenableUrl } from '../clientFeatures/elicitation';

export async function openLinkForView(
  deps: { interactions: InteractionBroker; openExternal?: ((url: string) => Promise<void>) | undefined },
  view: { server: string; tool: string },
  input: { viewId: string; url: string },
): Promise<CallToolResult> {
  const refused = { content: [], isError: true };
  if (!isOpenableUrl(input.url) || !deps.openExternal) return refused;
  const answer = await deps.interactions.request({
    kind: 'elicitation-url',
    server: view.server,
    message: `The ${view.server} app (${view.tool} view) wants to open a link.`,
    url: input.url,
    host: new URL(input.url).host,
    elicitationId: input.viewId,
  });
  if (answer.action !== 'accept') return refused;
  await deps.openExternal(input.url);
  return { content: [] };
}
