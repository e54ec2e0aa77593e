// Redaction (README, "Safety"): logs show URLs as host only and never hold a secret value. One helper for
// every place text leaves Mooring's hands — server log lines (the stderr ring buffer), session errors and
// statuses, connection-test results, the audit log — so a server that prints its API key, or an error that
// echoes a header, shows `[redacted]` instead.

export const REDACTED = '[redacted]';

/** Secrets shorter than this are ignored: masking "a" would shred the text and protect nothing. */
const MIN_SECRET_LENGTH = 4;

/** `https://user:tok@api.example.com:8443/mcp?key=…` → `api.example.com:8443`. Unparseable → `[invalid url]`. */
export function maskUrl(url: string | URL): string {
  try {
    return (typeof url === 'string' ? new URL(url) : url).host || '[no host]';
  } catch {
    return '[invalid url]';
  }
}

/** Each secret with its URL-encoded and base64 forms: how secrets usually leak into URLs and Basic auth. */
function needlesOf(secrets: Iterable<string>): string[] {
  const needles = new Set<string>();
  for (const s of secrets) {
    if (!s || s.length < MIN_SECRET_LENGTH) continue;
    needles.add(s);
    needles.add(encodeURIComponent(s));
    needles.add(Buffer.from(s, 'utf8').toString('base64').replace(/=+$/, ''));
  }
  // Longest first, so a secret that contains another is replaced whole.
  return [...needles].sort((a, b) => b.length - a.length);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces every occurrence of each secret (and its URL-encoded and base64 forms) with `[redacted]`. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const n of needlesOf(secrets)) out = out.split(n).join(REDACTED);
  return out;
}

/**
 * The secret values one process knows (keychain-resolved env and header values, OAuth tokens, secret
 * `${env:…}` values), and the redaction of any text against all of them. Values are only ever added: a
 * rotated secret stays masked, which costs nothing.
 */
export class SecretRedactor {
  private readonly secrets = new Set<string>();
  private pattern: RegExp | undefined;

  /** Registers values to mask from now on; short and empty ones are ignored. */
  add(values: Iterable<string | undefined>): void {
    let grew = false;
    for (const v of values)
      if (v && v.length >= MIN_SECRET_LENGTH && !this.secrets.has(v)) {
        this.secrets.add(v);
        grew = true;
      }
    if (grew) this.pattern = undefined;
  }

  /** The registered values (for the audit log's own redaction). */
  values(): string[] {
    return [...this.secrets];
  }

  /** `text` with every known secret replaced by `[redacted]`; one pass, whatever the number of secrets. */
  redact = (text: string): string => {
    if (!this.secrets.size || !text) return text;
    this.pattern ??= new RegExp(needlesOf(this.secrets).map(escapeRegExp).join('|'), 'g');
    return text.replace(this.pattern, REDACTED);
  };
}
