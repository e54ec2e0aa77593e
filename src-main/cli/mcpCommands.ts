// `mooring mcp …`: manage servers and call their tools from a terminal, on the same core as the app.
// Every string from a server or a file is printed through `tty` (terminalText.ts); every question goes
// through the one queued prompt (terminalPrompt.ts).
import type { Command } from 'commander';
import { describeCommandLine } from '../core/safety/commandAllowlist';
import { formatWorkspaceScan } from '../core/workspace/workspaceReport';
import { registerCallCommand } from './callCommand';
import { quickServers, type CoreRunner } from './coreRunner';
import { registerFeatureCommands } from './featureCommands';
import { liveServerStatus, statusSourceLine, statusWhy, statusWord } from './liveServerStatus';
import { registerSkillCommands } from './skillCommands';
import { registerImportCommand } from './importCommand';
import { EXIT } from './output';
import { registerFlowCommands } from './flowCommands';
import { registerSandboxCommand } from './sandboxCommands';
import { registerServerCommands } from './serverCommands';
import { multiline, print, printJson, tty } from './terminalText';
import { registerToolsCommand } from './toolsCommand';

export type { CoreRunner } from './coreRunner';

export function registerMcpCommands(program: Command, withCore: CoreRunner): Command {
  const mcp = program.command('mcp').description('manage MCP servers and call their tools');

  registerServerCommands(mcp, withCore);

  mcp
    .command('list')
    .description(
      'list the configured servers (secrets masked) with their live status in the running app (desktop or `mooring web`); with --workspace, what a project folder offers',
    )
    .option('--json', 'machine-readable output')
    .option(
      '--workspace <dir>',
      'also show the servers this project folder offers (.mooring, .vscode, .cursor, .mcp.json)',
    )
    .action(async (o) =>
      withCore(
        async (core) => {
          const servers = await core.servers.listMasked();
          // The quick-config server runs for this shell's commands: listed, marked as such.
          const quick = (await quickServers(core)).map((s) => ({ ...s, quickConfig: true as const }));
          if (o.workspace) {
            const scan = await core.workspaces.scan(o.workspace);
            if (o.json) return void printJson({ servers: [...servers, ...quick], workspace: scan });
            for (const line of formatWorkspaceScan(scan, servers)) print(tty`${line}\n`);
            print(tty`Approve one with: mooring mcp approve NAME --workspace ${o.workspace}\n\n`);
          }
          const live = servers.length ? await liveServerStatus() : ({ kind: 'none' } as const);
          if (o.json)
            return void printJson([
              ...servers.map((s) => ({
                ...s,
                ...(live.kind === 'app'
                  ? {
                      status: statusWord(live, s.name, s.enabled),
                      statusFrom: `${live.app} (process ${live.pid})`,
                    }
                  : {}),
              })),
              ...quick,
            ]);
          if (!servers.length && !quick.length)
            return void print('No servers yet. Add one: mooring mcp add NAME -- COMMAND ARGS…\n');
          for (const s of [...servers, ...quick]) {
            const word = 'quickConfig' in s ? undefined : statusWord(live, s.name, s.enabled);
            print(
              tty`${s.enabled ? '●' : '○'} ${s.name.padEnd(20)} ${word ? `${word.padEnd(16)} ` : ''}${s.transport.padEnd(5)} ${describeCommandLine(s)}${'quickConfig' in s ? '  (MOORING_MCP_SERVER_*, this shell only)' : ''}\n`,
            );
            const why = statusWhy(live, s.name);
            if (why) print(tty`    ${why}\n`);
          }
          if (servers.length) print(tty`${statusSourceLine(live)}\n`);
        },
        { json: o.json },
      ),
    );

  registerImportCommand(mcp, withCore);
  registerSandboxCommand(mcp, withCore);
  registerFlowCommands(mcp, withCore);

  mcp
    .command('test')
    .description(
      'handshake and tools/list with a 30 s ceiling (as long as a start may take), with the capabilities of a real session',
    )
    .argument('<name>')
    .option('--json', 'machine-readable output')
    .action(async (name: string, o) =>
      withCore(
        async (core) => {
          const quick = (await quickServers(core)).find((s) => s.name === name);
          const r = quick
            ? await core.servers.connections.test(quick)
            : await core.servers.connections.testSaved(name);
          if (o.json) printJson(r);
          else if (r.ok)
            print(
              tty`ok: ${r.tool_count} tools in ${r.latency_ms} ms (protocol ${r.protocol_version ?? 'unknown'}): ${r.tools.join(', ')}\n`,
            );
          else
            print(
              tty`failed after ${r.latency_ms} ms: ${multiline(r.error)}\n` +
                (r.hint ? tty`hint: ${r.hint}\n` : ''),
            );
          return r.ok ? EXIT.ok : EXIT.failed;
        },
        { json: o.json },
      ),
    );

  registerToolsCommand(mcp, withCore);
  registerCallCommand(mcp, withCore);
  registerFeatureCommands(mcp, withCore);
  registerSkillCommands(mcp, withCore);
  return mcp;
}
