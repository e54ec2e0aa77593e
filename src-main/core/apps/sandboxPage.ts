// The sandbox proxy of MCP Apps (extension io.modelcontextprotocol/ui, spec 2026-01-26, "Sandbox proxy"):
// the page on the sandbox origin, framed by the app, that holds the view in a second iframe. Both hosts
// serve it (browser mode on a second loopback origin, core/web/sandboxServer.ts; the desktop shell on its
// own scheme), with `sandboxHeaders`. The view's frame is sandboxed without allow-same-origin (an opaque
// origin: no cookies, no storage, no way into this page), without popups, modals or top navigation. The
// page relays JSON-RPC between the app (only its origin, only its window) and the view (only its window).
import type { RegisteredView } from './appViews';

/** JSON inside a <script>: no `</script>`, no HTML comment openers. */
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');

/** The inner frame's sandbox flags: scripts and forms (a view's own form UI), nothing else. */
export const VIEW_SANDBOX = 'allow-scripts allow-forms';

export function sandboxPage(reg: RegisteredView): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>MCP App view</title>
<style>html,body{margin:0;height:100%;overflow:hidden;background:transparent}iframe{border:0;width:100%;height:100%;display:block}</style>
</head><body><script>
(() => {
  const HOST = ${scriptJson(reg.frameAncestor)};
  const ALLOW = ${scriptJson(reg.view.allow)};
  const SANDBOX = ${scriptJson(VIEW_SANDBOX)};
  const TITLE = ${scriptJson(`App view from ${reg.view.server}`)};
  if (window.top === window) { document.body.textContent = 'This page only works inside Mooring.'; return; }
  let inner = null;
  window.addEventListener('message', (e) => {
    if (e.source === window.parent) {
      if (e.origin !== HOST) return;
      const m = e.data;
      if (m && m.method === 'ui/notifications/sandbox-resource-ready') {
        if (inner || !m.params || typeof m.params.html !== 'string') return;
        inner = document.createElement('iframe');
        inner.setAttribute('sandbox', SANDBOX);
        if (ALLOW) inner.setAttribute('allow', ALLOW);
        inner.setAttribute('referrerpolicy', 'no-referrer');
        // A frame needs a name for screen readers (WCAG 4.1.2); the outer frame carries the same one.
        inner.setAttribute('title', TITLE);
        inner.srcdoc = m.params.html;
        document.body.appendChild(inner);
        return;
      }
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(m, '*');
      return;
    }
    if (inner && e.source === inner.contentWindow) window.parent.postMessage(e.data, HOST);
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, HOST);
})();
</script></body></html>`;
}

const PERMISSION_FEATURES = ['camera', 'microphone', 'geolocation', 'clipboard-write'];

/**
 * The page's headers: the view's CSP (inherited by the view's srcdoc frame, so it holds even if the view's
 * own <meta> were gone), framed only by the app, and only the granted permissions delegable.
 */
export function sandboxHeaders(reg: RegisteredView): Record<string, string> {
  const granted = new Set(
    reg.view.allow
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `${reg.view.csp}; frame-ancestors ${reg.frameAncestor}`,
    'permissions-policy': PERMISSION_FEATURES.map((f) => `${f}=${granted.has(f) ? '(self)' : '()'}`).join(
      ', ',
    ),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}
