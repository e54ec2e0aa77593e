// `mooring mcp call SERVER TOOL '{json}'`: one tool call through the safety gate (ARCHITECTURE.md, "The
// path of one tool call"), its approval asked on this terminal, its result printed in full (callOutput.ts).
import type { Command } from 'commander';
import { MooringError } from '../core/errors';
import { formatFix } from '../core/catalog/argRepair';
import { checkCallArguments } from '../core/catalog/argumentCheck';
import { saveMedia, printResult } from './callOutput';
import { failIfNotReady, type CoreRunner } from './coreRunner';
import { EXIT } from './output';
import { interactive } from './terminalPrompt';
import { answerApprovalsOnTerminal } from './terminalRequests';
import { printJson, say, tty } from './terminalText';

function parseArguments(jsonArgs: string): Record<string, unknown> {
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
  return args as Record<string, unknown>;
}

export function registerCallCommand(mcp: Command, withCore: CoreRunner): void {
  mcp
    .command('call')
    .description('call one tool: mooring mcp call SERVER TOOL \'{"arg": 1}\'')
    .argument('<server>')
    .argument('<tool>')
    .argument('[json_args]', 'the arguments as a JSON object', '{}')
    .option(
      '--json',
      'print {"isError","text","images","audio","resourceLinks","resources","structured","structuredValidation"}',
    )
    .option('--yes', 'approve the call if it needs approval (a tool that is not read-only)')
    .option(
      '--trust',
      "trust this server's command for this run only, even if it is outside the allowlist (nothing is saved)",
    )
    .option(
      '--save-dir <dir>',
      'where images, audio and binary resources are saved (default: a new temp folder)',
    )
    .option('--workspace <dir>', 'with the approved servers of this project folder')
    .action(async (server: string, tool: string, jsonArgs: string, o) =>
      withCore(
        async (core) => {
          const args = parseArguments(jsonArgs);
          await core.startOnly([server], { trustForThisRun: Boolean(o.trust) });
          failIfNotReady(core, server);
          const entry = core.tools.catalog().entries.find((e) => e.server === server && e.tool === tool);
          if (!entry)
            throw new MooringError(
              'not_found',
              `"${server}" has no tool "${tool}"`,
              `List its tools: mooring mcp tools ${server}`,
            );
          // A tool that is off is refused by the call with why and what to do; its arguments do not matter.
          if (entry.enabled) checkCallArguments(entry, args);
          const stopPrompt = interactive() && !o.yes ? answerApprovalsOnTerminal(core) : () => undefined;
          const outcome = await core.tools
            .call(entry.modelName, args, {
              client: 'cli',
              preApproved: Boolean(o.yes),
              interactive: interactive(),
            })
            .finally(stopPrompt);
          for (const f of outcome.fixes) say(tty`note: repaired argument ${formatFix(f)}\n`);
          const json = await saveMedia(outcome.result, { ...(o.saveDir ? { dir: o.saveDir } : {}) });
          if (o.json) printJson(json);
          else printResult(json);
          return outcome.result.isError ? EXIT.failed : EXIT.ok;
        },
        { json: o.json, workspace: o.workspace },
      ),
    );
}
