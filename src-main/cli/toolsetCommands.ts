// `mooring toolset …`: named tool sets — a selection of tools across servers that a chat
// offers the model instead of every enabled tool. Kept in settings.json (config/settingsService.ts).
import type { Command } from 'commander';
import type { CoreRunner } from './mcpCommands';
import { print, printJson, say, tty } from './terminalText';

export function registerToolsetCommands(program: Command, withCore: CoreRunner): void {
  const ts = program
    .command('toolset')
    .description('named tool sets for chat: a selection of tools across servers');

  ts.command('list')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withCore(
        async (core) => {
          const sets = core.settings.toolSets();
          if (o.json) return void printJson(sets);
          if (!sets.length)
            print('No tool sets yet. Create one: mooring toolset add NAME mcp__server__tool …\n');
          for (const s of sets) print(tty`${s.name}: ${s.tools.join(', ')}\n`);
        },
        { json: o.json },
      ),
    );

  ts.command('add')
    .description(
      'create or replace a tool set: mooring toolset add "Code Reviewer" mcp__git__diff mcp__files__read_text_file',
    )
    .argument('<name>')
    .argument('<tools...>', 'model tool names (see: mooring mcp tools)')
    .option('--json', 'print the tool set as JSON on stdout')
    .action(async (name: string, tools: string[], o: { json?: boolean }) =>
      withCore(
        async (core) => {
          await core.settings.saveToolSet({ name, tools });
          if (o.json) printJson({ ok: true, name, tools });
          else say(tty`tool set "${name}": ${tools.length} tool(s)\n`);
        },
        { json: o.json },
      ),
    );

  ts.command('remove')
    .argument('<name>')
    .option('--json', 'print {"ok": true, "removed": NAME}')
    .action(async (name: string, o: { json?: boolean }) =>
      withCore(
        async (core) => {
          await core.settings.removeToolSet(name);
          if (o.json) printJson({ ok: true, removed: name });
          else say(tty`removed tool set "${name}"\n`);
        },
        { json: o.json },
      ),
    );
}
