// The renderer's Content Security Policy, one string for both hosts (browser mode sends it as a header,
// the Electron shell on every app:// response). Scripts only from our origin, never inline or eval'd
// (XSS defence). Styles allow inline because Radix Dialog's scroll lock injects a <style> element; no script
// can run from a style.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  // Tool images are shown from blob: URLs made in the renderer; nothing is loaded from elsewhere.
  "img-src 'self' blob: data:",
  "media-src 'self' blob: data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The headers with MCP App views allowed: the one origin (or scheme) their sandbox pages come from may be
 * framed (docs/mcp-apps.md, "MCP Apps"); nothing else may.
 */
export function securityHeadersFraming(sandboxSource: string): Record<string, string> {
  return {
    ...SECURITY_HEADERS,
    'content-security-policy': `${CONTENT_SECURITY_POLICY}; frame-src ${sandboxSource}`,
  };
}

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
};
