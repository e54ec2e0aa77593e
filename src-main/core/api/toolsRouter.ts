// Tool selection and the Tools playground (calls/toolService.ts): every tool with its flags and schema, and a
// call that walks the full path (catalog → safety → approval → session), exactly as the chat's calls do.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { publicProcedure, router } from './trpc';
import { callKey } from '@shared/toolCall';
import type { WireTool } from '@shared/wire';
import { toWireResult, toWireTool } from './wire';

export const toolsRouter = router({
  /** Every tool of every live session, enabled or not, in server order. */
  list: publicProcedure
    .input(z.object({ server: z.string().optional() }).default({}))
    .query(({ ctx, input }): WireTool[] =>
      ctx.core.tools.list(input.server).map((e) =>
        toWireTool(e, {
          off: ctx.core.tools.offReason(e),
          icon: ctx.core.iconOf(e.server, e.handle.definition.icons),
        }),
      ),
    ),

  /**
   * Calls one tool by its model name. The lifecycle events (requested → awaiting-approval → running →
   * done | failed | refused) arrive on `events.stream` under the same `id`, which the caller may choose.
   */
  run: publicProcedure
    .input(
      z.object({
        name: z.string().min(1),
        arguments: z.record(z.string(), z.unknown()).default({}),
        id: z.string().uuid().optional(),
      }),
    )
    .mutation(async ({ ctx, input, signal }) => {
      const outcome = await ctx.core.tools.call(input.name, input.arguments, {
        client: 'ui:playground',
        id: input.id ?? randomUUID(),
        ...(signal ? { signal } : {}),
      });
      return {
        id: outcome.id,
        decision: outcome.decision,
        arguments: outcome.arguments,
        result: toWireResult(outcome.result),
      };
    }),

  /** Accepts a changed tool as its server lists it now: its pin becomes this contract (safety/toolPins.ts). */
  acceptChange: publicProcedure
    .input(z.object({ name: z.string().min(1) }))
    .mutation(({ ctx, input }) => ctx.core.tools.acceptChange(input.name)),

  /**
   * Cancels the task a call runs as (its card's Cancel): `tasks/cancel` goes to the server, and the call
   * ends as cancelled. `cancelled` is false when no task of that call is being followed.
   */
  cancelTask: publicProcedure
    .input(z.object({ id: z.string().min(1), conversationId: z.string().optional() }))
    .mutation(({ ctx, input }) => ({ cancelled: ctx.core.tasks.cancel(callKey(input)) })),
});
