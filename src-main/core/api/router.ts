// The one typed router between the core and any UI (ARCHITECTURE.md, the `api/` room). Hosts: the Electron main
// process (over IPC, src-main/electron) and browser mode (HTTP + SSE, ./web). The renderer imports
// only the `AppRouter` type.
import { approvalsRouter } from './approvalsRouter';
import { appsRouter } from './appsRouter';
import { chatRouter } from './chatRouter';
import { clientsRouter } from './clientsRouter';
import { confinementRouter } from './confinementRouter';
import { uiEvents } from './eventStream';
import { installRouter } from './installRouter';
import { interactionsRouter } from './interactionsRouter';
import { authRouter } from './authRouter';
import { workspaceRouter } from './workspaceRouter';
import { toolSetsRouter } from './toolSetsRouter';
import { sharingRouter } from './sharingRouter';
import { permissionsRouter } from './permissionsRouter';
import { schedulesRouter } from './schedulesRouter';
import { serversRouter } from './serversRouter';
import { modelsRouter } from './modelsRouter';
import { resourcesRouter } from './resourcesRouter';
import { skillsRouter } from './skillsRouter';
import { toolsRouter } from './toolsRouter';
import { publicProcedure, router } from './trpc';
import { z } from 'zod';
import { LIMIT_KEYS } from '@shared/limitSettings';
import { THEMES } from '@shared/settings';

export const appRouter = router({
  servers: serversRouter,
  auth: authRouter,
  workspace: workspaceRouter,
  toolSets: toolSetsRouter,
  /** Sharing: Mooring as an MCP server started from the app (`mooring serve` at a terminal). */
  sharing: sharingRouter,
  tools: toolsRouter,
  approvals: approvalsRouter,
  permissions: permissionsRouter,
  /** Other apps' MCP configs found on this machine. */
  clients: clientsRouter,
  chat: chatRouter,
  /** Scheduled prompts: the Schedules screen. */
  schedules: schedulesRouter,
  interactions: interactionsRouter,
  resources: resourcesRouter,
  /** Skills servers publish (Skills extension): list, inspect, approve, revoke (docs/skills.md). */
  skills: skillsRouter,
  /** mooring:// (and Cursor / VS Code) install links waiting for the user's consent. */
  install: installRouter,
  /** MCP Apps: interactive views of tool results, sandboxed. */
  apps: appsRouter,
  /** What each local server may touch and what it was refused; the managed policy. */
  confinement: confinementRouter,
  /** Settings > Models: the default model, providers, keys (the root `settings` query is all of settings.json). */
  models: modelsRouter,

  /** Diagnostics: per-server metrics now, state transitions and metric samples since the host started. */
  diagnostics: publicProcedure.query(({ ctx }) =>
    ctx.core.servers.statuses().map((status) => ({ status, history: ctx.history.get(status.name) })),
  ),

  /**
   * Settings > Limits: one limit a message may name (shared/limitSettings.ts), checked against the settings
   * schema before it is written; null puts it back to its default (or unsets it).
   */
  setLimit: publicProcedure
    .input(z.object({ key: z.enum(LIMIT_KEYS), value: z.union([z.number(), z.string()]).nullable() }))
    .mutation(({ ctx, input }) => ctx.core.settings.set(input.key, input.value ?? undefined)),

  /** Settings > Appearance: the app's colours (system, light, dark), saved in settings.json. */
  setTheme: publicProcedure
    .input(z.object({ theme: z.enum(THEMES) }))
    .mutation(async ({ ctx, input }) => (await ctx.core.settings.set('theme', input.theme)).theme),

  /** Mooring's settings as the UI needs them (YOLO is shown loudly while on). */
  settings: publicProcedure.query(({ ctx }) => {
    const s = ctx.core.settings.current();
    // The managed policy may keep YOLO off whatever settings.json says (docs/managed-policy.md).
    return s.yolo && !ctx.core.confinement.allowsYolo() ? { ...s, yolo: false } : s;
  }),

  /** Every live change, merged into one stream (see eventStream.ts for why one). */
  events: publicProcedure.subscription(({ ctx, signal }) => uiEvents(ctx.core, signal)),
});

export type AppRouter = typeof appRouter;
export type { ApiContext } from './context';
export { createApiContext } from './context';
