// The Permissions screen (services/permissions.ts): every standing permission, and taking one (or all) back.
import { z } from 'zod';
import type { Revocation } from '@shared/permissions';
import { publicProcedure, router } from './trpc';

const RevocationSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('tool'), server: z.string(), tool: z.string().optional() }),
  z.object({ kind: z.literal('server'), server: z.string() }),
  z.object({
    kind: z.literal('conversation'),
    conversationId: z.string(),
    server: z.string().optional(),
    tool: z.string().optional(),
  }),
  z.object({ kind: z.literal('workspace'), workspace: z.string(), source: z.string(), name: z.string() }),
  z.object({ kind: z.literal('signIn'), server: z.string() }),
  z.object({ kind: z.literal('flow'), from: z.string(), to: z.string().optional() }),
  z.object({ kind: z.literal('skill'), server: z.string(), uri: z.string().optional() }),
  z.object({ kind: z.literal('all') }),
]);

export const permissionsRouter = router({
  list: publicProcedure.query(({ ctx }) => ctx.core.permissions.list()),
  revoke: publicProcedure
    .input(RevocationSchema)
    .mutation(({ ctx, input }) => ctx.core.permissions.revoke(input as Revocation)),
});
