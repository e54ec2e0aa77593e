// The Content-Security-Policy of one MCP App view (extension io.modelcontextprotocol/ui, spec 2026-01-26,
// "Security Implications": hosts build the CSP from the resource's `_meta.ui.csp`). Every declared domain
// passes the SSRF guard's rules first (safety/declaredOrigins.ts); what is dropped is reported. With nothing
// declared the view gets the spec's restrictive default: inline script and style, data: images and media,
// and no network, no nested frames, no plugins, no forms posting anywhere. Like the extension's reference
// host (ext-apps, examples/basic-host/src/csp.ts), a view may run scripts it made itself — `blob:` and
// `data:` URLs in script-src, and workers from `blob:` — which bundled apps need (PDF.js starts its worker
// from a `blob:` wrapper that imports a `data:` module, and falls back to importing that module itself).
// Such a URL holds only what the view's own code wrote, inside its opaque origin, and reaches no network:
// nothing new leaves the sandbox. Stricter than the reference host in the rest: nothing from 'self' (the
// sandbox origin serves nothing a view needs), no 'unsafe-eval', no workers from the declared domains.
import type { DeclaredOriginPolicy } from '../safety/declaredOrigins';
import { checkDeclaredOrigin } from '../safety/declaredOrigins';

/** `_meta.ui.csp` of a UI resource, as the extension defines it (McpUiResourceCsp). */
export interface DeclaredCsp {
  connectDomains?: readonly string[];
  resourceDomains?: readonly string[];
  frameDomains?: readonly string[];
  baseUriDomains?: readonly string[];
}

export interface ViewCsp {
  /** The policy, one header value (also injected as a <meta> into the view). */
  policy: string;
  /** The declared domains that passed, per field. */
  kept: Required<{ [K in keyof DeclaredCsp]: string[] }>;
  /** What was dropped and why, for the card and the server's log. */
  dropped: { field: keyof DeclaredCsp; origin: string; why: string }[];
}

const FIELDS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
/** A declared list this long is a mistake or an attack; the rest is dropped. */
export const MAX_DOMAINS_PER_FIELD = 32;

export function buildViewCsp(declared: DeclaredCsp | undefined, policy: DeclaredOriginPolicy): ViewCsp {
  const kept: ViewCsp['kept'] = {
    connectDomains: [],
    resourceDomains: [],
    frameDomains: [],
    baseUriDomains: [],
  };
  const dropped: ViewCsp['dropped'] = [];
  for (const field of FIELDS) {
    const list = Array.isArray(declared?.[field]) ? declared![field]! : [];
    list.forEach((raw, i) => {
      if (i >= MAX_DOMAINS_PER_FIELD) {
        dropped.push({ field, origin: String(raw), why: `more than ${MAX_DOMAINS_PER_FIELD} domains` });
        return;
      }
      const v = checkDeclaredOrigin(String(raw), policy);
      if (v.ok) {
        if (!kept[field].includes(v.origin)) kept[field].push(v.origin);
      } else dropped.push({ field, origin: v.origin, why: v.why });
    });
  }
  const or = (list: string[], fallback: string) => (list.length ? list.join(' ') : fallback);
  const res = kept.resourceDomains;
  const directives = [
    "default-src 'none'",
    ['script-src', "'unsafe-inline'", 'blob:', 'data:', ...res].join(' '),
    ['style-src', "'unsafe-inline'", ...res].join(' '),
    ['img-src', 'data:', 'blob:', ...res].join(' '),
    ['font-src', 'data:', ...res].join(' '),
    ['media-src', 'data:', 'blob:', ...res].join(' '),
    `connect-src ${or(kept.connectDomains, "'none'")}`,
    `frame-src ${or(kept.frameDomains, "'none'")}`,
    `base-uri ${or(kept.baseUriDomains, "'none'")}`,
    'worker-src blob:',
    "object-src 'none'",
    "form-action 'none'",
  ];
  return { policy: directives.join('; '), kept, dropped };
}

/**
 * The view's HTML with the policy as the first thing the parser reads: a <meta> before any of the
 * document's own markup (after its doctype, so the document keeps standards mode). A second fence: the
 * sandbox page that holds the view is served with the same policy as a header, which the view inherits.
 */
export function injectCsp(html: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/"/g, '&quot;')}">`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  return doctype ? `${doctype[0]}${meta}${html.slice(doctype[0].length)}` : `${meta}${html}`;
}
