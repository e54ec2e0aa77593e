// `mooring mcp call SERVER TOOL '{json}'`: one tool call through the safety gate (ARCHITECTURE.md, "The
// path of one tool call"), its approval and the server's questions (forms, 2025 elicitation and 2026
// input_required rounds alike) asked on this terminal or declined at once without one, its progress on
// stderr (callProgress.ts), its result printed in full (callOutput.ts). Ctrl-C, SIGINT or SIGTERM cancel
// the call at its server (`notifications/cancelled`), give the server a moment, then close: exit 130.
import type { Command } from 'commander';
import { MooringError } from '../core/errors';
import { formatFix } from '../core/catalog/argRepair';
import { checkCallArguments } from '../core/catalog/argumentCheck';
import type { MooringCore } from '../core/mooringCore';
import { describeSigns, instructionSigns } from '@shared/instructionSigns';
import { saveMedia, printResult } from './callOutput';
import { reportProgress } from './callProgress';
import { startServer, type CoreRunner } from './coreRunner';
import { EXIT } from './output';
import { onStop } from './processGuards';
import { answerInteractionsOnTerminal } from './terminalInteractions';
import { interactive } from './terminalPrompt';
import { answerApprovalsOnTerminal } from './terminalRequests';
import { printJson, say, tty } from './terminalText';

/** How long a cancelled call's server gets to take the cancellation in before its session closes. */
export const CANCEL_GRACE_MS = 500;

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
      withCore((core) => callTool(core, { server, tool, args: parseArguments(jsonArgs), o }), {
        json: o.json,
        workspace: o.workspace,
        handlesSignals: true,
      }),
    );
}

interface CallOptions {
  json?: boolean;
  yes?: boolean;
  trust?: boolean;
  saveDir?: string;
  workspace?: string;
}

async function callTool(
  core: MooringCore,
  c: { server: string; tool: string; args: Record<string, unknown>; o: CallOptions },
): Promise<number> {
  const { server, tool, args, o } = c;
  const where = `${server}/${tool}`;
  // A stop before the call is sent closes at once; once it is sent, it is cancelled at the server first.
  const stop = new AbortController();
  let closing: Promise<void> | undefined;
  let calling = false;
  const onSignal = () => {
    if (stop.signal.aborted || !calling) {
      say(tty`\ncancelled: ${where} was not called\n`);
      closing ??= core.close().finally(() => process.exit(EXIT.cancelled));
      return;
    }
    stop.abort();
  };
  const stopListening = onStop(onSignal);
  const stopInteractions = answerInteractionsOnTerminal(core, { interactive: interactive() });
  let stopApprovals: () => void = () => undefined;
  const progress = reportProgress({ what: where, terminal: Boolean(process.stderr.isTTY) });
  try {
    await startServer(core, server, { workspace: o.workspace, trustForThisRun: Boolean(o.trust) });
    const entry = core.tools.catalog().entries.find((e) => e.server === server && e.tool === tool);
    if (!entry)
      throw new MooringError(
        'not_found',
        `"${server}" has no tool "${tool}"`,
        `List its tools: mooring mcp tools ${server}`,
      );
    // A tool that is off is hidden from models only: the person's own call of it asks (or --yes answers).
    checkCallArguments(entry, args);
    if (interactive() && !o.yes) stopApprovals = answerApprovalsOnTerminal(core);
    calling = true;
    const outcome = await core.tools
      .call(entry.modelName, args, {
        client: 'cli',
        caller: 'person',
        preApproved: Boolean(o.yes),
        interactive: interactive(),
        signal: stop.signal,
        onProgress: (p) => progress.onProgress(p),
        onPhase: (e) => {
          if (e.phase === 'running') progress.running();
        },
      })
      .catch(async (err: unknown) => {
        if (!stop.signal.aborted) throw err;
        progress.stop();
        // The SDK sent notifications/cancelled as the signal aborted; the server gets a moment for it.
        await new Promise((resolve) => setTimeout(resolve, CANCEL_GRACE_MS).unref());
        throw new MooringError(
          'cancelled',
          `${where} was cancelled: its server was told to stop (notifications/cancelled)`,
        );
      });
    progress.stop();
    for (const f of outcome.fixes) say(tty`note: repaired argument ${formatFix(f)}\n`);
    const json = await saveMedia(outcome.result, { ...(o.saveDir ? { dir: o.saveDir } : {}) });
    if (o.json) printJson(json);
    else printResult(json);
    // The result is the server's data; text in it that reads like instructions to a model is flagged.
    const signs = instructionSigns([json.text ?? '', ...json.resources.map((r) => r.text ?? '')].join('\n'));
    if (signs.length) say(tty`warning: ${where}'s result ${describeSigns(signs)}\n`);
    return outcome.result.isError ? EXIT.failed : EXIT.ok;
  } finally {
    progress.stop();
    stopApprovals();
    stopInteractions();
    stopListening();
  }
}
