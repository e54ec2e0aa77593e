// The host's checks on every message an MCP App view sends (extension io.modelcontextprotocol/ui, spec
// 2026-01-26, "Security Implications": hosts validate what views send), before the bridge sees it: a size
// cap, a rate limit, and the extension's schema for each method a view may use. An unknown method gets
// JSON-RPC's "method not found"; bad params "invalid params"; a flood "too many messages" while replies are
// cheap, and silence after that. Pure, so it is tested without a browser (viewMessageGuard.test.ts).
import {
  McpUiInitializeRequestSchema,
  McpUiInitializedNotificationSchema,
  McpUiMessageRequestSchema,
  McpUiOpenLinkRequestSchema,
  McpUiRequestDisplayModeRequestSchema,
  McpUiRequestTeardownNotificationSchema,
  McpUiSandboxProxyReadyNotificationSchema,
  McpUiSizeChangedNotificationSchema,
  McpUiUpdateModelContextRequestSchema,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import {
  CallToolRequestSchema,
  JSONRPCMessageSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  LoggingMessageNotificationSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/core';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

interface Parser {
  safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } };
}

/** What a view may ask of the host, by method. */
export const VIEW_REQUESTS: Record<string, Parser> = {
  'ui/initialize': McpUiInitializeRequestSchema,
  'ui/message': McpUiMessageRequestSchema,
  'ui/open-link': McpUiOpenLinkRequestSchema,
  'ui/update-model-context': McpUiUpdateModelContextRequestSchema,
  'ui/request-display-mode': McpUiRequestDisplayModeRequestSchema,
  'tools/call': CallToolRequestSchema,
  'resources/read': ReadResourceRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/templates/list': ListResourceTemplatesRequestSchema,
  ping: PingRequestSchema,
};

/** What a view (or the sandbox page) may tell the host. */
export const VIEW_NOTIFICATIONS: Record<string, Parser> = {
  'ui/notifications/initialized': McpUiInitializedNotificationSchema,
  'ui/notifications/size-changed': McpUiSizeChangedNotificationSchema,
  'ui/notifications/request-teardown': McpUiRequestTeardownNotificationSchema,
  'ui/notifications/sandbox-proxy-ready': McpUiSandboxProxyReadyNotificationSchema,
  'notifications/message': LoggingMessageNotificationSchema,
};

export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INVALID_REQUEST = -32600;
/** Implementation-defined server error (JSON-RPC 2.0 §5.1): the view sent too much, too fast. */
export const TOO_MANY = -32000;

export interface GuardOptions {
  /** Largest message, in characters of its JSON. */
  maxChars?: number;
  /** Messages per second a view may send, sustained. */
  perSecond?: number;
  /** Messages a view may send at once before the rate applies. */
  burst?: number;
  now?: () => number;
}

export type ErrorReply = {
  jsonrpc: '2.0';
  id: string | number;
  error: { code: number; message: string };
};

export type Verdict =
  { ok: true; message: JSONRPCMessage } | { ok: false; reason: string; reply?: ErrorReply };

/** A token bucket. */
class Bucket {
  private tokens: number;
  private last: number;
  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number,
  ) {
    this.tokens = burst;
    this.last = now();
  }
  take(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

export class ViewMessageGuard {
  private readonly maxChars: number;
  private readonly messages: Bucket;
  /** Error replies are rate-limited too: a flood gets answers only as long as answering is cheap. */
  private readonly replies: Bucket;
  /** What was refused, by reason: the view's card shows it. */
  readonly refused = new Map<string, number>();

  constructor(opts: GuardOptions = {}) {
    const now = opts.now ?? (() => Date.now());
    this.maxChars = opts.maxChars ?? 1024 * 1024;
    this.messages = new Bucket(opts.perSecond ?? 20, opts.burst ?? 40, now);
    this.replies = new Bucket((opts.perSecond ?? 20) * 10, (opts.burst ?? 40) * 5, now);
  }

  check(data: unknown): Verdict {
    const id = requestId(data);
    if (!this.messages.take()) return this.refuse('rate', id, TOO_MANY, 'Too many messages; slow down.');
    let json: string;
    try {
      json = JSON.stringify(data) ?? '';
    } catch {
      return this.refuse('unserialisable', id, INVALID_REQUEST, 'The message is not JSON.');
    }
    if (json.length > this.maxChars)
      return this.refuse(
        'size',
        id,
        INVALID_REQUEST,
        `The message is larger than ${this.maxChars} characters.`,
      );
    const base = JSONRPCMessageSchema.safeParse(data);
    if (!base.success) return this.refuse('shape', id, INVALID_REQUEST, 'Not a JSON-RPC 2.0 message.');
    const message = base.data;
    if (!('method' in message)) return { ok: true, message }; // a response to the host's request
    const isRequest = 'id' in message;
    const schema = (isRequest ? VIEW_REQUESTS : VIEW_NOTIFICATIONS)[message.method];
    if (!schema)
      return this.refuse(
        'unknown-method',
        id,
        METHOD_NOT_FOUND,
        `Method not found: ${message.method.slice(0, 100)}`,
      );
    const parsed = schema.safeParse(message);
    if (!parsed.success) {
      const issue = parsed.error?.issues[0];
      const where = issue?.path.map(String).join('.') || 'params';
      return this.refuse(
        'invalid',
        id,
        INVALID_PARAMS,
        `Invalid params (${where}: ${issue?.message ?? 'invalid'})`,
      );
    }
    return { ok: true, message };
  }

  private refuse(reason: string, id: string | number | undefined, code: number, message: string): Verdict {
    this.refused.set(reason, (this.refused.get(reason) ?? 0) + 1);
    if (id === undefined || !this.replies.take()) return { ok: false, reason };
    return { ok: false, reason, reply: { jsonrpc: '2.0', id, error: { code, message } } };
  }
}

/** The id of something that looks like a request (so it can be answered even when it is refused). */
function requestId(data: unknown): string | number | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const d = data as { id?: unknown; method?: unknown };
  if (typeof d.method !== 'string') return undefined;
  return typeof d.id === 'string' || typeof d.id === 'number' ? d.id : undefined;
}
