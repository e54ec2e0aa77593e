// The "Sessions" capability of Mooring's own server: list, read and search the conversations
// Mooring keeps, and `start_session`, which runs Mooring's own agent loop (runChatTurn) on a prompt with
// the client's scope of tools and returns the model's answer.
import type { McpServer } from '@modelcontextprotocol/server';
import type { ChatMessage } from '@shared/chat';
import { z } from 'zod';
import { runChatTurn } from '../agent/chatTurn';
import { DEFAULT_MODEL_SPEC } from '@shared/providers';
import { MooringError, toErrorData } from '../errors';
import type { ServedCore } from './servedCore';
import { scopeAllows, type ClientIdentity } from './clientScope';
import { guard } from './memoryCapability';
import { ScopedRuntime } from './scopedRuntime';
import { textResult } from './toolResults';

export interface SessionsCapabilityOptions {
  core: ServedCore;
  identity: () => ClientIdentity;
  approvalTimeoutMs: number;
  /** `provider:model` for start_session when the client names none (default MOORING_MODEL, then ollama:llama3.2). */
  defaultModel?: string;
  env?: NodeJS.ProcessEnv;
}

const iso = (ms: number) => new Date(ms).toISOString();

function renderMessage(m: ChatMessage): string {
  switch (m.role) {
    case 'user':
      return `user: ${m.content.map((p) => (p.type === 'text' ? p.text : `[image ${p.mimeType}]`)).join(' ')}`;
    case 'assistant': {
      const calls = m.toolCalls.map((c) => `\n  → ${c.name} ${JSON.stringify(c.arguments)}`).join('');
      return `assistant: ${m.text}${calls}`;
    }
    case 'tool':
      return `tool ${m.name} (${m.status}): ${m.text}`;
    case 'note':
      return `[${m.level}] ${m.text}`;
  }
}

export function registerSessionsCapability(mcp: McpServer, opts: SessionsCapabilityOptions): void {
  const { conversations } = opts.core;
  const allowed = (name: string, readOnly: boolean) =>
    scopeAllows(opts.identity().scope, { name, readOnly }).ok;
  const ro = { readOnlyHint: true, openWorldHint: false } as const;

  if (allowed('sessions_list', true))
    mcp.registerTool(
      'sessions_list',
      {
        title: 'List Mooring conversations',
        description: 'Lists the conversations kept by Mooring, most recently updated first.',
        inputSchema: z.object({ limit: z.number().int().min(1).max(500).optional() }),
        annotations: ro,
      },
      guard(async ({ limit }) => {
        const all = (await conversations.list()).slice(0, limit ?? 50);
        const rows = all.map((c) => ({ ...c, createdAt: iso(c.createdAt), updatedAt: iso(c.updatedAt) }));
        return textResult(
          all.length
            ? all.map((c) => `- ${c.id}: ${c.title} (updated ${iso(c.updatedAt)})`).join('\n')
            : 'No conversations yet.',
          { conversations: rows },
        );
      }),
    );

  if (allowed('sessions_search', true))
    mcp.registerTool(
      'sessions_search',
      {
        title: 'Search Mooring conversations',
        description: 'Finds Mooring conversations whose title contains the query (case-insensitive).',
        inputSchema: z.object({ query: z.string().min(1).max(500) }),
        annotations: ro,
      },
      guard(async ({ query }) => {
        const hits = await conversations.search(query);
        return textResult(
          hits.length
            ? hits.map((c) => `- ${c.id}: ${c.title}`).join('\n')
            : `No conversation title contains "${query}".`,
          {
            conversations: hits.map((c) => ({
              ...c,
              createdAt: iso(c.createdAt),
              updatedAt: iso(c.updatedAt),
            })),
          },
        );
      }),
    );

  if (allowed('sessions_read', true))
    mcp.registerTool(
      'sessions_read',
      {
        title: 'Read a Mooring conversation',
        description:
          'Returns the messages of one conversation as a transcript (the last `maxMessages`, default 100).',
        inputSchema: z.object({
          id: z.string().min(1),
          maxMessages: z.number().int().min(1).max(2000).optional(),
        }),
        annotations: ro,
      },
      guard(async ({ id, maxMessages }) => {
        const c = await conversations.load(id);
        const messages = c.messages.slice(-(maxMessages ?? 100));
        const head = `# ${c.summary.title}\n(${c.messages.length} messages, updated ${iso(c.summary.updatedAt)})\n\n`;
        return textResult(head + messages.map(renderMessage).join('\n\n'), {
          summary: { ...c.summary, createdAt: iso(c.summary.createdAt), updatedAt: iso(c.summary.updatedAt) },
          messages: messages.map((m) => ({ role: m.role, at: iso(m.at), text: renderMessage(m) })),
        });
      }),
    );

  if (allowed('start_session', false))
    mcp.registerTool(
      'start_session',
      {
        title: 'Ask Mooring',
        description:
          "Starts a new Mooring conversation with this prompt, runs Mooring's agent (its model and the tools of its connected servers, under its approval rules) and returns the answer.",
        inputSchema: z.object({
          prompt: z.string().min(1).max(100_000),
          model: z
            .string()
            .optional()
            .describe('provider:model, e.g. ollama:llama3.2 or anthropic:claude-sonnet-4-5'),
        }),
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
      },
      guard(async ({ prompt, model: spec }, ctx) => {
        const env = opts.env ?? process.env;
        const { provider, model } = await opts.core.providers.providerFor(
          spec ?? opts.defaultModel ?? env.MOORING_MODEL ?? DEFAULT_MODEL_SPEC,
        );
        const who = opts.identity();
        const runtime = new ScopedRuntime(opts.core, who, {
          approvalTimeoutMs: opts.approvalTimeoutMs,
        });
        try {
          const result = await runChatTurn({
            store: conversations,
            provider,
            model,
            runtime,
            message: prompt,
            signal: ctx.mcpReq.signal,
            maxToolIterations: opts.core.settings.current().maxToolIterations,
          });
          opts.core.titles.afterTurn({ conversationId: result.conversationId, provider, model, result });
          return textResult(result.message.text, {
            conversationId: result.conversationId,
            answer: result.message.text,
            steps: result.steps.length,
          });
        } catch (err) {
          const e = toErrorData(err);
          throw new MooringError(
            e.code,
            `start_session: Mooring's agent could not answer with the model ${provider.id}:${model}: ${e.message}`,
            e.hint ??
              'Check that the model is running and reachable, or pass another model as provider:model.',
            { cause: err },
          );
        }
      }),
    );
}
