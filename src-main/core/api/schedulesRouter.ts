// Scheduled prompts (docs/schedules.md, "Schedules"): the Schedules screen's door to `core.schedules`. Every
// procedure is one call of the service; its events reach the screen through the one live stream.
import { ScheduleInputSchema, ScheduleWhenSchema } from '@shared/schedules';
import { z } from 'zod';
import { publicProcedure, router } from './trpc';

const Ref = z.object({ id: z.string().min(1) });

export const schedulesRouter = router({
  /** Every schedule with its next five times and its last run. */
  list: publicProcedure.query(({ ctx }) => ctx.core.schedules.list()),

  /** Which process runs schedules now (this one, another, or none). */
  status: publicProcedure.query(({ ctx }) => ctx.core.schedules.status()),

  /** The next five times a `when` gives: the form's preview, or a clear error. */
  preview: publicProcedure
    .input(z.object({ when: ScheduleWhenSchema }))
    .query(({ ctx, input }) => ctx.core.schedules.preview(input.when)),

  /** A schedule's runs, newest first. */
  history: publicProcedure.input(Ref).query(({ ctx, input }) => ctx.core.schedules.history(input.id)),

  add: publicProcedure.input(ScheduleInputSchema).mutation(({ ctx, input }) => ctx.core.schedules.add(input)),

  update: publicProcedure
    .input(z.object({ id: z.string().min(1), schedule: ScheduleInputSchema }))
    .mutation(({ ctx, input }) => ctx.core.schedules.update(input.id, input.schedule)),

  remove: publicProcedure.input(Ref).mutation(({ ctx, input }) => ctx.core.schedules.remove(input.id)),

  setPaused: publicProcedure
    .input(z.object({ id: z.string().min(1), paused: z.boolean() }))
    .mutation(({ ctx, input }) => ctx.core.schedules.setPaused(input.id, input.paused)),

  /** Starts a run now; it goes on after the answer (the history shows it). */
  runNow: publicProcedure.input(Ref).mutation(({ ctx, input }) => ctx.core.schedules.runNow(input.id)),

  cancel: publicProcedure.input(Ref).mutation(({ ctx, input }) => ctx.core.schedules.cancel(input.id)),
});
