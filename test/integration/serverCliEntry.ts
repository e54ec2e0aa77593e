// Test-only stand-in for bin/mooring.mjs until src-main/cli/index.ts registers `serve` (issue 8): the same
// commander program shape and the same withCore runner contract, with only the serve command.
// The server tests use bin/mooring.mjs itself as soon as index.ts calls registerServeCommand.
import { Command } from 'commander';
import { MooringCore } from '../../src-main/core/mooringCore';
import { registerServeCommand } from '../../src-main/cli/serveCommand';
import { reportError, EXIT } from '../../src-main/cli/output';
import type { CoreRunner } from '../../src-main/cli/mcpCommands';

const program = new Command('mooring').exitOverride();
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
registerServeCommand(program, withCore);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => (process.exitCode = 130));
await program.parseAsync(process.argv);
