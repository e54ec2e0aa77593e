// The Servers, Tools and Logs screens (services/configuredServers.ts): the server list with live state,
// add/edit/remove, enable, test, refresh, restart, logs, the default log level and traffic recording, tool filters, and import
// from Claude Desktop / Cursor / VS Code / Zed files with consent.
import { z } from 'zod';
import { ServerNameSchema, type ServerConfigInput } from '@shared/config';
import { LogLevelSchema } from '@shared/settings';
import { publicProcedure, router } from './trpc';

/**
 * A server entry as the form sends it. The shape is checked here only loosely (an object with a
 * name): the core validates it with ServerConfigSchema and its MooringError names every bad field,
 * which the form shows next to the field.
 */
const ServerInput = z.custom<ServerConfigInput>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  'a server entry must be a JSON object',
);
const Name = z.object({ name: z.string() });

export const serversRouter = router({
  list: publicProcedure.query(({ ctx }) => ctx.core.servers.rows()),

  // Every new server starts with the default safe set (read-only tools on, destructive ones off).
  add: publicProcedure.input(ServerInput).mutation(({ ctx, input }) => ctx.core.servers.add(input)),

  update: publicProcedure
    .input(z.object({ name: ServerNameSchema, config: ServerInput }))
    .mutation(({ ctx, input }) => ctx.core.servers.update(input.name, input.config)),

  remove: publicProcedure.input(Name).mutation(async ({ ctx, input }) => {
    await ctx.core.servers.remove(input.name);
    return { removed: input.name };
  }),

  setEnabled: publicProcedure
    .input(z.object({ name: z.string(), enabled: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      await ctx.core.servers.setEnabled(input.name, input.enabled);
      return { name: input.name, enabled: input.enabled };
    }),

  /** The handshake on a throwaway session; typed secrets are used for this test only, nothing is written. */
  test: publicProcedure
    .input(ServerInput)
    .mutation(({ ctx, input }) => ctx.core.servers.connections.test(input)),

  refresh: publicProcedure
    .input(Name)
    .mutation(({ ctx, input }) => ctx.core.servers.sessions.refresh(input.name)),

  /** Retry: a fresh session for a server (a failed one, once its cause is fixed). */
  restart: publicProcedure
    .input(Name)
    .mutation(({ ctx, input }) => ctx.core.servers.sessions.restart(input.name)),

  logs: publicProcedure.input(Name).query(({ ctx, input }) => ctx.core.servers.logs(input.name)),

  /** Whether the Logs view records this server's JSON-RPC traffic; turned on and off on request. */
  traceState: publicProcedure
    .input(Name)
    .query(({ ctx, input }) => ctx.core.servers.sessions.tracing(input.name)),
  setTrace: publicProcedure
    .input(z.object({ name: z.string(), on: z.boolean() }))
    .mutation(({ ctx, input }) => ctx.core.servers.sessions.setTracing(input.name, input.on)),

  /**
   * The level every server logs at unless its config names its own (settings.logLevel, one of the eight
   * MCP levels); the running sessions take it at once. The root `settings` query reads it.
   */
  setDefaultLogLevel: publicProcedure
    .input(z.object({ level: LogLevelSchema }))
    .mutation(async ({ ctx, input }) => ({
      level: (await ctx.core.settings.setLogLevel(input.level)).logLevel,
    })),

  /** The include/exclude toggles of Tool selection; enabling also ends a new tool's quarantine. */
  setToolEnabled: publicProcedure
    .input(z.object({ server: z.string(), tool: z.string(), enabled: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      await ctx.core.servers.setToolEnabled(input.server, input.tool, input.enabled);
      return { server: input.server, tool: input.tool, enabled: input.enabled };
    }),

  /** Parses a pasted or chosen config file and shows what would be added, with each command line. */
  previewImport: publicProcedure
    .input(z.object({ text: z.string().max(2_000_000), fileName: z.string().default('pasted text') }))
    .mutation(({ ctx, input }) => ctx.core.servers.previewImport(input.text, input.fileName)),

  /** Adds the servers of the file the user consented to, all or nothing. */
  importServers: publicProcedure
    .input(
      z.object({
        text: z.string().max(2_000_000),
        fileName: z.string().default('pasted text'),
        names: z.array(z.string()).min(1).max(200),
        /** Values of the file's VS Code inputs, kept in the keychain. */
        inputValues: z.record(z.string().max(200), z.string().max(8192)).optional(),
        /** Per server: the secret-looking variables the person ticked for its remote URL or headers. */
        allowVariables: z.record(z.string().max(200), z.array(z.string().max(200)).max(100)).optional(),
      }),
    )
    .mutation(({ ctx, input }) =>
      ctx.core.servers.import({
        text: input.text,
        fileName: input.fileName,
        names: input.names,
        ...(input.inputValues ? { inputValues: input.inputValues } : {}),
        ...(input.allowVariables ? { allowVariables: input.allowVariables } : {}),
      }),
    ),
});
