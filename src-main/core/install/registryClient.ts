// The MCP Registry API, read side (the registry's docs/reference/api: `GET /v0.1/servers?search=&cursor=
// &limit=` and `GET /v0.1/servers/{name}/versions/{version|latest}`), at the official registry by default or
// at a downstream registry that implements the same API (MOORING_REGISTRY_URL, or the `registryUrl`
// setting). Every request goes through the SSRF-guarded fetch (safety/guardedFetch.ts) with the registry's
// own URL as the typed one, answers are capped in size and time, and every entry is read as untrusted input
// (serverJson.ts). An unreachable registry is one clear error; nothing else in Mooring depends on it.
import type { RegistrySearchPage, RegistryServerSummary } from '@shared/registry';
import { MooringError } from '../errors';
import { readCappedBytes } from '../safety/cappedBody';
import { createGuardedFetch } from '../safety/guardedFetch';
import { runOptions } from './registryDraft';
import {
  clip,
  isLatestEntry,
  MAX_DESCRIPTION_CHARS,
  MAX_TITLE_CHARS,
  readServerJson,
  safeLink,
  type ServerJson,
} from './serverJson';

export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';
/** One answer larger than this is refused (a page of 100 entries is a few hundred KB). */
export const MAX_REGISTRY_RESPONSE_BYTES = 8 * 1024 * 1024;
export const REGISTRY_TIMEOUT_MS = 15_000;
export const MAX_PAGE_LIMIT = 100;

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

export interface RegistryClientOptions {
  /** The registry's base URL, e.g. https://registry.modelcontextprotocol.io */
  baseUrl: string;
  /** For tests: the fetch to use instead of a guarded one. */
  fetch?: Fetch;
  timeoutMs?: number;
}

/** The registry URL this process uses: MOORING_REGISTRY_URL, else the setting, else the official one. */
export function registryUrlFrom(env: NodeJS.ProcessEnv, setting: string | undefined): string {
  const raw = env.MOORING_REGISTRY_URL?.trim() || setting || DEFAULT_REGISTRY_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new MooringError(
      'usage',
      `The registry URL "${raw}" is not a URL.`,
      'Set MOORING_REGISTRY_URL (or the registryUrl setting) to the base URL of an MCP registry, e.g. https://registry.modelcontextprotocol.io',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new MooringError('usage', `The registry URL "${raw}" must start with http:// or https://.`);
  return raw.replace(/\/+$/, '');
}

export class RegistryClient {
  readonly baseUrl: string;
  constructor(private readonly opts: RegistryClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
  }

  /** One page of servers matching `query` (latest versions only), with the entries skipped and why. */
  async search(opts: { query?: string; cursor?: string; limit?: number } = {}): Promise<RegistrySearchPage> {
    const params = new URLSearchParams();
    if (opts.query) params.set('search', opts.query.slice(0, 200));
    if (opts.cursor) params.set('cursor', opts.cursor.slice(0, 2048));
    params.set('limit', String(Math.min(Math.max(1, Math.floor(opts.limit ?? 30)), MAX_PAGE_LIMIT)));
    const body = await this.getJson(`/v0.1/servers?${params}`);
    const list = (body as { servers?: unknown }).servers;
    if (!Array.isArray(list)) throw this.badAnswer('its answer has no "servers" list');
    const skipped: string[] = [];
    const byName = new Map<string, { summary: RegistryServerSummary; latest: boolean }>();
    list.forEach((entry, i) => {
      const read = readServerJson(entry);
      if (!read.ok) return void skipped.push(`entry ${i + 1}: ${read.error}`);
      const latest = isLatestEntry(entry);
      const prior = byName.get(read.server.name);
      if (!prior || (latest && !prior.latest))
        byName.set(read.server.name, { summary: summarize(read.server), latest });
    });
    const meta = (body as { metadata?: { nextCursor?: unknown; next_cursor?: unknown } }).metadata;
    const next = meta?.nextCursor ?? meta?.next_cursor;
    return {
      registry: this.baseUrl,
      servers: [...byName.values()].map((v) => v.summary),
      ...(typeof next === 'string' && next ? { nextCursor: next.slice(0, 2048) } : {}),
      skipped,
    };
  }

  /** One server.json: a version, or the latest. `not_found` when the registry has no such server. */
  async get(name: string, version = 'latest'): Promise<ServerJson> {
    const path = `/v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`;
    const body = await this.getJson(path, `${name}${version === 'latest' ? '' : `@${version}`}`);
    const read = readServerJson(body);
    if (!read.ok) throw this.badAnswer(`its entry for ${name} is not a valid server.json (${read.error})`);
    if (read.server.name !== name)
      throw this.badAnswer(`it answered a request for ${name} with another server (${read.server.name})`);
    return read.server;
  }

  private badAnswer(why: string): MooringError {
    return new MooringError(
      'protocol_error',
      `The registry at ${this.baseUrl} gave an answer Mooring cannot use: ${why}.`,
      'Check that MOORING_REGISTRY_URL (or the registryUrl setting) points at an MCP registry.',
    );
  }

  private async getJson(path: string, what?: string): Promise<unknown> {
    const guarded = this.opts.fetch ? undefined : createGuardedFetch({ typedUrl: this.baseUrl });
    const doFetch: Fetch = this.opts.fetch ?? guarded!;
    const url = `${this.baseUrl}${path}`;
    try {
      let res: Response;
      try {
        res = await doFetch(url, {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(this.opts.timeoutMs ?? REGISTRY_TIMEOUT_MS),
        });
      } catch (err) {
        if (err instanceof MooringError) throw err;
        throw new MooringError(
          'connect_failed',
          `Cannot reach the MCP registry at ${this.baseUrl} (${reason(err)}).`,
          'Check your connection; to use another registry, set MOORING_REGISTRY_URL or the registryUrl setting. Servers already configured are not affected.',
        );
      }
      if (res.status === 404 && what)
        throw new MooringError(
          'not_found',
          `The registry at ${this.baseUrl} has no server ${what}.`,
          'Search for it: mooring mcp search WORDS',
        );
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        throw new MooringError(
          'connect_failed',
          `The MCP registry at ${this.baseUrl} answered HTTP ${res.status}.`,
          'Try again later, or point Mooring at another registry (MOORING_REGISTRY_URL).',
        );
      }
      const text = await readCapped(res, MAX_REGISTRY_RESPONSE_BYTES);
      if (text === undefined)
        throw this.badAnswer(`it is larger than ${MAX_REGISTRY_RESPONSE_BYTES / 1024 / 1024} MB`);
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw this.badAnswer('it is not JSON');
      }
    } finally {
      await guarded?.close().catch(() => undefined);
    }
  }
}

function reason(err: unknown): string {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    if ((e as Error).name === 'TimeoutError') return 'no answer in time';
  }
  return err instanceof Error ? err.message : String(err);
}

/** The body as text, or undefined when it is larger than `max` bytes (the rest is not read). */
export async function readCapped(res: Response, max: number): Promise<string | undefined> {
  const bytes = await readCappedBytes(res, max);
  return bytes && new TextDecoder().decode(bytes);
}

export function summarize(server: ServerJson): RegistryServerSummary {
  const repository = safeLink(server.repository?.url);
  const websiteUrl = safeLink(server.websiteUrl);
  const title = clip(server.title, MAX_TITLE_CHARS);
  return {
    name: server.name,
    ...(title ? { title } : {}),
    description: clip(server.description, MAX_DESCRIPTION_CHARS) ?? '',
    version: server.version,
    options: runOptions(server),
    ...(repository ? { repository } : {}),
    ...(websiteUrl ? { websiteUrl } : {}),
  };
}
