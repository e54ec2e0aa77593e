// `mooring mcp tools [NAME]`: the tools as the model sees them, every tool that is off listed with why and
// the command that turns it on; `--enable TOOL[,TOOL]` / `--disable …` is that command (the app's tool
// toggle, `core.servers.setToolEnabled`: turning a tool on also ends its new-tool quarantine).
import type { Command } from 'commander';
import type { ToolSummary } from '../core/catalog/catalog';
import { MooringError } from '../core/errors';
import type { MooringCore } from '../core/mooringCore';
import { startServer, warnNotConnected, type CoreRunner } from './coreRunner';
import { collect } from './output';
import { print, printJson, say, tty } from './terminalText';

const splitNames = (lists: string[] | undefined): string[] =>
  (lists ?? []).flatMap((l) => l.split(',').map((t) => t.trim())).filter(Boolean);

/** Turns tools on or off; the names are checked against what the server lists when it can run. */
async function toggle(
  core: MooringCore,
  server: string,
  change: { enable: string[]; disable: string[] },
): Promise<void> {
  const config = await core.servers.get(server); // not_found names `mooring mcp list`
  if (config.enabled !== false) {
    await core.startOnly([server]);
    const listed = core.tools.list(server).map((e) => e.tool);
    const unknown = [...change.enable, ...change.disable].filter((t) => !listed.includes(t));
    if (listed.length && unknown.length)
      throw new MooringError(
        'not_found',
        `"${server}" has no tool ${unknown.map((t) => `"${t}"`).join(', ')}`,
        `List its tools: mooring mcp tools ${server}`,
      );
  }
  for (const tool of change.enable) await core.servers.setToolEnabled(server, tool, true);
  for (const tool of change.disable) await core.servers.setToolEnabled(server, tool, false);
}

type Row = ToolSummary & { fix?: string };

export function registerToolsCommand(mcp: Command, withCore: CoreRunner): void {
  mcp
    .command('tools')
    .description(
      'list the tools of one or every enabled server, as the model sees them; --enable/--disable turn tools on or off',
    )
    .argument('[name]')
    .option('--enable <tools>', 'turn these tools of NAME on (comma-separated; repeatable)', collect)
    .option('--disable <tools>', 'turn these tools of NAME off (comma-separated; repeatable)', collect)
    .option('--json', 'machine-readable output')
    .option('--workspace <dir>', 'with the approved servers of this project folder')
    .action(async (name: string | undefined, o) =>
      withCore(
        async (core) => {
          const enable = splitNames(o.enable);
          const disable = splitNames(o.disable);
          if (enable.length || disable.length) {
            if (!name)
              throw new MooringError(
                'usage',
                '--enable and --disable need the server',
                'e.g. mooring mcp tools files --enable write_file',
              );
            await toggle(core, name, { enable, disable });
            if (o.json) return void printJson({ ok: true, server: name, enabled: enable, disabled: disable });
            for (const t of enable) say(tty`${name}/${t} is on\n`);
            for (const t of disable) say(tty`${name}/${t} is off\n`);
            return;
          }
          if (name) await startServer(core, name, { workspace: o.workspace });
          else {
            await core.start();
            warnNotConnected(core);
          }
          // Excluded tools are listed too, with the reason: a tool must never vanish without a word.
          const catalog = core.tools.catalog();
          const rows: Row[] = catalog
            .summaries({ includeDisabled: true })
            .filter((t) => !name || t.server === name)
            .map((t) => {
              const hint = t.enabled ? undefined : catalog.get(t.name)?.excludedHint;
              return hint ? { ...t, fix: hint } : t;
            });
          if (o.json) return void printJson(rows);
          for (const t of rows.filter((r) => r.enabled))
            print(
              tty`${t.name}${t.readOnly ? '  [read-only]' : ''}${t.destructive ? '  [destructive]' : ''}${t.changed ? '  [changed: its next call asks]' : ''}\n    ${t.description.split('\n')[0]}\n`,
            );
          const excluded = rows.filter((r) => !r.enabled);
          if (excluded.length) print(`\nexcluded (${excluded.length}):\n`);
          for (const t of excluded)
            print(
              tty`${t.name}  [excluded]\n    ${t.excludedReason ?? ''}\n${t.fix ? tty`    ${t.fix}\n` : ''}`,
            );
        },
        { json: o.json, workspace: o.workspace },
      ),
    );
}
