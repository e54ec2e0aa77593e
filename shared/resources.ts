// Resources and completions as the UI and the CLI see them (MCP 2025-11-25 "Resources", "Completion"):
// what a server offers, a resource's contents (text, or bytes as base64), and argument suggestions. Plain
// data, no Node. Every string comes from a server: untrusted wherever it is shown.

/** What one ready server offers of resources, prompts and completions, and what Mooring subscribed to. */
export interface ResourceServerView {
  server: string;
  resources: boolean;
  /** `resources.subscribe`: updates are sent for a subscribed URI. */
  subscribe: boolean;
  prompts: boolean;
  completions: boolean;
  /** The URIs Mooring holds subscriptions to (renewed on every reconnect). */
  subscribed: string[];
}

export interface ResourceView {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

export interface ResourceTemplateView {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** The template's variables (RFC 6570), in order: what the form asks for. */
  variables: string[];
}

/** One item of `resources/read`: text, or bytes (base64, with their size). */
export type ResourceContentView =
  | { uri: string; mimeType?: string; kind: 'text'; text: string }
  | { uri: string; mimeType?: string; kind: 'blob'; base64: string; size: number };

/** What a completion request refers to: a prompt's argument, or a resource template's variable. */
export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

export interface CompletionView {
  values: string[];
  /** The server has more suggestions than it sent (its limit is 100). */
  hasMore: boolean;
}
