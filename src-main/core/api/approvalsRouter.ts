// The approval dialog's side of the broker (safety/approvalBroker.ts): what waits, and the user's answer.
import { z } from 'zod';
import { ApprovalOutcomeSchema } from '@shared/approval';
import { publicProcedure, router } from './trpc';

export const approvalsRouter = router({
  pending: publicProcedure.query(({ ctx }) => ctx.core.approvals.pending()),

  answer: publicProcedure
    .input(
      z.object({
        id: z.string().min(1),
        outcome: ApprovalOutcomeSchema,
        /** The arguments as edited in the dialog; absent means "as requested". */
        arguments: z.record(z.string(), z.unknown()).optional(),
        /** Also allow the request's flow's pairs of servers from now on (docs/trust.md). */
        allowFlow: z.boolean().optional(),
        /** Also grant the skill's allowed-tools (a request with `skillTools` only; docs/skills.md). */
        grantSkillTools: z.boolean().optional(),
      }),
    )
    .mutation(({ ctx, input }) => {
      ctx.core.approvals.answer(input.id, {
        outcome: input.outcome,
        decidedBy: 'user:ui',
        ...(input.arguments ? { arguments: input.arguments } : {}),
        ...(input.allowFlow ? { allowFlow: true } : {}),
        ...(input.grantSkillTools ? { grantSkillTools: true } : {}),
      });
      return { id: input.id, outcome: input.outcome };
    }),
});
