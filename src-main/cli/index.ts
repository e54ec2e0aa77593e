// `mooring`: the core from a terminal (ARCHITECTURE.md, "Processes and entry points").
import { Command, CommanderError } from 'commander';
import { MooringError } from '../core/errors';
import { closeOnSignals } from '../core/lifecycle';
import type { ServerConfig } from '@shared/config';
import { QUICK_CLOSE_STAGE_MS } from '../core/mcp/stdioTransport';
import { MooringCore } from '../core/mooringCore';
import { envServer, logMasker } from '../core/workspace/envServer';
import { registerAuthCommands } from './authCommands';
import { registerChatCommand } from './chatCommand';
import { registerInstallCommands } from './installCommands';
import { registerMcpCommands, type CoreRunner } from './mcpCommands';
import { registerScheduleCommands } from './scheduleCommands';
import { registerServeCommand } from './serveCommand';
import { registerSettingsCommands } from './settingsCommand';
import { registerToolsetCommands } from './toolsetCommands';
import { registerWebCommand } from './webCommand';
import { registerHelpCommand } from './helpCommand';
import { reportError, EXIT } from './output';
import { guardProcess, onClosedPipe, outputClosed } from './processGuards';

guardProcess();

const program = new Command('mooring')
  .description('Mooring: a desktop MCP host, from the command line')
  .version('0.1.0')
  .exitOverride();

/**
 * Quick config from the environment (ARCHITECTURE.md, "The core, by room": workspace, env quick config):
 * MOORING_MCP_SERVER_STDIO / _URL add one server named `env` for this process, and everything this process
 * prints is masked (host only for URLs).
 */
function quickConfig(): ServerConfig[] {
  const quick = envServer(process.env);
  if (!quick) return [];
  const mask = logMasker(quick);
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) =>
      write(typeof chunk === 'string' ? mask(chunk) : chunk, ...rest)) as typeof stream.write;
  }
  return [quick];
}

/** Opens the core, runs one command, closes every session, and exits with the command's code. */
const withCore: CoreRunner = async (fn, opts = {}) => {
  let core: MooringCore | undefined;
  let stopSignals: (() => void) | undefined;
  let code: number = EXIT.ok;
  try {
    core = await MooringCore.open({
      extraServers: quickConfig(),
      // Someone waits on every command's close (docs/sessions.md, "Session actor states").
      session: { closeStageMs: QUICK_CLOSE_STAGE_MS },
      ...(opts.workspace ? { workspace: opts.workspace } : {}),
    });
    // Ctrl-C, SIGINT and SIGTERM all mean "stop": one exit code (exitCodes.ts).
    if (!opts.handlesSignals) {
      const open = core;
      const stopOnSignal = closeOnSignals(open, { exit: () => process.exit(EXIT.cancelled) });
      const stopOnPipe = onClosedPipe(() => void open.close().finally(() => process.exit(EXIT.ok)));
      stopSignals = () => {
        stopOnSignal();
        stopOnPipe();
      };
    }
    code = (await fn(core)) ?? EXIT.ok;
  } catch (err) {
    code = reportError(err, opts);
  } finally {
    await core?.close();
    stopSignals?.();
  }
  process.exitCode = outputClosed() ? EXIT.ok : code;
};

const mcp = registerMcpCommands(program, withCore);
registerAuthCommands(mcp, withCore);
registerInstallCommands(mcp, withCore);
registerChatCommand(program, withCore);
registerServeCommand(program, withCore);
registerWebCommand(program);
registerToolsetCommands(program, withCore);
registerScheduleCommands(program, withCore);
registerSettingsCommands(program, withCore);
registerHelpCommand(program);

/** With --json, a usage error is JSON on stdout like every other error (output.ts `reportError`). */
const wantsJson = process.argv.slice(2).includes('--json');
const usage: { error?: string; hint?: string } = {};
usageHints(program);

/**
 * After a usage error (a missing argument, an unknown command or option), the help to run is the one of
 * the command that was mistyped: `mooring mcp add --help` shows the add's arguments, `mooring --help` not.
 */
function usageHints(cmd: Command, parents: string[] = []): void {
  const path = [...parents, cmd.name()];
  const see = `see: ${path.join(' ')} --help`;
  cmd.showHelpAfterError(`(${see})`);
  if (wantsJson)
    cmd.configureOutput({
      outputError: (text) => (usage.error = text.replace(/^error: /, '').trim()),
      writeErr: () => void (usage.hint = see),
    });
  for (const sub of cmd.commands) usageHints(sub, path);
}

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exitCode = err.exitCode === 0 ? 0 : EXIT.usage;
    if (wantsJson && err.exitCode !== 0)
      reportError(new MooringError('usage', usage.error ?? err.message, usage.hint), { json: true });
  } else process.exitCode = reportError(err);
}
if (outputClosed()) process.exitCode = EXIT.ok;
