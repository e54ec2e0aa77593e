// Named tool sets ("agents", issue 3 and 5): a selection of tools across servers, kept in settings.json.
import { SettingsSchema } from '@shared/settings';
import { z } from 'zod';
import { SettingsStore } from '../config/settings';
import { publicProcedure, router } from './trpc';

const ToolSetInput = SettingsSchema.shape.toolSets.unwrap().element;

export const toolSetsRouter = router({
  list: publicProcedure.query(({ ctx }) => ctx.core.settings().toolSets),

  save: publicProcedure.input(ToolSetInput).mutation(async ({ ctx, input }) => {
    await SettingsStore.forHome(ctx.core.paths.home).update((s) => ({
      ...s,
      toolSets: [...s.toolSets.filter((t) => t.name !== input.name), input],
    }));
    await ctx.core.reloadSettings();
    return ctx.core.settings().toolSets;
  }),

  remove: publicProcedure.input(z.object({ name: z.string() })).mutation(async ({ ctx, input }) => {
    ctx.core.toolSet(input.name); // not_found, naming the sets there are
    await SettingsStore.forHome(ctx.core.paths.home).update((s) => ({
      ...s,
      toolSets: s.toolSets.filter((t) => t.name !== input.name),
    }));
    await ctx.core.reloadSettings();
    return ctx.core.settings().toolSets;
  }),
});
