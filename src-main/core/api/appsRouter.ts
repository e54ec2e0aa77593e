// MCP Apps (apps/appViews.ts): a door to the one service. The renderer opens a tool result's view, and
// relays what the view asks (call a tool, read a resource, message the chat, update the model's context,
// open a link) after its own checks of the message (src-renderer/src/components/apps/viewMessageGuard.ts).
import { z } from 'zod';
import { VIEW_PERMISSIONS } from '@shared/appViews';
import { publicProcedure, router } from './trpc';

const ViewId = z.string().uuid();
/** What a view may send as text: the transport's size cap is 1 MiB, so this never cuts a valid message. */
const ViewText = z.string().max(1_000_000);

export const appsRouter = router({
  /** Whether this host frames views, and on which origin. */
  sandbox: publicProcedure.query(({ ctx }) => ({ available: ctx.core.apps.available })),

  /** The view of a tool's result, read through the server's session; null when the tool has none. */
  open: publicProcedure
    .input(
      z.object({ server: z.string().min(1), tool: z.string().min(1), conversationId: z.string().optional() }),
    )
    .query(async ({ ctx, input }) => (await ctx.core.apps.open(input)) ?? null),

  callTool: publicProcedure
    .input(
      z.object({
        viewId: ViewId,
        name: z.string().min(1).max(256),
        arguments: z.record(z.string(), z.unknown()).default({}),
      }),
    )
    // Answers at once with a ticket; `appCallDone` on the live stream says when to take the outcome, so
    // a call waiting for approval holds no connection (apps/viewCallTickets.ts).
    .mutation(({ ctx, input }) => ctx.core.apps.startCall(input)),

  /** A view call's outcome, once (`done: false` while it runs); never waits. */
  takeCall: publicProcedure
    .input(z.object({ viewId: ViewId, ticket: z.string().uuid() }))
    .mutation(({ ctx, input }) => ctx.core.apps.calls.take(input.viewId, input.ticket)),

  readResource: publicProcedure
    .input(z.object({ viewId: ViewId, uri: z.string().min(1).max(4096) }))
    .mutation(({ ctx, input }) => ctx.core.apps.readResource(input)),

  message: publicProcedure
    .input(z.object({ viewId: ViewId, text: ViewText }))
    .mutation(async ({ ctx, input }) => {
      await ctx.core.apps.message(input);
      return {};
    }),

  updateContext: publicProcedure
    .input(z.object({ viewId: ViewId, text: ViewText }))
    .mutation(({ ctx, input }) => {
      ctx.core.apps.updateContext(input);
      return {};
    }),

  // Answers at once with a ticket, like callTool: the consent may wait minutes, and a view asking again
  // and again must not take the browser's connections to the host (apps/viewCallTickets.ts).
  openLink: publicProcedure
    .input(z.object({ viewId: ViewId, url: z.string().max(8192) }))
    .mutation(({ ctx, input }) => ctx.core.apps.startOpenLink(input)),

  /** The user's answer to what a server's views asked for (camera, microphone, geolocation, clipboard). */
  setPermissions: publicProcedure
    .input(z.object({ server: z.string().min(1), permissions: z.array(z.enum(VIEW_PERMISSIONS)) }))
    .mutation(({ ctx, input }) => {
      ctx.core.apps.setPermissions(input.server, input.permissions);
      return {};
    }),
});
