// The interaction dialogs' side of the client-features broker: what servers ask (sampling approval, a
// form, a link to open) and the user's answer, validated by the broker with the shared schemas (an
// invalid form keeps the request open and comes back as a usage error).
import { z } from 'zod';
import { InteractionAnswerSchema } from '@shared/interactions';
import { publicProcedure, router } from './trpc';

export const interactionsRouter = router({
  pending: publicProcedure.query(({ ctx }) => ctx.core.interactions.pending()),

  answer: publicProcedure
    .input(z.object({ id: z.string().min(1), answer: InteractionAnswerSchema }))
    .mutation(({ ctx, input }) => {
      ctx.core.interactions.answer(input.id, input.answer);
      return { id: input.id };
    }),

  /**
   * A call waits for a browser flow (-32042): the person says it is done (the server's notice may never
   * come; MCP 2025-11-25 "Elicitation" asks for manual controls), or stops waiting.
   */
  finishUrlFlow: publicProcedure
    .input(z.object({ server: z.string().min(1), elicitationId: z.string().min(1) }))
    .mutation(({ ctx, input }) => ({
      finished: ctx.core.urlElicitations.complete(input.server, input.elicitationId, 'user'),
    })),
  abandonUrlFlow: publicProcedure
    .input(z.object({ server: z.string().min(1), elicitationId: z.string().min(1) }))
    .mutation(({ ctx, input }) => ({
      abandoned: ctx.core.urlElicitations.abandon(input.server, input.elicitationId),
    })),
});
