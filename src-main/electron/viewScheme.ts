// The desktop shell's sandbox origin for MCP App views (docs/mcp-apps.md, "MCP Apps"): its own privileged
// scheme, `mooring-view://<view id>/`, so every view's page is an origin of its own, other than the app's
// (app://mooring) and other views'. Standard and secure (a real origin, like https), with no fetch API,
// no CORS and no CSP bypass. Browser mode's counterpart is core/web/sandboxServer.ts; both serve the same
// page and headers (apps/sandboxPage.ts). No `electron` import: tested in plain Node.
//
// Electron gives an iframe its embedder's session (a `partition` belongs to a webContents: a window, a
// <webview> or a WebContentsView, none of which this shell lets a view have), so no session partition can
// hold a view's frame; what a partition would separate (cookies, storage, cache) is separated by the origin
// here — each view's page is an origin of its own and stores nothing — and the view itself runs in an
// opaque origin, which has no cookies or storage at all. Device permissions: viewPermissions.ts.
import type { AppViews, SandboxHost } from '../core/apps/appViews';
import { sandboxHeaders, sandboxPage } from '../core/apps/sandboxPage';

export const VIEW_SCHEME = 'mooring-view';

export const viewSandboxHost: SandboxHost = {
  originOf: (viewId) => `${VIEW_SCHEME}://${viewId}`,
  pageUrl: (viewId) => `${VIEW_SCHEME}://${viewId}/`,
};

/** The `protocol.handle` answer for one request on the view scheme. */
export function serveViewPage(apps: AppViews, requestUrl: string): Response {
  let host = '';
  let path = '';
  try {
    const u = new URL(requestUrl);
    host = u.host;
    path = u.pathname;
  } catch {
    /* not found below */
  }
  const reg = path === '/' ? apps.registered(host) : undefined;
  if (!reg) return new Response('No such view.', { status: 404, headers: { 'content-type': 'text/plain' } });
  return new Response(sandboxPage(reg), { headers: sandboxHeaders(reg) });
}
