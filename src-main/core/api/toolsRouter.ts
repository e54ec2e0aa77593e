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
        caller: 'person',
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

  /**
   * Starts one call by its model name for a page (the Playground) and answers as soon as the call has
   * begun (its first lifecycle event), or with the error that kept it from starting (an unknown name, an
   * app-only tool). Everything after, the approval included, arrives on `events.stream` under the returned
   * `id`: a call waiting minutes for an answer holds no request, so in browser mode no number of waiting
   * calls can take the browser's six connections to the host (apps/viewCallTickets.ts says the same of a
   * view's calls). `run` above waits for the outcome, for scripts and tests.
   */
  start: publicProcedure
    .input(z.object({ name: z.string().min(1), arguments: z.record(z.string(), z.unknown()).default({}) }))
    .mutation(async ({ ctx, input }) => {
      const id = randomUUID();
      let begun!: () => void;
      const begins = new Promise<void>((resolve) => (begun = resolve));
      const outcome = ctx.core.tools.call(input.name, input.arguments, {
        client: 'ui:playground',
        caller: 'person',
        id,
        onPhase: () => begun(),
      });
      // After it begins, how the call ends is the stream's to tell.
      outcome.catch(() => undefined);
      await Promise.race([outcome, begins]);
      return { id };
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
