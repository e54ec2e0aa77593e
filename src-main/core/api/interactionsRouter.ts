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
});
