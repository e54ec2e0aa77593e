// What the person sends to start a turn (docs/chat.md, "A turn in the chat"): the input of `send`, and
// the message it becomes — the text with its files, each attached resource as read now, then the images.
import type { AppOrigin } from '@shared/appViews';
import { messageWithFiles, type AttachedTextFile } from '@shared/attachedFiles';
import type { AttachedResource, ContentPart, ImagePart } from '@shared/chat';
import { MooringError, toErrorData } from '../errors';

export interface SendInput {
  conversationId?: string;
  text: string;
  /** `provider:model`; absent: the conversation's last model, else the default. */
  model?: string;
  /** For a new conversation: its project folder (the MCP root). */
  workspace?: string | null;
  /** A named tool set (settings.toolSets): the model is offered only those tools. */
  toolSet?: string;
  /** Resources to attach to the message (the composer's `@`): read now, sent with the text. */
  attachments?: AttachedResource[];
  /** Sent by an MCP App view (`ui/message`): labelled as the app's in the conversation and to the model. */
  app?: AppOrigin;
  /**
   * Edit-and-resend: the conversation goes on from just before this message of the person's (it and the
   * messages after it leave the conversation), with `text` in its place.
   */
  replaceFrom?: string;
  /** Images sent with the text (to a vision model as image parts). */
  images?: ImagePart[];
  /** Text files sent with the text, inline after it (shared/attachedFiles.ts); the title ignores them. */
  files?: AttachedTextFile[];
  /** Switches the conversation's code mode on or off from this turn (docs/code-mode.md). */
  codeMode?: boolean;
}

/**
 * A server's resource as parts of a message (clientFeatures/resourcesService.ts `attachment`), or a skill
 * loaded for the conversation (agent/skillTool.ts `skillAttachment`).
 */
export type AttachResource = (
  resource: AttachedResource,
  ctx: { conversationId?: string | undefined },
) => Promise<ContentPart[]>;

/** True when there is nothing to send. */
export const isEmptyMessage = (input: SendInput): boolean =>
  !input.text.trim() && !input.images?.length && !input.files?.length && !input.attachments?.length;

/** The person's message as parts: the text (when there is any), then the images. */
const contentOf = (input: SendInput): ContentPart[] => {
  const text = input.files?.length ? messageWithFiles(input.text, input.files) : input.text;
  return [...(text.trim() ? [{ type: 'text' as const, text }] : []), ...(input.images ?? [])];
};

/** A resource that could not be read for a message, named, with the reason the server or session gave. */
function attachFailed(resource: AttachedResource, err: unknown): MooringError {
  const e = toErrorData(err);
  return new MooringError(
    e.code,
    `Could not attach ${resource.name ?? resource.uri} from "${resource.server}": ${e.message}`,
    e.hint ?? 'Remove it from the message or pick another resource, then send again.',
    { cause: err },
  );
}

/**
 * The person's message as parts: the text (with its files), each attached resource as read now (a
 * resource that cannot be read fails the send, naming it), then the images. A resource's parts are
 * marked with it (shared/chat.ts `AttachedResource`).
 */
export async function messageContent(
  input: SendInput,
  attach: AttachResource | undefined,
): Promise<ContentPart[]> {
  const parts = contentOf(input);
  if (!input.attachments?.length) return parts;
  if (!attach) throw new MooringError('usage', 'This host cannot attach resources');
  const resources: ContentPart[] = [];
  for (const a of input.attachments) {
    const resource: AttachedResource = {
      server: a.server,
      uri: a.uri,
      ...(a.name ? { name: a.name } : {}),
      ...(a.skill ? { skill: true as const } : {}),
    };
    const read = await attach(resource, { conversationId: input.conversationId }).catch((err: unknown) => {
      throw attachFailed(resource, err);
    });
    resources.push(...read.map((p) => ({ ...p, resource })));
  }
  return [...parts.filter((p) => p.type === 'text'), ...resources, ...parts.filter((p) => p.type !== 'text')];
}
