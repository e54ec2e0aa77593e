// Named tool sets: a selection of tools across servers, kept in settings.json
// (config/settingsService.ts).
import { SettingsSchema } from '@shared/settings';
import { z } from 'zod';
import { publicProcedure, router } from './trpc';

const ToolSetInput = SettingsSchema.shape.toolSets.unwrap().element;

export const toolSetsRouter = router({
  list: publicProcedure.query(({ ctx }) => ctx.core.settings.toolSets()),

  save: publicProcedure
    .input(ToolSetInput)
    .mutation(({ ctx, input }) => ctx.core.settings.saveToolSet(input)),

  remove: publicProcedure
    .input(z.object({ name: z.string() }))
    .mutation(({ ctx, input }) => ctx.core.settings.removeToolSet(input.name)),
});
