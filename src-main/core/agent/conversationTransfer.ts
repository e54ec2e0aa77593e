// A conversation out of Mooring and back (docs/data-on-disk.md, "Data on disk"): Markdown to read or share
// (each turn grouped as the chat shows it, shared/chatTurns.ts), and JSON that imports again as a new
// conversation with every message, tool step and image. An imported file is untrusted input: it is
// checked message by message, and a file that does not fit says what is wrong, before anything is written.
import { z } from 'zod';
import type { ChatMessage, ConversationSummary } from '@shared/chat';
import { groupTurns } from '@shared/chatTurns';
import { MooringError } from '../errors';
import type { ConversationStore, LoadedConversation } from './conversationStore';

export const EXPORT_FORMAT = 'mooring.conversation';
export const EXPORT_VERSION = 1;

export interface ConversationExport {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  title: string;
  createdAt: number;
  workspace: string | null;
  messages: ChatMessage[];
}

export function toJsonExport(c: LoadedConversation): string {
  const out: ConversationExport = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    title: c.summary.title,
    createdAt: c.summary.createdAt,
    workspace: c.summary.workspace,
    messages: c.messages,
  };
  return JSON.stringify(out, null, 2);
}

const fence = (text: string) => {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const f = '`'.repeat(longest + 1);
  return `${f}\n${text.replace(/\n$/, '')}\n${f}`;
};
const quote = (text: string) =>
  text
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');

export function toMarkdownExport(c: LoadedConversation): string {
  const out = [`# ${c.summary.title}`, '', `_Exported from Mooring, ${new Date().toISOString()}_`];
  for (const item of groupTurns(c.messages)) {
    if (item.kind === 'user') {
      out.push('', '## You', '');
      for (const p of item.message.content)
        if (p.resource && p.type === 'text') out.push(fence(p.text));
        else out.push(p.type === 'text' ? p.text : `_[image: ${p.mimeType}]_`);
      continue;
    }
    out.push('', `## Assistant${item.model ? ` (${item.model})` : ''}`, '');
    for (const s of item.steps) {
      if (s.kind === 'text') out.push(s.message.text, '');
      else if (s.kind === 'note') out.push(quote(s.message.text), '');
      else {
        const args = s.step?.editedArguments ?? s.call.arguments;
        const who = s.step?.target ? `${s.step.target.server} / ${s.step.target.tool}` : s.call.name;
        out.push(
          `**Tool ${who}** — ${s.step?.status ?? 'no answer'}${s.step?.editedArguments ? ' (arguments edited by you)' : ''}`,
          '',
          fence(JSON.stringify(args, null, 2)),
          '',
        );
        if (s.step?.text) out.push(fence(s.step.text), '');
        if (s.step?.images?.length) out.push(`_${s.step.images.length} image(s)_`, '');
      }
    }
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

const Base = { id: z.string().min(1).max(200), at: z.number() };
/** A part that came from an attached resource keeps that mark (shared/chat.ts `AttachedResource`). */
const Resource = z
  .object({ server: z.string().max(64), uri: z.string().max(8192), name: z.string().max(512).optional() })
  .optional();
const Image = z.object({
  type: z.literal('image'),
  mimeType: z.string().max(100),
  data: z.string(),
  resource: Resource,
});
const Message = z.discriminatedUnion('role', [
  z.object({
    ...Base,
    role: z.literal('user'),
    content: z.array(
      z.union([z.object({ type: z.literal('text'), text: z.string(), resource: Resource }), Image]),
    ),
    origin: z.enum(['person', 'protocol']).optional(),
  }),
  z.looseObject({
    ...Base,
    role: z.literal('assistant'),
    text: z.string(),
    toolCalls: z.array(
      z.object({ id: z.string(), name: z.string(), arguments: z.record(z.string(), z.unknown()) }),
    ),
    model: z.string().optional(),
  }),
  z.looseObject({
    ...Base,
    role: z.literal('tool'),
    toolCallId: z.string(),
    name: z.string(),
    status: z.enum(['done', 'failed', 'refused']),
    text: z.string(),
    images: z.array(z.object({ mimeType: z.string().max(100), data: z.string() })).optional(),
  }),
  z.object({ ...Base, role: z.literal('note'), level: z.enum(['info', 'warning']), text: z.string() }),
]);
const ExportSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  title: z.string().max(500),
  createdAt: z.number().optional(),
  workspace: z.string().nullable().optional(),
  messages: z.array(Message).max(100_000),
});

/** A JSON export read back, or a usage error that names the first problem. */
export function parseJsonExport(text: string): Omit<ConversationExport, 'createdAt'> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new MooringError(
      'usage',
      'The file is not JSON',
      'Choose a conversation exported as JSON from Mooring',
    );
  }
  const parsed = ExportSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new MooringError(
      'usage',
      `The file is not a Mooring conversation: ${issue.path.join('.') || 'the file'}: ${issue.message}`,
      'Choose a conversation exported as JSON from Mooring',
    );
  }
  const d = parsed.data;
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    title: d.title,
    workspace: d.workspace ?? null,
    messages: d.messages as ChatMessage[],
  };
}

export async function exportConversation(
  store: ConversationStore,
  id: string,
  format: 'markdown' | 'json',
): Promise<{ filename: string; content: string }> {
  const loaded = await store.load(id);
  const base =
    loaded.summary.title
      .replace(/[^\w\- ]+/g, '')
      .trim()
      .replace(/\s+/g, '-')
      .slice(0, 60) || 'conversation';
  return format === 'json'
    ? { filename: `${base}.json`, content: toJsonExport(loaded) }
    : { filename: `${base}.md`, content: toMarkdownExport(loaded) };
}

/**
 * A JSON export as a new conversation, checked before anything is written. Its project folder is not
 * carried over: a file must not choose which folder the servers may read.
 */
export async function importConversation(
  store: ConversationStore,
  text: string,
): Promise<ConversationSummary> {
  const data = parseJsonExport(text);
  const created = await store.create({ title: data.title });
  for (const m of data.messages) await store.append(created.id, m);
  return created;
}
