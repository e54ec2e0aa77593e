// MCP Apps (extension io.modelcontextprotocol/ui, spec 2026-01-26): what crosses the bridge about one
// interactive view of a tool result. The core reads the view's resource, builds its CSP and registers it
// with the sandbox; the renderer frames the sandbox page and talks to the view through it.

export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui';
export const UI_MIME_TYPE = 'text/html;profile=mcp-app';

/** The permissions a view may ask for (`_meta.ui.permissions`), as the extension names them. */
export const VIEW_PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;
export type ViewPermission = (typeof VIEW_PERMISSIONS)[number];

export interface WireAppView {
  /** One opened view: the sandbox page's address names it, every call from the view carries it. */
  viewId: string;
  server: string;
  /** The tool whose result the view shows. */
  tool: string;
  uri: string;
  /** The view's HTML with its CSP as the first <meta> (the sandbox page also sends it as a header). */
  html: string;
  /** The sandbox page that holds the view, on an origin other than the app's. */
  proxyUrl: string;
  sandboxOrigin: string;
  csp: string;
  /** Declared domains the guard dropped, and why: shown on the card. */
  dropped: { field: string; origin: string; why: string }[];
  /** Asked for by the resource; `granted` are those the user allowed for this server. */
  permissions: { requested: ViewPermission[]; granted: ViewPermission[] };
  /** The iframes' `allow` attribute: the granted permissions only. */
  allow: string;
  /** The server asked for a border (`_meta.ui.prefersBorder`). */
  prefersBorder?: boolean;
}

/**
 * The `client` of a call a view made (`app:<server>/<tool>`): in the approval dialog ("asked by the X app")
 * and the audit log, so a call from an app is never taken for the model's or the person's.
 */
export const APP_CLIENT_PREFIX = 'app:';

/** Who a call's `client` names when an app view made it. */
export function appOfClient(client: string | undefined): AppOrigin | undefined {
  if (!client?.startsWith(APP_CLIENT_PREFIX)) return undefined;
  const rest = client.slice(APP_CLIENT_PREFIX.length);
  const slash = rest.indexOf('/');
  return slash > 0 ? { server: rest.slice(0, slash), tool: rest.slice(slash + 1) } : undefined;
}

/** How a message or context update from a view is labelled in the conversation: never as the person. */
export interface AppOrigin {
  server: string;
  tool: string;
}
