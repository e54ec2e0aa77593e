// Mooring as an MCP server, started from the UI (serve/sharing.ts): Streamable HTTP on 127.0.0.1 with
// a bearer token shown once, for another client to connect to.
import { z } from 'zod';
import { publicProcedure, router } from './trpc';

export const sharingRouter = router({
  status: publicProcedure.query(({ ctx }) => ctx.core.sharing.status()),

  /** The stdio entry for Claude Desktop, Cursor and the like, with this install's absolute paths. */
  clientEntry: publicProcedure.query(({ ctx }) => ctx.core.sharing.clientEntry()),

  start: publicProcedure
    .input(
      z.object({
        port: z.number().int().min(0).max(65535).default(0),
        label: z.string().min(1).max(64).default('ui'),
        readOnly: z.boolean().default(false),
      }),
    )
    .mutation(({ ctx, input }) => ctx.core.sharing.start(input)),

  stop: publicProcedure.mutation(async ({ ctx }) => {
    await ctx.core.sharing.stop();
    return { running: false };
  }),
});
