// `mooring mcp …`: manage servers and call their tools from a terminal, on the same core as the app.
// Every string from a server or a file is printed through `tty` (terminalText.ts); every question goes
// through the one queued prompt (terminalPrompt.ts).
import type { Command } from 'commander';
import type { ServerConfigInput, TransportKind } from '@shared/config';
import { confinementSummary, mergeSandbox, profileKindOf, sandboxProfile } from '@shared/confinement';
import { MooringError } from '../core/errors';
import { describeCommandLine } from '../core/safety/commandAllowlist';
import { describeOffered, formatWorkspaceScan } from '../core/workspace/workspaceReport';
import { registerCallCommand } from './callCommand';
import { registerFeatureCommands } from './featureCommands';
import { failIfNotReady, warnNotConnected, type CoreRunner } from './coreRunner';
import { registerImportCommand } from './importCommand';
import { absolute, registerSandboxCommand } from './sandboxCommands';
import { collect, EXIT, parsePairs } from './output';
import { readSecretValues } from './secretInput';
import { interactive, terminal } from './terminalPrompt';
import { multiline, print, printJson, say, tty } from './terminalText';

export type { CoreRunner } from './coreRunner';

export function registerMcpCommands(program: Command, withCore: CoreRunner): Command {
  const mcp = program.command('mcp').description('manage MCP servers and call their tools');

  mcp
    .command('add')
    .description('add a server: mooring mcp add NAME [options] -- COMMAND ARGS…   or   --url URL')
    .argument('<name>', 'server name: 1–64 letters, digits, "_" or "-"')
    .argument('[command...]', 'for stdio: the command and its arguments, after --')
    .option('--transport <kind>', 'stdio | http | sse (default: stdio with a command, http with --url)')
    .option('--url <url>', 'the server URL for http or sse')
    .option('--header <K=V>', 'an HTTP header (repeatable)', collect)
    .option('--env <K=V>', 'an environment variable (repeatable)', collect)
    .option(
      '--secret-env <NAME>',
      'an environment variable kept in the keychain; its value is asked (hidden) or read from stdin, one line each (repeatable)',
      collect,
    )
    .option(
      '--secret-header <NAME>',
      'an HTTP header kept in the keychain; its value is asked (hidden) or read from stdin, one line each (repeatable)',
      collect,
    )
    .option('--timeout <seconds>', 'per-call timeout, 1–600 (default 180)')
    .option('--trust', 'allow a command outside the runtime allowlist')
    .option('--disabled', 'add it switched off')
    .option('--all-tools', 'skip the default safe set: leave its destructive tools on')
    .option(
      '--confined',
      'run it confined: it writes only where allowed (npx, uvx: their caches) and reaches only listed hosts',
    )
    .option('--allow-write <path>', 'with --confined: a path it may write (repeatable)', collect)
    .option('--allow-domain <host>', 'with --confined: a host it may reach (repeatable)', collect)
    .addHelpText(
      'after',
      `
Secrets never belong on the command line (other users read it with ps):
  mooring mcp add github --secret-env GITHUB_TOKEN -- npx -y @modelcontextprotocol/server-github
asks for the value without echoing it; from a script, pipe it in:
  printf '%s\\n' "$GITHUB_TOKEN" | mooring mcp add github --secret-env GITHUB_TOKEN -- npx -y …`,
    )
    .action(async (name: string, command: string[], o) =>
      withCore(async (core) => {
        const secrets = await readSecretValues({ env: o.secretEnv, headers: o.secretHeader });
        const transport: TransportKind = o.transport ?? (o.url ? 'http' : 'stdio');
        if ((o.allowWrite || o.allowDomain) && !o.confined)
          throw new MooringError('usage', '--allow-write and --allow-domain go with --confined.');
        const confined = o.confined
          ? {
              sandboxEnabled: true,
              sandbox: mergeSandbox(
                sandboxProfile(profileKindOf(command[0], command.slice(1)), { platform: process.platform }),
                {
                  filesystem: o.allowWrite ? { allowWrite: (o.allowWrite as string[]).map(absolute) } : {},
                  network: o.allowDomain ? { allowedDomains: o.allowDomain as string[] } : {},
                },
              ),
            }
          : {};
        const input: ServerConfigInput = {
          name,
          transport,
          ...(command.length ? { command: command[0], args: command.slice(1) } : {}),
          ...(o.url ? { url: o.url } : {}),
          env: { ...parsePairs(o.env, '--env'), ...secrets.env },
          headers: { ...parsePairs(o.header, '--header'), ...secrets.headers },
          secretEnv: Object.keys(secrets.env),
          secretHeaders: Object.keys(secrets.headers),
          ...(o.timeout !== undefined ? { timeoutSeconds: Number(o.timeout) } : {}),
          ...(o.trust ? { trust: true } : {}),
          ...(o.disabled ? { enabled: false } : {}),
          ...confined,
        };
        const saved = await core.servers.add(input, {
          start: false,
          safeDefaults: !o.allTools,
          source: 'cli',
        });
        for (const w of saved.secretEnv.concat(saved.secretHeaders)) say(tty`kept ${w} in the keychain\n`);
        say(tty`added ${saved.name}: ${describeCommandLine(saved)}\n`);
        say(tty`${confinementSummary(saved)}\n`);
        if (!o.allTools)
          say(
            tty`its destructive tools start off (the default safe set, applied when it first connects); list them with: mooring mcp tools ${saved.name}\n`,
          );
      }),
    );

  mcp
    .command('list')
    .description(
      'list the configured servers (secrets masked); with --workspace, what a project folder offers',
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
          if (o.workspace) {
            const scan = await core.workspaces.scan(o.workspace);
            if (o.json) return void printJson({ servers, workspace: scan });
            for (const line of formatWorkspaceScan(scan, servers)) print(tty`${line}\n`);
            print(tty`Approve one with: mooring mcp approve NAME --workspace ${o.workspace}\n\n`);
          }
          if (o.json) return void printJson(servers);
          if (!servers.length)
            return void print('No servers yet. Add one: mooring mcp add NAME -- COMMAND ARGS…\n');
          for (const s of servers)
            print(
              tty`${s.enabled ? '●' : '○'} ${s.name.padEnd(20)} ${s.transport.padEnd(5)} ${describeCommandLine(s)}\n`,
            );
        },
        { json: o.json },
      ),
    );

  mcp
    .command('approve')
    .description('approve a server a project folder offers (pinned to its content: an edit asks again)')
    .argument('<name>')
    .requiredOption('--workspace <dir>', 'the project folder')
    .action(async (name: string, o) =>
      withCore(async (core) => {
        const scan = await core.workspaces.scan(o.workspace);
        const offered = scan.servers.find((s) => s.name === name);
        if (offered) {
          say(tty`${name} (${offered.source}):\n`);
          for (const line of describeOffered(offered)) say(tty`${line}\n`);
        }
        if (!interactive())
          throw new MooringError(
            'refused',
            `Approving runs this command on your machine; ${name} was not approved.`,
            'Run this from a terminal to review and confirm it.',
          );
        if (!(await terminal.confirm(tty`Approve ${name}?`)))
          throw new MooringError('refused', `${name} was not approved.`);
        // What an import never carries is a question of its own, answered no unless the person says yes.
        const allowHeldBack =
          offered !== undefined &&
          offered.heldBack.length > 0 &&
          (await terminal.confirm(tty`Also allow what is held back above for ${name}?`));
        await core.workspaces.approve(o.workspace, name, {
          allowHeldBack,
          // What was shown above is what is approved: an entry edited while the question was open is refused.
          ...(offered ? { pin: offered.pin } : {}),
          ask: async (input) => {
            const value = await terminal.line(
              tty`${input.description ?? input.id}${input.password ? ' (hidden, not echoed)' : ''}: `,
              { hidden: input.password },
            );
            if (value === null) throw new MooringError('cancelled', `${name} was not approved.`);
            return value.trim();
          },
        });
        say(tty`approved ${name} for ${scan.workspace}\n`);
        if (offered?.heldBack.length)
          say(
            allowHeldBack
              ? 'with what was held back\n'
              : 'without what was held back (to allow it later, run this command again and answer yes)\n',
          );
      }),
    );

  mcp
    .command('remove')
    .description('remove a server (and its keychain secrets)')
    .argument('<name>')
    .action(async (name: string) =>
      withCore(async (core) => {
        await core.servers.remove(name);
        say(tty`removed ${name}\n`);
      }),
    );

  mcp
    .command('trust')
    .description('let a server run a command outside the runtime allowlist (an import never does this)')
    .argument('<name>')
    .option('--off', 'take the trust back')
    .action(async (name: string, o) =>
      withCore(async (core) => {
        const saved = await core.servers.trust(name, !o.off);
        say(
          o.off
            ? tty`${name} is no longer trusted\n`
            : tty`${name} is trusted to run: ${describeCommandLine(saved)}\n`,
        );
      }),
    );

  registerImportCommand(mcp, withCore);
  registerSandboxCommand(mcp, withCore);

  mcp
    .command('test')
    .description('handshake and tools/list with a 10 s ceiling, with the capabilities of a real session')
    .argument('<name>')
    .option('--json', 'machine-readable output')
    .action(async (name: string, o) =>
      withCore(
        async (core) => {
          const r = await core.servers.testSaved(name);
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

  mcp
    .command('tools')
    .description('list the tools of one or every enabled server, as the model sees them')
    .argument('[name]')
    .option('--json', 'machine-readable output')
    .option('--workspace <dir>', 'with the approved servers of this project folder')
    .action(async (name: string | undefined, o) =>
      withCore(
        async (core) => {
          if (name) await core.startOnly([name]);
          else await core.start();
          warnNotConnected(core);
          // Excluded tools are listed too, with the reason: a tool must never vanish without a word.
          const rows = core.tools
            .catalog()
            .summaries({ includeDisabled: true })
            .filter((t) => !name || t.server === name);
          if (name) failIfNotReady(core, name);
          if (o.json) return void printJson(rows);
          for (const t of rows.filter((r) => r.enabled))
            print(
              tty`${t.name}${t.readOnly ? '  [read-only]' : ''}${t.destructive ? '  [destructive]' : ''}\n    ${t.description.split('\n')[0]}\n`,
            );
          const excluded = rows.filter((r) => !r.enabled);
          if (excluded.length) print(`\nexcluded (${excluded.length}):\n`);
          for (const t of excluded) print(tty`${t.name}  [excluded]\n    ${t.excludedReason ?? ''}\n`);
        },
        { json: o.json, workspace: o.workspace },
      ),
    );

  registerCallCommand(mcp, withCore);
  registerFeatureCommands(mcp, withCore);
  return mcp;
}
