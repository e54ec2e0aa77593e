// Redaction for logs (issue 4, "Secrets"): logs show URLs as host only and never hold a secret value.

const REDACTED = '[redacted]';

/** `https://user:tok@api.example.com:8443/mcp?key=…` → `api.example.com:8443`. Unparseable → `[invalid url]`. */
export function maskUrl(url: string | URL): string {
  try {
    return (typeof url === 'string' ? new URL(url) : url).host || '[no host]';
  } catch {
    return '[invalid url]';
  }
}

/**
 * Replaces every occurrence of each secret (and its URL-encoded and base64 forms, which is how secrets
 * usually leak into logged URLs and Basic auth headers) with `[redacted]`. Secrets shorter than 4
 * characters are ignored: masking "a" would shred the text and protect nothing.
 */
export function redactText(text: string, secrets: readonly string[]): string {
  const needles = new Set<string>();
  for (const s of secrets) {
    if (!s || s.length < 4) continue;
    needles.add(s);
    needles.add(encodeURIComponent(s));
    needles.add(Buffer.from(s, 'utf8').toString('base64').replace(/=+$/, ''));
  }
  let out = text;
  for (const n of [...needles].sort((a, b) => b.length - a.length)) out = out.split(n).join(REDACTED);
  return out;
}
