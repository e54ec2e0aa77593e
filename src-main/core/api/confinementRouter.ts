// A server's confinement (core.confinement; docs/confinement.md): what it may touch and what it was
// refused, the one-click "allow this path / this host", the "Run confined" switch, running it unconfined
// where confinement cannot run, and the managed policy the app shows under "Managed by".
import { z } from 'zod';
import { publicProcedure, router } from './trpc';

const Name = z.object({ name: z.string() });

export const confinementRouter = router({
  show: publicProcedure.input(Name).query(({ ctx, input }) => ctx.core.confinement.show(input.name)),

  /** Widens what it may write or reach; the running server restarts with it. */
  allow: publicProcedure
    .input(
      z.object({
        name: z.string(),
        write: z.array(z.string()).max(50).optional(),
        domain: z.array(z.string()).max(50).optional(),
      }),
    )
    .mutation(({ ctx, input }) =>
      ctx.core.confinement.allow(input.name, {
        ...(input.write ? { write: input.write } : {}),
        ...(input.domain ? { domain: input.domain } : {}),
      }),
    ),

  setConfined: publicProcedure
    .input(z.object({ name: z.string(), on: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      await ctx.core.confinement.setConfined(input.name, input.on);
      return { name: input.name, on: input.on };
    }),

  /** Where confinement cannot run here, start it unconfined (the user's choice for this server). */
  runUnconfinedHere: publicProcedure
    .input(z.object({ name: z.string(), on: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      await ctx.core.confinement.runUnconfinedWhereUnavailable(input.name, input.on);
      return { name: input.name, on: input.on };
    }),

  /** The managed policy: who manages it and each rule, for the app's "Managed by" panel and locked settings. */
  policy: publicProcedure.query(({ ctx }) => ctx.core.confinement.policyView()),
});
