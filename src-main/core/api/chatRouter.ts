// The Chat screen's side of the router (agent/chatService.ts, agent/chatConversations.ts,
// agent/chatModels.ts): conversations (list, search, load, rename, delete), a turn started server-side
// (`send`; its ChatEvents arrive on `events`, tagged by conversation), cancel, the model and project folder
// of a conversation, and prompts as slash commands.
import { isProviderId } from '@shared/providers';
import type { SlashCommandView } from '@shared/wire';
import { z } from 'zod';
import { toolsOverview } from '../agent/toolsOverview';
import { canonicalWorkspace } from '../workspace/discovery';
import { publicProcedure, router } from './trpc';

const Id = z.string().min(1).max(100);
const ModelSpec = z.string().min(3).max(200);
/** An attached image, base64 (about 15 MB of image at most). */
const Image = z.object({
  type: z.literal('image'),
  mimeType: z.string().regex(/^image\/[\w.+-]+$/, 'an image type such as image/png'),
  data: z
    .string()
    .max(20_000_000)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64 data'),
});
const MAX_IMAGES = 10;

export const chatRouter = router({
  conversations: publicProcedure.query(({ ctx }) => ctx.core.chat.conversations.list()),

  search: publicProcedure
    .input(z.object({ query: z.string().max(200) }))
    .query(({ ctx, input }) => ctx.core.chat.conversations.search(input.query)),

  /** One conversation with every message; it becomes the active one (its folder is the MCP root). */
  load: publicProcedure
    .input(z.object({ id: Id }))
    .query(({ ctx, input }) => ctx.core.chat.conversations.load(input.id)),

  /** The model a new conversation starts with. */
  defaultModel: publicProcedure.query(({ ctx }) => ctx.core.models.defaultModel()),

  send: publicProcedure
    .input(
      z.object({
        conversationId: Id.optional(),
        text: z.string().max(200_000),
        model: ModelSpec.optional(),
        workspace: z.string().max(4096).nullable().optional(),
        toolSet: z.string().max(64).optional(),
        /** Switches the conversation's code mode from this turn (docs/code-mode.md). */
        codeMode: z.boolean().optional(),
        /**
         * Resources attached with `@` (read when the message is sent; resourcesService.attachment); `name`
         * is the server's name for one, shown on its chip in the transcript.
         */
        attachments: z
          .array(
            z.object({
              server: z.string().min(1).max(64),
              uri: z.string().min(1).max(8192),
              name: z.string().min(1).max(512).optional(),
              /** A skill (docs/skills.md): loaded, with the person's approval, not read as a resource. */
              skill: z.literal(true).optional(),
            }),
          )
          .max(20)
          .optional(),
        replaceFrom: Id.optional(),
        images: z.array(Image).max(MAX_IMAGES).optional(),
        files: z
          .array(z.object({ name: z.string().min(1).max(255), text: z.string().max(1_000_000) }))
          .max(MAX_IMAGES)
          .optional(),
      }),
    )
    .mutation(({ ctx, input }) =>
      ctx.core.chat.send({
        text: input.text,
        ...(input.attachments?.length
          ? {
              attachments: input.attachments.map((a) => ({
                server: a.server,
                uri: a.uri,
                ...(a.name ? { name: a.name } : {}),
                ...(a.skill ? { skill: true as const } : {}),
              })),
            }
          : {}),
        ...(input.toolSet ? { toolSet: input.toolSet } : {}),
        ...(input.replaceFrom ? { replaceFrom: input.replaceFrom } : {}),
        ...(input.images?.length ? { images: input.images } : {}),
        ...(input.files?.length ? { files: input.files } : {}),
        ...(input.conversationId ? { conversationId: input.conversationId } : {}),
        ...(input.model ? { model: input.model } : {}),
        ...(input.workspace !== undefined ? { workspace: input.workspace } : {}),
        ...(input.codeMode !== undefined ? { codeMode: input.codeMode } : {}),
      }),
    ),

  /** The person's last message sent again, in place of itself and its answer. */
  regenerate: publicProcedure
    .input(
      z.object({ conversationId: Id, model: ModelSpec.optional(), toolSet: z.string().max(64).optional() }),
    )
    .mutation(({ ctx, input }) =>
      ctx.core.chat.regenerate({
        conversationId: input.conversationId,
        ...(input.model ? { model: input.model } : {}),
        ...(input.toolSet ? { toolSet: input.toolSet } : {}),
      }),
    ),

  /** The conversation as a file: Markdown to read, JSON to import again. */
  export: publicProcedure
    .input(z.object({ id: Id, format: z.enum(['markdown', 'json']) }))
    .query(({ ctx, input }) => ctx.core.chat.conversations.export(input.id, input.format)),

  /** A JSON export as a new conversation. */
  import: publicProcedure
    .input(z.object({ content: z.string().max(7_000_000) }))
    .mutation(({ ctx, input }) => ctx.core.chat.conversations.import(input.content)),

  cancel: publicProcedure
    .input(z.object({ conversationId: Id }))
    .mutation(({ ctx, input }) => ({ cancelled: ctx.core.chat.cancel(input.conversationId) })),

  rename: publicProcedure
    .input(z.object({ id: Id, title: z.string().max(500) }))
    .mutation(async ({ ctx, input }) => {
      await ctx.core.chat.conversations.rename(input.id, input.title);
      return { id: input.id };
    }),

  delete: publicProcedure.input(z.object({ id: Id })).mutation(async ({ ctx, input }) => {
    await ctx.core.chat.conversations.delete(input.id);
    return { deleted: input.id };
  }),

  setModel: publicProcedure
    .input(z.object({ conversationId: Id, model: ModelSpec }))
    .mutation(async ({ ctx, input }) => {
      await ctx.core.models.setModel(input.conversationId, input.model);
      return { model: input.model };
    }),

  /** Code mode on or off for this conversation (docs/code-mode.md), from its next turn. */
  setCodeMode: publicProcedure
    .input(z.object({ conversationId: Id, on: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      await ctx.core.models.setCodeMode(input.conversationId, input.on);
      return { codeMode: input.on };
    }),

  setWorkspace: publicProcedure
    .input(z.object({ conversationId: Id, workspace: z.string().max(4096).nullable() }))
    .mutation(async ({ ctx, input }) => {
      const workspace = input.workspace?.trim() || null;
      await ctx.core.chat.conversations.setWorkspace(input.conversationId, workspace);
      return { workspace };
    }),

  /**
   * The composer's tools control: what a conversation with this model, tool set and folder is offered, per
   * server, and whether its tools load on demand (agent/toolsOverview.ts). A folder's own servers count once
   * its sessions run (the conversation's first message starts them); asking starts nothing.
   */
  toolsOverview: publicProcedure
    .input(
      z.object({
        model: z.string().max(200).default(''),
        toolSet: z.string().max(200).optional(),
        workspace: z.string().max(4096).optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const provider = input.model.slice(0, input.model.indexOf(':'));
      const t = ctx.core.settings.current().deferredToolThreshold;
      return toolsOverview(ctx.core.tools, t, {
        ...(isProviderId(provider) ? { provider } : {}),
        ...(input.toolSet ? { toolSet: input.toolSet } : {}),
        ...(input.workspace?.trim()
          ? { workspace: await canonicalWorkspace(input.workspace.trim()).catch(() => undefined) }
          : {}),
      });
    }),

  /** Every ready server's prompts, as `/command`s for the composer. */
  prompts: publicProcedure.query(async ({ ctx }): Promise<SlashCommandView[]> =>
    (await ctx.core.prompts.commands()).map((c) => {
      const icon = ctx.core.iconOf(c.server, c.prompt.icons);
      return {
        command: c.command,
        server: c.server,
        name: c.prompt.name,
        ...(c.prompt.title ? { title: c.prompt.title } : {}),
        ...(c.prompt.description ? { description: c.prompt.description } : {}),
        arguments: (c.prompt.arguments ?? []).map((a) => ({
          name: a.name,
          ...(a.description ? { description: a.description } : {}),
          required: a.required === true,
        })),
        ...(icon ? { icon } : {}),
      };
    }),
  ),

  /** Suggestions for one argument of a prompt's form, given the arguments already filled in. */
  completePrompt: publicProcedure
    .input(
      z.object({
        server: z.string().min(1),
        name: z.string().min(1),
        argument: z.object({ name: z.string().min(1), value: z.string().max(8192) }),
        context: z.record(z.string(), z.string()).optional(),
      }),
    )
    .query(({ ctx, input }) =>
      ctx.core.prompts.complete(input.server, {
        name: input.name,
        argument: input.argument,
        ...(input.context ? { context: input.context } : {}),
      }),
    ),

  /** `prompts/get` with the form's arguments; the messages come back as text for the composer. */
  getPrompt: publicProcedure
    .input(
      z.object({
        server: z.string().min(1),
        name: z.string().min(1),
        arguments: z.record(z.string(), z.string()).default({}),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const result = await ctx.core.prompts.get(input.server, input.name, input.arguments);
      return {
        ...(result.description ? { description: result.description } : {}),
        messages: result.messages.map((m) => ({
          role: m.role,
          text:
            m.content.type === 'text'
              ? m.content.text
              : m.content.type === 'resource' && 'text' in m.content.resource
                ? String(m.content.resource.text)
                : `[${m.content.type} content]`,
        })),
      };
    }),
});
