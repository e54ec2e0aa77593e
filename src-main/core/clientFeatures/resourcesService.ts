// The servers' resources as one service the hosts use (MCP 2025-11-25 "Resources", "Completion"): what each
// ready server offers, its resources and templates, a read (a template's variables filled in first, with
// the server's completions), subscriptions with their live updates (resources.ts keeps and renews them),
// and a resource as the parts of a chat message (`attachment`). Routers and CLI commands call this; the
// wire shapes are shared/resources.ts.
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { UriTemplate } from '@modelcontextprotocol/client';
import type { ContentPart } from '@shared/chat';
import type {
  CompletionRef,
  CompletionView,
  ResourceContentView,
  ResourceServerView,
  ResourceTemplateView,
  ResourceView,
} from '@shared/resources';
import { MooringError } from '../errors';
import {
  completeArgument,
  listResources,
  listResourceTemplates,
  readResource,
  type ResourceSubscriptions,
} from './resources';
import { runningSession, type ServerSession } from './serverSession';

export interface SessionLookup {
  list(): ServerSession[];
  get(name: string): ServerSession | undefined;
}

/** What one attached resource may put into a message: more is cut, with a note. */
export const MAX_ATTACHMENT_CHARS = 100_000;
const NATIVE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export class ResourcesService {
  constructor(private readonly deps: { sessions: SessionLookup; subscriptions: ResourceSubscriptions }) {}

  /** Every ready server with what it offers. */
  servers(): ResourceServerView[] {
    return this.deps.sessions.list().flatMap((s) => {
      const caps = s.requests.capabilities();
      if (!caps) return [];
      return [
        {
          server: s.name,
          resources: Boolean(caps.resources),
          subscribe: Boolean(caps.resources?.subscribe),
          prompts: Boolean(caps.prompts),
          completions: Boolean(caps.completions),
          subscribed: this.deps.subscriptions.subscriptions(s.name),
        },
      ];
    });
  }

  async list(server: string): Promise<ResourceView[]> {
    return (await listResources(this.session(server))).map((r) => ({
      uri: r.uri,
      name: r.name,
      ...(r.title ? { title: r.title } : {}),
      ...(r.description ? { description: r.description } : {}),
      ...(r.mimeType ? { mimeType: r.mimeType } : {}),
      ...(typeof r.size === 'number' ? { size: r.size } : {}),
    }));
  }

  async templates(server: string): Promise<ResourceTemplateView[]> {
    return (await listResourceTemplates(this.session(server))).map((t) => ({
      uriTemplate: t.uriTemplate,
      name: t.name,
      ...(t.title ? { title: t.title } : {}),
      ...(t.description ? { description: t.description } : {}),
      ...(t.mimeType ? { mimeType: t.mimeType } : {}),
      variables: variablesOf(t.uriTemplate),
    }));
  }

  /** `resources/read`, every item as text or base64 bytes. */
  async read(server: string, uri: string): Promise<ResourceContentView[]> {
    return contentsOf(await readResource(this.session(server), uri));
  }

  /** The URI a template makes with these variables (RFC 6570 expansion, as the server will parse it). */
  expand(uriTemplate: string, variables: Record<string, string>): string {
    const t = parseTemplate(uriTemplate);
    const missing = t.variableNames.filter((v) => !variables[v]?.trim());
    if (missing.length)
      throw new MooringError(
        'usage',
        `The template needs ${missing.map((m) => `"${m}"`).join(', ')}`,
        'Fill in every field of the template, then read it.',
      );
    return t.expand(variables);
  }

  /** Suggestions for a prompt's argument or a template's variable, given what is typed and chosen so far. */
  complete(
    server: string,
    input: {
      ref: CompletionRef;
      argument: { name: string; value: string };
      context?: Record<string, string>;
    },
  ): Promise<CompletionView> {
    return completeArgument(this.session(server), input);
  }

  async subscribe(server: string, uri: string): Promise<void> {
    await this.deps.subscriptions.subscribe(this.session(server), uri);
  }

  async unsubscribe(server: string, uri: string): Promise<void> {
    await this.deps.subscriptions.unsubscribe(this.session(server), uri);
  }

  /**
   * A resource as parts of a chat message: its text under a line naming it (the model reads where it came
   * from), an image as an image, other bytes as a line that says what they are.
   */
  async attachment(server: string, uri: string): Promise<ContentPart[]> {
    const contents = await this.read(server, uri);
    if (!contents.length)
      throw new MooringError(
        'not_found',
        `"${server}" returned nothing for ${uri}`,
        'Pick another resource.',
      );
    return contents.map((c): ContentPart => {
      const head = `Resource ${c.uri} from "${server}"${c.mimeType ? ` (${c.mimeType})` : ''}`;
      if (c.kind === 'text') {
        const cut = c.text.length > MAX_ATTACHMENT_CHARS;
        const text = cut ? c.text.slice(0, MAX_ATTACHMENT_CHARS) : c.text;
        return {
          type: 'text',
          text: `${head}:\n${text}${cut ? `\n[cut: ${c.text.length - MAX_ATTACHMENT_CHARS} more characters]` : ''}`,
        };
      }
      if (c.mimeType && NATIVE_IMAGES.has(c.mimeType))
        return { type: 'image', mimeType: c.mimeType, data: c.base64 };
      return { type: 'text', text: `${head}: ${c.size} bytes of binary content, not shown.` };
    });
  }

  private session(server: string): ServerSession {
    return runningSession(this.deps.sessions, server);
  }
}

function parseTemplate(uriTemplate: string): UriTemplate {
  try {
    return new UriTemplate(uriTemplate);
  } catch (err) {
    throw new MooringError(
      'protocol_error',
      `The server's template ${uriTemplate} is not a valid URI template: ${(err as Error).message}`,
    );
  }
}

function variablesOf(uriTemplate: string): string[] {
  try {
    return new UriTemplate(uriTemplate).variableNames;
  } catch {
    return [];
  }
}

function contentsOf(result: ReadResourceResult): ResourceContentView[] {
  return result.contents.map((c) => {
    const mime = c.mimeType ? { mimeType: c.mimeType } : {};
    if ('text' in c && typeof c.text === 'string') return { uri: c.uri, ...mime, kind: 'text', text: c.text };
    const base64 = 'blob' in c && typeof c.blob === 'string' ? c.blob : '';
    const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
    return {
      uri: c.uri,
      ...mime,
      kind: 'blob',
      base64,
      size: Math.max(0, Math.floor((base64.length * 3) / 4) - padding),
    };
  });
}
