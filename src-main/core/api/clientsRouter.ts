// Detected clients (services/detectedClients.ts): the MCP configs of other apps on this machine, and the
// text of one of them for the import consent.
import { z } from 'zod';
import { publicProcedure, router } from './trpc';

export const clientsRouter = router({
  detect: publicProcedure.query(({ ctx }) => ctx.core.clients.detect()),
  locations: publicProcedure.query(({ ctx }) => ctx.core.clients.locations()),
  read: publicProcedure
    .input(z.object({ path: z.string().min(1).max(4096) }))
    .mutation(({ ctx, input }) => ctx.core.clients.read(input.path)),
});
