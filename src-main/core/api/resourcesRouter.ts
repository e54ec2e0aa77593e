// A server's resources in the app (clientFeatures/resourcesService.ts): what each server offers, its
// resources and templates, a read (a template expanded with its variables first, or only expanded for the
// composer to attach: `expand`), subscriptions (their updates arrive on `events` as `resourceUpdated`), and
// completions for a template's variables.
import { z } from 'zod';
import { publicProcedure, router } from './trpc';

const Server = z.string().min(1).max(64);
const Uri = z.string().min(1).max(8192);
const On = z.object({ server: Server, uri: Uri });

export const resourcesRouter = router({
  servers: publicProcedure.query(({ ctx }) => ctx.core.resources.servers()),

  list: publicProcedure
    .input(z.object({ server: Server }))
    .query(({ ctx, input }) => ctx.core.resources.list(input.server)),

  templates: publicProcedure
    .input(z.object({ server: Server }))
    .query(({ ctx, input }) => ctx.core.resources.templates(input.server)),

  read: publicProcedure
    .input(On)
    .mutation(({ ctx, input }) => ctx.core.resources.read(input.server, input.uri)),

  /** Fills a template's variables and reads the URI it makes; answers with that URI too. */
  readTemplate: publicProcedure
    .input(
      z.object({
        server: Server,
        uriTemplate: Uri,
        variables: z.record(z.string(), z.string().max(8192)),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const uri = ctx.core.resources.expand(input.uriTemplate, input.variables);
      return { uri, contents: await ctx.core.resources.read(input.server, uri) };
    }),

  /** The URI a template makes with these variables, without reading it (the composer attaches it). */
  expand: publicProcedure
    .input(z.object({ uriTemplate: Uri, variables: z.record(z.string(), z.string().max(8192)) }))
    .mutation(({ ctx, input }) => ({ uri: ctx.core.resources.expand(input.uriTemplate, input.variables) })),

  subscribe: publicProcedure.input(On).mutation(async ({ ctx, input }) => {
    await ctx.core.resources.subscribe(input.server, input.uri);
    return { subscribed: input.uri };
  }),

  unsubscribe: publicProcedure.input(On).mutation(async ({ ctx, input }) => {
    await ctx.core.resources.unsubscribe(input.server, input.uri);
    return { unsubscribed: input.uri };
  }),

  /** Suggestions for one variable of a template, given the others already chosen. */
  complete: publicProcedure
    .input(
      z.object({
        server: Server,
        uriTemplate: Uri,
        argument: z.object({ name: z.string().min(1), value: z.string().max(8192) }),
        context: z.record(z.string(), z.string()).optional(),
      }),
    )
    .query(({ ctx, input }) =>
      ctx.core.resources.complete(input.server, {
        ref: { type: 'ref/resource', uri: input.uriTemplate },
        argument: input.argument,
        ...(input.context ? { context: input.context } : {}),
      }),
    ),
});
