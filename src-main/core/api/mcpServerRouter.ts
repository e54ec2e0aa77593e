// Mooring as an MCP server, started from the UI (issue 8): Streamable HTTP on 127.0.0.1 with a bearer
// token shown once, for another client (Claude Desktop, Cursor, VS Code, a script) to connect to.
// Approvals its clients need appear in this app's dialog (the same core, the same broker).
import { z } from 'zod';
import { FULL_SCOPE } from '../serve/clientScope';
import { startMcpHttpServer, type McpHttpServer } from '../serve/httpServer';
import { generateToken } from '../serve/serverTokens';
import type { MooringCore } from '../mooringCore';
import { publicProcedure, router } from './trpc';

const running = new WeakMap<MooringCore, { server: McpHttpServer; label: string; readOnly: boolean }>();

export const mcpServerRouter = router({
  status: publicProcedure.query(({ ctx }) => {
    const r = running.get(ctx.core);
    return r
      ? {
          running: true as const,
          url: r.server.url,
          label: r.label,
          readOnly: r.readOnly,
          clients: r.server.sessions(),
        }
      : { running: false as const };
  }),

  start: publicProcedure
    .input(
      z.object({
        port: z.number().int().min(0).max(65535).default(0),
        label: z.string().min(1).max(64).default('ui'),
        readOnly: z.boolean().default(false),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const old = running.get(ctx.core);
      if (old) await old.server.close();
      const token = generateToken();
      const server = await startMcpHttpServer({
        core: ctx.core,
        port: input.port,
        tokens: [{ label: input.label, token, scope: input.readOnly ? { readOnly: true } : FULL_SCOPE }],
      });
      running.set(ctx.core, { server, label: input.label, readOnly: input.readOnly });
      // The token is returned once, here; it is never stored or sent again.
      return { url: server.url, token, label: input.label };
    }),

  stop: publicProcedure.mutation(async ({ ctx }) => {
    const r = running.get(ctx.core);
    running.delete(ctx.core);
    await r?.server.close();
    return { running: false };
  }),
});

/** Stops the UI-started MCP server of this core, if any (the host calls it on shutdown). */
export async function stopMcpServerFor(core: MooringCore): Promise<void> {
  const r = running.get(core);
  running.delete(core);
  await r?.server.close();
}
