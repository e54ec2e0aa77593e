// `mooring mcp flows`: the pairs of servers data may flow between without asking (docs/trust.md), listed,
// allowed and revoked through the permissions service (the Permissions screen shows the same list).
import type { Command } from 'commander';
import type { CoreRunner } from './coreRunner';
import { print, printJson, say, tty } from './terminalText';

export function registerFlowCommands(mcp: Command, withCore: CoreRunner): void {
  const flows = mcp
    .command('flows')
    .description('the pairs of servers a conversation’s data may flow between without asking');
  flows
    .command('list', { isDefault: true })
    .description('list the allowed pairs')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withCore(
        async (core) => {
          const pairs = (await core.permissions.list()).flows;
          if (o.json) return void printJson(pairs);
          if (!pairs.length)
            return void print('No pair of servers is allowed: every flow between servers asks.\n');
          for (const p of pairs)
            print(
              tty`${p.from === '*' ? 'any server' : p.from} → ${p.to}  (since ${new Date(p.allowedAt).toISOString()})\n`,
            );
        },
        { json: o.json },
      ),
    );
  flows
    .command('allow')
    .description(
      'let what a conversation read from FROM go to TO’s tools without asking (FROM * : TO is a trusted destination)',
    )
    .argument('<from>')
    .argument('<to>')
    .option('--json', 'machine-readable output')
    .action(async (from: string, to: string, o) =>
      withCore(
        async (core) => {
          await core.permissions.allowFlow(from, to);
          if (o.json) return void printJson({ ok: true, from, to });
          say(tty`data read from ${from === '*' ? 'any server' : from} may now go to ${to} without asking\n`);
        },
        { json: o.json },
      ),
    );
  flows
    .command('revoke')
    .description('take a pair back (without TO: every pair from FROM)')
    .argument('<from>')
    .argument('[to]')
    .option('--json', 'machine-readable output')
    .action(async (from: string, to: string | undefined, o) =>
      withCore(
        async (core) => {
          const { revoked } = await core.permissions.revoke({ kind: 'flow', from, ...(to ? { to } : {}) });
          if (o.json) return void printJson({ ok: true, revoked });
          say(tty`revoked ${revoked} pair(s)\n`);
        },
        { json: o.json },
      ),
    );
}
