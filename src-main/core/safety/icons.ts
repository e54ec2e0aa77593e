// Server, tool and prompt icons (MCP 2025-11-25, "Icons"): every icon a server names is untrusted. The UI
// only ever gets a `data:` URI of a raster image this module has checked; it never loads a server's URL.
// - `data:` URIs: PNG, JPEG, GIF or WebP, at most MAX_ICON_BYTES decoded, and the bytes must be that format.
// - `https:` URLs: fetched by the core through the SSRF guard (no cookies or credentials, redirects checked
//   hop by hop), only from the remote server's own host (spec: icons from "the same domain as the server or a
//   trusted domain"); a stdio server's icons from any public host (the local process can reach the network
//   itself, so fetching adds no reach). The same checks as a data: URI, then kept as a data: URI.
// - SVG is refused, never sanitised: it is a document (scripts, external references, entity expansion), a
//   sanitiser needs a full XML parser and an allowlist that must keep up with browsers, and the spec requires
//   raster formats only (PNG and JPEG). A server that offers SVG and PNG gets its PNG shown.
// - Anything else (http:, file:, other schemes, a failed fetch) is no icon, never an error.
import { EventEmitter } from 'node:events';
import { readCappedBytes } from './cappedBody';

export const MAX_ICON_BYTES = 64 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
const MAX_CACHED = 500;

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
}

type Raster = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** The raster format the bytes really are (by their signature), whatever the server said. */
export function sniffRaster(b: Uint8Array): Raster | undefined {
  const starts = (...sig: number[]) => sig.every((v, i) => b[i] === v);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50)
    return 'image/webp';
  return undefined;
}

/** Checked bytes as the only form the UI sees. */
function asDataUri(bytes: Uint8Array): string | undefined {
  if (bytes.length === 0 || bytes.length > MAX_ICON_BYTES) return undefined;
  const type = sniffRaster(bytes);
  return type ? `data:${type};base64,${Buffer.from(bytes).toString('base64')}` : undefined;
}

/** A `data:` icon, re-encoded from its checked bytes; undefined when it is not an acceptable raster image. */
export function checkedDataUri(src: string): string | undefined {
  const m = /^data:([^,;]*)((?:;[^,;]*)*),(.*)$/s.exec(src);
  if (!m) return undefined;
  if (/svg/i.test(m[1]!)) return undefined;
  const base64 = /;base64/i.test(m[2]!);
  // A cheap bound before decoding: base64 is 4/3 of the bytes.
  if (m[3]!.length > (MAX_ICON_BYTES * 4) / 3 + 8) return undefined;
  try {
    const bytes = base64 ? Buffer.from(m[3]!, 'base64') : Buffer.from(decodeURIComponent(m[3]!), 'latin1');
    return asDataUri(bytes);
  } catch {
    return undefined;
  }
}

export interface IconContext {
  /** A remote server's URL: its https icons must come from its host. Absent for a stdio server. */
  serverUrl?: string;
  /**
   * The SSRF guard's fetch (safety/guardedFetch.ts): a remote server's own (its network policy, none of its
   * headers), a public-only one for a stdio server.
   */
  fetch: (url: string, init?: RequestInit) => Promise<Response>;
}

/**
 * Turns a server's icon list into one safe `data:` URI. Synchronous, so lists stay cheap to build: a data:
 * icon is answered at once; an https icon is fetched in the background and `resolved` is emitted when it
 * arrives (the UI then lists again). Results, failures included, are remembered per URL.
 */
export class IconResolver extends EventEmitter<{ resolved: [{ src: string }] }> {
  private readonly cache = new Map<string, string | null>();
  private readonly pending = new Set<string>();

  dataUri(icons: readonly Icon[] | undefined, ctx: IconContext): string | undefined {
    for (const icon of icons ?? []) {
      if (typeof icon?.src !== 'string' || /svg/i.test(icon.mimeType ?? '')) continue;
      if (icon.src.startsWith('data:')) {
        const uri = checkedDataUri(icon.src);
        if (uri) return uri;
        continue;
      }
      if (!this.mayFetch(icon.src, ctx)) continue;
      const cached = this.cache.get(icon.src);
      if (cached) return cached;
      if (cached === undefined) this.fetchLater(icon.src, ctx);
    }
    return undefined;
  }

  /** Resolves once every https icon of these lists was tried (for tests and callers that can wait). */
  async settle(icons: readonly Icon[] | undefined, ctx: IconContext): Promise<string | undefined> {
    for (const icon of icons ?? [])
      if (this.mayFetch(icon.src, ctx) && !this.cache.has(icon.src)) await this.load(icon.src, ctx);
    return this.dataUri(icons, ctx);
  }

  private mayFetch(src: string, ctx: IconContext): boolean {
    let url: URL;
    try {
      url = new URL(src);
    } catch {
      return false;
    }
    if (url.protocol !== 'https:' || url.username || url.password) return false;
    if (!ctx.serverUrl) return true;
    try {
      return new URL(ctx.serverUrl).hostname === url.hostname;
    } catch {
      return false;
    }
  }

  private fetchLater(src: string, ctx: IconContext): void {
    if (this.pending.has(src)) return;
    void this.load(src, ctx).then(() => {
      if (this.cache.get(src)) this.emit('resolved', { src });
    });
  }

  private async load(src: string, ctx: IconContext): Promise<void> {
    if (this.pending.has(src)) return;
    this.pending.add(src);
    try {
      this.remember(src, await this.download(src, ctx));
    } catch {
      this.remember(src, null);
    } finally {
      this.pending.delete(src);
    }
  }

  private async download(src: string, ctx: IconContext): Promise<string | null> {
    const res = await ctx.fetch(src, {
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      credentials: 'omit',
      headers: { accept: 'image/png, image/jpeg, image/gif, image/webp' },
    });
    if (!res.ok) return null;
    const bytes = await readCappedBytes(res, MAX_ICON_BYTES);
    return bytes ? (asDataUri(Buffer.from(bytes)) ?? null) : null;
  }

  private remember(src: string, value: string | null): void {
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(src, value);
  }
}
