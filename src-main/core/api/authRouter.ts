// Sign in to remote servers with OAuth from the UI (auth/authService.ts). `begin` returns the
// authorization URL and its host as soon as the core has them; the UI shows the host and opens the URL
// only after the user agrees. The flow finishes in the background on the loopback callback; the
// server's session restarts and its status event tells the UI.
import { z } from 'zod';
import { publicProcedure, router } from './trpc';

const Name = z.object({ name: z.string() });

export const authRouter = router({
  state: publicProcedure.input(Name).query(({ ctx, input }) => ctx.core.auth.state(input.name)),
  begin: publicProcedure.input(Name).mutation(({ ctx, input }) => ctx.core.auth.begin(input.name)),
  signOut: publicProcedure.input(Name).mutation(({ ctx, input }) => ctx.core.auth.signOut(input.name)),
});
