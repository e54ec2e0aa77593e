// Settings > Tools > MCP (issue 5): the server list with live state, add/edit/remove, enable, test,
// refresh, logs, tool filters, and import from Claude Desktop / Cursor / VS Code files with consent.
import { z } from 'zod';
import { ServerConfigSchema, ServerNameSchema, type ServerConfigInput } from '@shared/config';
import type { ServerRow } from '@shared/wire';
import { parseImport } from '../config/importFormats';
import { parseServerInput } from '../config/serversStore';
import { describeCommandLine } from '../safety/commandAllowlist';
import { KEYCHAIN_REF } from '../secrets/serverSecrets';
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

export const serversRouter = router({
  list: publicProcedure.query(async ({ ctx }): Promise<ServerRow[]> => {
    const configs = await ctx.core.serverConfigs();
    const statuses = new Map(ctx.core.statuses().map((s) => [s.name, s]));
    const costs = ctx.core.catalog().tokenCostByServer();
    return configs.map((config) => ({
      config,
      status: statuses.get(config.name) ?? null,
      tokenCost: costs[config.name] ?? 0,
      commandLine: describeCommandLine(config),
    }));
  }),

  // A server added in the app starts with the default safe set (read-only tools on, the rest off).
  add: publicProcedure.input(ServerInput).mutation(async ({ ctx, input }) => {
    const server = await ctx.core.addServer(input);
    const safeDefaults = await ctx.core.applySafeDefaults(server.name);
    return { ...server, safeDefaults };
  }),

  update: publicProcedure
    .input(z.object({ name: ServerNameSchema, config: ServerInput }))
    .mutation(({ ctx, input }) => ctx.core.updateServer(input.name, input.config)),

  remove: publicProcedure.input(z.object({ name: z.string() })).mutation(async ({ ctx, input }) => {
    await ctx.core.removeServer(input.name);
    return { removed: input.name };
  }),

  setEnabled: publicProcedure
    .input(z.object({ name: z.string(), enabled: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      await ctx.core.setEnabled(input.name, input.enabled);
      return { name: input.name, enabled: input.enabled };
    }),

  /**
   * Runs the handshake on a throwaway session. Secret values typed into the form are used for this
   * test only; nothing is written. A "<keychain>" value of a saved server is read from the keychain.
   */
  test: publicProcedure.input(ServerInput).mutation(({ ctx, input }) => {
    const config = parseServerInput(input);
    // Freshly typed secrets stay plain values for the throwaway session; only "<keychain>" values are
    // read from the keychain (resolveServerConfig reads every key listed as secret).
    const stored = (values: Record<string, string>, keys: string[]) =>
      keys.filter((k) => values[k] === KEYCHAIN_REF);
    return ctx.core.testServer({
      ...config,
      secretEnv: stored(config.env, config.secretEnv),
      secretHeaders: stored(config.headers, config.secretHeaders),
    });
  }),

  refresh: publicProcedure.input(z.object({ name: z.string() })).mutation(async ({ ctx, input }) => {
    await ctx.core.refreshTools(input.name);
    return ctx.core.statuses().find((s) => s.name === input.name) ?? null;
  }),

  logs: publicProcedure
    .input(z.object({ name: z.string() }))
    .query(({ ctx, input }) => ctx.core.logs(input.name)),

  /** The include/exclude toggles of Tool selection: writes the server's excludeTools (issue 3 filters). */
  setToolEnabled: publicProcedure
    .input(z.object({ server: z.string(), tool: z.string(), enabled: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const current = await ctx.core.servers.get(input.server);
      const exclude = new Set(current.excludeTools);
      let include = current.includeTools ? new Set(current.includeTools) : undefined;
      if (input.enabled) {
        exclude.delete(input.tool);
        include?.add(input.tool);
      } else exclude.add(input.tool);
      if (include && include.size === 0) include = undefined;
      const next: ServerConfigInput = {
        ...current,
        excludeTools: [...exclude],
        ...(include ? { includeTools: [...include] } : {}),
      };
      if (!include) delete next.includeTools;
      return ctx.core.updateServer(input.server, next);
    }),

  /** Parses a pasted or chosen config file and shows what would be added, with each command line. */
  previewImport: publicProcedure
    .input(z.object({ text: z.string().max(2_000_000), fileName: z.string().default('pasted text') }))
    .mutation(async ({ ctx, input }) => {
      const parsed = parseImport(input.text, { fileName: input.fileName });
      const existing = new Set((await ctx.core.serverConfigs()).map((s) => s.name));
      return {
        format: parsed.format,
        renamed: parsed.renamed,
        warnings: parsed.warnings,
        inputs: parsed.inputs,
        servers: parsed.servers.map((config) => ({
          config,
          commandLine: describeCommandLine(config),
          exists: existing.has(config.name),
        })),
      };
    }),

  /** Adds the servers the user consented to, one by one; reports each outcome. */
  importServers: publicProcedure
    .input(z.object({ servers: z.array(ServerConfigSchema).min(1).max(200) }))
    .mutation(async ({ ctx, input }) => {
      const results: { name: string; ok: boolean; error?: string }[] = [];
      for (const s of input.servers) {
        try {
          await ctx.core.addServer(s, { sync: false });
          results.push({ name: s.name, ok: true });
        } catch (err) {
          results.push({ name: s.name, ok: false, error: (err as Error).message });
        }
      }
      await ctx.core.sync();
      return results;
    }),
});
