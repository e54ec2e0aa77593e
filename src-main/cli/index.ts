// `mooring`: the core from a terminal (ARCHITECTURE.md, "Processes and entry points").
import { Command, CommanderError } from 'commander';
import { MooringCore } from '../core/mooringCore';
import { registerChatCommand } from './chatCommand';
import { registerMcpCommands, type CoreRunner } from './mcpCommands';
import { reportError, EXIT } from './output';

const program = new Command('mooring')
  .description('Mooring: a desktop MCP host, from the command line')
  .version('0.1.0')
  .exitOverride()
  .showHelpAfterError('(run with --help for usage)');

/** Opens the core, runs one command, closes every session, and exits with the command's code. */
const withCore: CoreRunner = async (fn, opts = {}) => {
  let core: MooringCore | undefined;
  let code: number = EXIT.ok;
  try {
    core = await MooringCore.open();
    code = (await fn(core)) ?? EXIT.ok;
  } catch (err) {
    code = reportError(err, opts);
  } finally {
    await core?.close();
  }
  process.exitCode = code;
};

registerMcpCommands(program, withCore);
registerChatCommand(program, withCore);

let closing = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.on(sig, () => {
    if (closing) return;
    closing = true;
    process.exitCode = 130;
    // The core's sessions close through withCore's finally; a second signal is ignored (idempotent).
  });

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exitCode = err.exitCode === 0 ? 0 : EXIT.usage;
  else process.exitCode = reportError(err);
}
