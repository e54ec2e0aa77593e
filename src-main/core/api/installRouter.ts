// Installing servers (core/install/): the registry's search, an install plan for consent (a registry name,
// a pasted install link, or a link the desktop shell received into the inbox), and the install of a plan
// the user consented to, with the values it asked for. Every install goes through `core.install`, which
// saves through `core.servers.add` like any other add.
import { z } from 'zod';
import { publicProcedure, router } from './trpc';

const Inputs = z.record(z.string().max(200), z.string().max(8192)).default({});

export const installRouter = router({
  /** Install links the desktop shell received, waiting for the user's decision. */
  pending: publicProcedure.query(({ ctx }) => ctx.core.installLinks.pending()),
  dismiss: publicProcedure
    .input(z.object({ id: z.string().min(1) }))
    .mutation(({ ctx, input }) => ({ dismissed: ctx.core.installLinks.dismiss(input.id) })),

  search: publicProcedure
    .input(
      z.object({
        query: z.string().max(200).default(''),
        cursor: z.string().max(2048).optional(),
        limit: z.number().int().min(1).max(100).optional(),
      }),
    )
    .query(({ ctx, input }) => ctx.core.install.search(input)),

  /** A registry name (optionally @version), or a pasted install link: what the consent shows. */
  plan: publicProcedure
    .input(
      z.object({
        ref: z.string().min(1).max(32_768),
        name: z.string().max(64).optional(),
        option: z.number().int().min(1).max(64).optional(),
      }),
    )
    .mutation(({ ctx, input }) =>
      ctx.core.install.plan(input.ref, {
        ...(input.name ? { name: input.name } : {}),
        ...(input.option ? { option: input.option } : {}),
      }),
    ),

  /** The plan of a link waiting in the inbox. */
  planOffer: publicProcedure
    .input(z.object({ id: z.string().min(1) }))
    .mutation(({ ctx, input }) => ctx.core.install.plan(ctx.core.installLinks.linkOf(input.id))),

  install: publicProcedure
    .input(z.object({ id: z.string().min(1), inputs: Inputs, name: z.string().max(64).optional() }))
    .mutation(({ ctx, input }) =>
      ctx.core.install.install(input.id, {
        inputs: input.inputs,
        ...(input.name ? { name: input.name } : {}),
      }),
    ),

  decline: publicProcedure
    .input(z.object({ id: z.string().min(1) }))
    .mutation(({ ctx, input }) => ({ declined: ctx.core.install.decline(input.id) })),
});
