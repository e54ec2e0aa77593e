// Install links waiting for the user (core/install/installLinkInbox.ts): the consent screen lists them and
// dismisses each once the user decided. Installing goes through the servers router like any other add.
import { z } from 'zod';
import { publicProcedure, router } from './trpc';

export const installRouter = router({
  pending: publicProcedure.query(({ ctx }) => ctx.core.installLinks.pending()),
  dismiss: publicProcedure
    .input(z.object({ id: z.string().min(1) }))
    .mutation(({ ctx, input }) => ({ dismissed: ctx.core.installLinks.dismiss(input.id) })),
});
