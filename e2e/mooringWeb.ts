// `mooring web` as the CLI runs it (the lead registers the same command in src-main/cli/index.ts).
import { Command } from 'commander';
import { registerWebCommand } from '../src-main/cli/webCommand';

const program = new Command('mooring');
registerWebCommand(program);
await program.parseAsync(process.argv);
