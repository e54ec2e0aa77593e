// `mooring help [COMMAND…]`, and two topics for scripts: `mooring help exit-codes` (what every command's exit
// code means, exitCodes.ts) and `mooring help commands` (every command, one per line: for completion, and for
// checks that loop over all of them).
import type { Command } from 'commander';
import { MooringError } from '../core/errors';
import { EXIT_CODE_DOCS } from './exitCodes';
import { print, printJson, tty } from './terminalText';

/** Every command that runs something (a group such as `mcp` is not one), as typed after `mooring`. */
export function commandPaths(program: Command): { command: string; description: string }[] {
  const out: { command: string; description: string }[] = [];
  const walk = (cmd: Command, path: string[]) => {
    for (const sub of cmd.commands) {
      const here = [...path, sub.name()];
      if (sub.commands.length) walk(sub, here);
      else out.push({ command: here.join(' '), description: sub.description() });
    }
  };
  walk(program, []);
  return out;
}

function describeExitCodes(): string {
  let out = 'Exit codes of every mooring command:\n';
  for (const d of EXIT_CODE_DOCS)
    out += tty`  ${String(d.code).padStart(3)}  ${d.meaning}${d.errors.length ? ` (--json code: ${d.errors.join(', ')})` : ''}\n`;
  return (
    out +
    'With --json, a command that fails prints {"ok": false, "error", "code", "hint"} on stdout; the exit code follows "code".\n'
  );
}

export function registerHelpCommand(program: Command): void {
  program.helpCommand(false);
  program
    .command('help')
    .description('help for a command (mooring help mcp call), or a topic: exit-codes, commands')
    .argument('[command...]', 'a command, or exit-codes, or commands')
    .option('--json', 'machine-readable output (the topics)')
    .action((words: string[], o: { json?: boolean }) => {
      const topic = words.join(' ');
      if (topic === 'exit-codes') {
        if (o.json) printJson(EXIT_CODE_DOCS);
        else print(describeExitCodes());
        return;
      }
      if (topic === 'commands') {
        const all = commandPaths(program);
        if (o.json) printJson(all);
        else for (const c of all) print(tty`${c.command}\n`);
        return;
      }
      let cmd: Command = program;
      for (const word of words) {
        const next = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
        if (!next)
          throw new MooringError(
            'usage',
            `There is no command "${[...words.slice(0, words.indexOf(word)), word].join(' ')}"`,
            'See every command with: mooring help commands',
          );
        cmd = next;
      }
      if (o.json) printJson({ command: topic, help: cmd.helpInformation() });
      else cmd.outputHelp();
    });
}
