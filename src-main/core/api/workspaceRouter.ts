// Project folders in the app: what a folder's .mooring, .vscode, .cursor and .mcp.json files
// offer, each with its full command line, what else it may do and what is held back (the import's rule,
// config/importConsent.ts), and approval (pinned to the entry's content; VS Code inputs are
// asked here and kept in the keychain). Nothing from a workspace file runs until it is approved.
import { z } from 'zod';
import { describeVariable } from '@shared/importConsent';
import { MooringError } from '../errors';
import { describeWorkspaceErrors } from '../workspace/workspaceServers';
import { publicProcedure, router } from './trpc';

export const workspaceRouter = router({
  scan: publicProcedure.input(z.object({ dir: z.string().min(1) })).query(async ({ ctx, input }) => {
    const scan = await ctx.core.workspaces.scan(input.dir);
    return {
      workspace: scan.workspace,
      servers: scan.servers.map((s) => ({
        name: s.name,
        source: s.source,
        file: s.file,
        status: s.status,
        commandLine: s.commandLine,
        approvedCommandLine: s.approvedCommandLine,
        confinement: s.confinement,
        grants: s.grants.map((g) => g.text),
        heldBack: s.heldBack.map((d) => d.text),
        heldBackAllowed: s.heldBackAllowed,
        /** Every variable and where its value goes; a held one has a checkbox that allows it. */
        variables: s.variables.map((v) => ({ ...v, text: describeVariable(v) })),
        /** The content shown: `approve` refuses an entry edited since. */
        pin: s.pin,
        inputs: s.inputs.map((i) => ({ id: i.id, description: i.description, password: i.password })),
        warnings: s.warnings,
      })),
      shadowed: scan.shadowed,
      errors: describeWorkspaceErrors(scan.errors),
    };
  }),

  approve: publicProcedure
    .input(
      z.object({
        dir: z.string().min(1),
        name: z.string(),
        inputs: z.record(z.string(), z.string()).default({}),
        /** Also allow what the entry asks beyond an import (its `heldBack`); only on the person's explicit yes. */
        allowHeldBack: z.boolean().default(false),
        /** Secret-looking variables the person ticked for this server's remote URL or headers. */
        allowVariables: z.array(z.string().max(200)).max(100).default([]),
        /** The scan's `pin` of what the person reviewed. */
        pin: z.string().optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      await ctx.core.workspaces.approve(input.dir, input.name, {
        allowHeldBack: input.allowHeldBack,
        allowVariables: input.allowVariables,
        ...(input.pin !== undefined ? { pin: input.pin } : {}),
        ask: async (asked) => {
          const value = input.inputs[asked.id];
          if (value === undefined || value === '')
            throw new MooringError(
              'usage',
              `"${input.name}" needs a value for ${asked.description ?? asked.id}`,
              'Fill in every field, then approve again.',
            );
          return value;
        },
      });
      return { approved: input.name };
    }),
});
