// The Chat screen's side of the router (issue 5 "Chat", issue 6): conversations (list, search, load,
// rename, delete), a turn started server-side (`send`; its ChatEvents arrive on `events`, tagged by
// conversation), cancel, the model and project folder of a conversation, and prompts as slash commands.
import type { SlashCommandView } from '@shared/wire';
import { z } from 'zod';
import { getPrompt, slashCommands } from '../clientFeatures';
import { MooringError } from '../errors';
import { chatServiceFor } from '../agent/chatService';
import { publicProcedure, router } from './trpc';

const Id = z.string().min(1).max(100);
const ModelSpec = z.string().min(3).max(200);

export const chatRouter = router({
  conversations: publicProcedure.query(async ({ ctx }) => {
    const chat = chatServiceFor(ctx.core);
    return (await chat.store.list()).map((c) => ({ ...c, running: chat.isRunning(c.id) }));
  }),

  search: publicProcedure.input(z.object({ query: z.string().max(200) })).query(async ({ ctx, input }) => {
    const chat = chatServiceFor(ctx.core);
    return (await chat.store.search(input.query)).map((c) => ({ ...c, running: chat.isRunning(c.id) }));
  }),

  /** One conversation with every message; it becomes the active one (its folder is the MCP root). */
  load: publicProcedure.input(z.object({ id: Id })).query(async ({ ctx, input }) => {
    const chat = chatServiceFor(ctx.core);
    const loaded = await chat.store.load(input.id);
    await chat.open(input.id, loaded.summary.workspace);
    return {
      ...loaded,
      running: chat.isRunning(input.id),
      model: await chat.modelOf(input.id),
    };
  }),

  /** The model a new conversation starts with. */
  defaultModel: publicProcedure.query(({ ctx }) => chatServiceFor(ctx.core).defaultModel()),

  send: publicProcedure
    .input(
      z.object({
        conversationId: Id.optional(),
        text: z.string().max(200_000),
        model: ModelSpec.optional(),
        workspace: z.string().max(4096).nullable().optional(),
        toolSet: z.string().max(64).optional(),
      }),
    )
    .mutation(({ ctx, input }) =>
      chatServiceFor(ctx.core).send({
        text: input.text,
        ...(input.toolSet ? { toolSet: input.toolSet } : {}),
        ...(input.conversationId ? { conversationId: input.conversationId } : {}),
        ...(input.model ? { model: input.model } : {}),
        ...(input.workspace !== undefined ? { workspace: input.workspace } : {}),
      }),
    ),

  cancel: publicProcedure
    .input(z.object({ conversationId: Id }))
    .mutation(({ ctx, input }) => ({ cancelled: chatServiceFor(ctx.core).cancel(input.conversationId) })),

  rename: publicProcedure
    .input(z.object({ id: Id, title: z.string().max(500) }))
    .mutation(async ({ ctx, input }) => {
      await chatServiceFor(ctx.core).store.rename(input.id, input.title);
      return { id: input.id };
    }),

  delete: publicProcedure.input(z.object({ id: Id })).mutation(async ({ ctx, input }) => {
    await chatServiceFor(ctx.core).delete(input.id);
    return { deleted: input.id };
  }),

  setModel: publicProcedure
    .input(z.object({ conversationId: Id, model: ModelSpec }))
    .mutation(async ({ ctx, input }) => {
      await chatServiceFor(ctx.core).setModel(input.conversationId, input.model);
      return { model: input.model };
    }),

  setWorkspace: publicProcedure
    .input(z.object({ conversationId: Id, workspace: z.string().max(4096).nullable() }))
    .mutation(async ({ ctx, input }) => {
      const workspace = input.workspace?.trim() || null;
      await chatServiceFor(ctx.core).setWorkspace(input.conversationId, workspace);
      return { workspace };
    }),

  /** Every ready server's prompts, as `/command`s for the composer. */
  prompts: publicProcedure.query(async ({ ctx }): Promise<SlashCommandView[]> =>
    (await slashCommands(ctx.core.pool.list())).map((c) => ({
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
    })),
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
      const session = ctx.core.pool.get(input.server);
      if (!session)
        throw new MooringError(
          'not_found',
          `No server named "${input.server}" is running`,
          'Check Settings > MCP servers',
        );
      const result = await getPrompt(session, input.name, input.arguments);
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
