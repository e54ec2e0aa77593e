// The Skills screen (skills/skillsService.ts, docs/skills.md): each server's skills with their approvals,
// one skill as it is now, a verified file to inspect (not a load), approving a manifest and revoking.
import { z } from 'zod';
import { SkillApproveInputSchema } from '@shared/skills';
import { publicProcedure, router } from './trpc';

const Server = z.string().min(1).max(64);
const Uri = z.string().min(1).max(8192);

export const skillsRouter = router({
  servers: publicProcedure
    .input(z.object({ refresh: z.boolean().optional() }).optional())
    .query(({ ctx, input }) => ctx.core.skills.servers(input?.refresh ? { refresh: true } : {})),

  skill: publicProcedure
    .input(z.object({ server: Server, uri: Uri }))
    .query(({ ctx, input }) => ctx.core.skills.skill(input.server, input.uri)),

  file: publicProcedure
    .input(z.object({ server: Server, uri: Uri, file: z.string().max(8192).optional() }))
    .mutation(({ ctx, input }) => ctx.core.skills.inspect(input.server, input.uri, input.file)),

  approve: publicProcedure
    .input(SkillApproveInputSchema)
    .mutation(({ ctx, input }) => ctx.core.skills.approve({ ...input, decidedBy: 'user:ui' })),

  revoke: publicProcedure
    .input(z.object({ server: Server, uri: Uri.optional() }))
    .mutation(async ({ ctx, input }) => ({
      revoked: await ctx.core.skills.revoke(input.server, input.uri, 'user:ui'),
    })),
});
