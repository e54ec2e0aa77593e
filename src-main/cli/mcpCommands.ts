// `mooring mcp …`: manage servers and call their tools from a terminal (issue 2), on the same core as the app.
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { ServerConfigInput, TransportKind } from '@shared/config';
import { toResultJson } from '@shared/toolResult';
import type { ApprovalRequest } from '@shared/approval';
import { MooringError } from '../core/errors';
import { MooringCore } from '../core/mooringCore';
import { formatFix } from '../core/catalog/argRepair';
import { describeCommandLine } from '../core/safety/commandAllowlist';
import { collect, EXIT, parsePairs, printJson } from './output';
import { askInputs } from './installTerminal';
import { ask, confirm, interactive } from './prompt';
import { formatWorkspaceScan } from '../core/workspace/workspaceReport';

type Run = (core: MooringCore) => Promise<number | void>;
export type CoreRunner = (
  fn: Run,
  /** handlesSignals: a long-running service stops itself on SIGINT/SIGTERM and returns (exit 0). */
  opts?: { json?: boolean; workspace?: string; handlesSignals?: boolean },
) => Promise<void>;

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
    .option('--secret-env <K=V>', 'an environment variable kept in the keychain (repeatable)', collect)
    .option('--secret-header <K=V>', 'an HTTP header kept in the keychain (repeatable)', collect)
    .option('--timeout <seconds>', 'per-call timeout, 1–600 (default 180)')
    .option('--trust', 'allow a command outside the runtime allowlist')
    .option('--disabled', 'add it switched off')
    .action(async (name: string, command: string[], o) =>
      withCore(async (core) => {
        const env = { ...parsePairs(o.env, '--env'), ...parsePairs(o.secretEnv, '--secret-env') };
        const headers = {
          ...parsePairs(o.header, '--header'),
          ...parsePairs(o.secretHeader, '--secret-header'),
        };
        const transport: TransportKind = o.transport ?? (o.url ? 'http' : 'stdio');
        const input: ServerConfigInput = {
          name,
          transport,
          ...(command.length ? { command: command[0], args: command.slice(1) } : {}),
          ...(o.url ? { url: o.url } : {}),
          env,
          headers,
          secretEnv: Object.keys(parsePairs(o.secretEnv, '--secret-env')),
          secretHeaders: Object.keys(parsePairs(o.secretHeader, '--secret-header')),
          ...(o.timeout !== undefined ? { timeoutSeconds: Number(o.timeout) } : {}),
          ...(o.trust ? { trust: true } : {}),
          ...(o.disabled ? { enabled: false } : {}),
        };
        const saved = await core.servers.add(input, { start: false });
        for (const w of saved.secretEnv.concat(saved.secretHeaders))
          process.stderr.write(`kept ${w} in the keychain\n`);
        process.stderr.write(`added ${saved.name}: ${describeCommandLine(saved)}\n`);
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
            process.stdout.write(`${formatWorkspaceScan(scan, servers).join('\n')}\n`);
            process.stdout.write(`Approve one with: mooring mcp approve NAME --workspace ${o.workspace}\n\n`);
          }
          if (o.json) return void printJson(servers);
          if (!servers.length)
            return void process.stdout.write(
              'No servers yet. Add one: mooring mcp add NAME -- COMMAND ARGS…\n',
            );
          for (const s of servers)
            process.stdout.write(
              `${s.enabled ? '●' : '○'} ${s.name.padEnd(20)} ${s.transport.padEnd(5)} ${describeCommandLine(s)}\n`,
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
        if (offered) process.stderr.write(`${name} (${offered.source}) runs: ${offered.commandLine}\n`);
        if (!interactive())
          throw new MooringError(
            'refused',
            `Approving runs this command on your machine; ${name} was not approved.`,
            'Run this from a terminal to review and confirm it.',
          );
        if (!(await confirm(`Approve ${name}?`)))
          throw new MooringError('refused', `${name} was not approved.`);
        await core.workspaces.approve(o.workspace, name, async (input) =>
          ask(`${input.description ?? input.id}: `),
        );
        process.stderr.write(`approved ${name} for ${scan.workspace}\n`);
      }),
    );

  mcp
    .command('remove')
    .description('remove a server (and its keychain secrets)')
    .argument('<name>')
    .action(async (name: string) =>
      withCore(async (core) => {
        await core.servers.remove(name);
        process.stderr.write(`removed ${name}\n`);
      }),
    );

  mcp
    .command('import')
    .description(
      'import servers from another client’s config: Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Zed, Goose, Continue, LM Studio, Cherry Studio, Mooring',
    )
    .argument('<file>')
    .option('--yes', 'consent to every command line without asking')
    .option('--replace', 'replace servers of the same name')
    .option('--input <ID=VALUE>', 'the value of a VS Code input (${input:ID}); the rest are asked', collect)
    .action(async (file: string, o) =>
      withCore(async (core) => {
        const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
          throw new MooringError(
            'config_not_found',
            `Cannot read ${file}: ${e.code ?? e.message}`,
            'Check the path.',
          );
        });
        const parsed = await core.servers.previewImport(text, file); // shown for consent before anything is written
        process.stderr.write(`${file}: ${parsed.format} format, ${parsed.servers.length} server(s):\n`);
        for (const s of parsed.servers) process.stderr.write(`  ${s.config.name}: ${s.commandLine}\n`);
        for (const r of parsed.renamed) process.stderr.write(`  (renamed "${r.from}" to "${r.to}")\n`);
        if (!o.yes) {
          if (!interactive())
            throw new MooringError(
              'refused',
              'Importing runs these commands on your machine; nothing was imported.',
              'Review the command lines above, then re-run with --yes to consent.',
            );
          if (!(await confirm('Add these servers? They will run the commands shown above.')))
            throw new MooringError('refused', 'Nothing was imported.');
        }
        // VS Code inputs (`${input:ID}`): asked now, kept in the keychain, filled in at start.
        let inputValues = parsePairs(o.input, '--input');
        if (interactive())
          inputValues = await askInputs(
            parsed.inputs.map((i) => ({
              id: i.id,
              label: `input ${i.id}${i.description ? ` (${i.description})` : ''}`,
              secret: i.password,
              required: true,
            })),
            inputValues,
          );
        const merged = await core.servers.import({
          text,
          fileName: file,
          replaceExisting: Boolean(o.replace),
          inputValues,
        });
        process.stderr.write(`imported ${merged.added.length + merged.replaced.length} server(s)\n`);
      }),
    );

  mcp
    .command('test')
    .description('handshake and tools/list with a 10 s ceiling')
    .argument('<name>')
    .option('--json', 'machine-readable output')
    .action(async (name: string, o) =>
      withCore(
        async (core) => {
          const r = await core.servers.testSaved(name);
          if (o.json) printJson(r);
          else if (r.ok)
            process.stdout.write(`ok: ${r.tool_count} tools in ${r.latency_ms} ms: ${r.tools.join(', ')}\n`);
          else
            process.stdout.write(
              `failed after ${r.latency_ms} ms: ${r.error}\n${r.hint ? `hint: ${r.hint}\n` : ''}`,
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
          for (const s of core.servers.statuses())
            if (s.state === 'failed')
              process.stderr.write(`warning: ${s.name} is not connected: ${s.error?.message ?? 'failed'}\n`);
          const rows = core.tools
            .catalog()
            .summaries()
            .filter((t) => !name || t.server === name);
          if (name) failIfNotReady(core, name);
          if (o.json) return void printJson(rows);
          for (const t of rows)
            process.stdout.write(
              `${t.name}${t.readOnly ? '  [read-only]' : ''}${t.destructive ? '  [destructive]' : ''}\n    ${t.description.split('\n')[0]}\n`,
            );
        },
        { json: o.json, workspace: o.workspace },
      ),
    );

  mcp
    .command('call')
    .description('call one tool: mooring mcp call SERVER TOOL \'{"arg": 1}\'')
    .argument('<server>')
    .argument('<tool>')
    .argument('[json_args]', 'the arguments as a JSON object', '{}')
    .option('--json', 'print {"isError","text","images","structured"}')
    .option('--yes', 'approve the call if it needs approval (a tool that is not read-only)')
    .option('--trust', "trust this server's command for this run even if it is outside the allowlist")
    .option('--workspace <dir>', 'with the approved servers of this project folder')
    .action(async (server: string, tool: string, jsonArgs: string, o) =>
      withCore(
        async (core) => {
          let args: unknown;
          try {
            args = JSON.parse(jsonArgs);
          } catch (e) {
            throw new MooringError(
              'usage',
              `The arguments are not valid JSON: ${(e as Error).message}`,
              `Quote them for your shell, e.g. '{"path": "/tmp"}'`,
            );
          }
          if (typeof args !== 'object' || args === null || Array.isArray(args))
            throw new MooringError('usage', 'The arguments must be a JSON object', `e.g. '{"path": "/tmp"}'`);
          if (o.trust) await core.servers.trust(server);
          await core.startOnly([server]);
          failIfNotReady(core, server);
          const entry = core.tools.catalog().entries.find((e) => e.server === server && e.tool === tool);
          if (!entry)
            throw new MooringError(
              'not_found',
              `"${server}" has no tool "${tool}"`,
              `List its tools: mooring mcp tools ${server}`,
            );
          const stopPrompt = answerApprovalsOnTerminal(core);
          const outcome = await core.tools
            .call(entry.modelName, args, {
              client: 'cli',
              preApproved: Boolean(o.yes),
              interactive: interactive(),
            })
            .finally(stopPrompt);
          for (const f of outcome.fixes) process.stderr.write(`note: repaired argument ${formatFix(f)}\n`);
          const json = toResultJson(outcome.result);
          if (o.json) printJson(json);
          else {
            if (json.text) process.stdout.write(`${json.text}\n`);
            for (const i of json.images) process.stdout.write(`[image: ${i.mimeType}, ${i.bytes} bytes]\n`);
            if (json.structured !== undefined && !json.text) printJson(json.structured);
          }
          return outcome.result.isError ? EXIT.failed : EXIT.ok;
        },
        { json: o.json, workspace: o.workspace },
      ),
    );
  return mcp;
}

function failIfNotReady(core: MooringCore, name: string): void {
  const s = core.servers.statuses().find((x) => x.name === name);
  if (s?.state === 'ready') return;
  const e = s?.error;
  throw new MooringError(e?.code ?? 'connect_failed', e?.message ?? `"${name}" did not connect`, e?.hint);
}

/** Answers the core's approval requests with a terminal prompt while a CLI call runs. */
function answerApprovalsOnTerminal(core: MooringCore): () => void {
  const onRequest = async (req: ApprovalRequest) => {
    process.stderr.write(
      `${req.friendlyName} (${req.server}/${req.tool}) wants to run: ${req.reason}.\narguments: ${JSON.stringify(req.arguments, null, 2)}\n`,
    );
    for (const d of req.diff ?? []) process.stderr.write(`  changed since you allowed it: ${d.summary}\n`);
    const yes = await confirm('Run it?');
    core.approvals.answer(req.id, { outcome: yes ? 'approve' : 'deny', decidedBy: 'user:cli' });
  };
  core.approvals.on('requested', onRequest);
  return () => core.approvals.off('requested', onRequest);
}
