// `mooring mcp add|remove|trust|enable|disable|approve`: the commands that change which servers run and how,
// each a thin door over `core.servers` or `core.workspaces`, each with --json (one document on stdout).
import type { Command } from 'commander';
import type { ServerConfigInput, TransportKind } from '@shared/config';
import { confinementSummary, mergeSandbox, profileKindOf, sandboxProfile } from '@shared/confinement';
import { MooringError } from '../core/errors';
import { describeCommandLine } from '../core/safety/commandAllowlist';
import { describeOffered } from '../core/workspace/workspaceReport';
import type { CoreRunner } from './coreRunner';
import { collect, parsePairs } from './output';
import { absolute } from './sandboxCommands';
import { readSecretValues } from './secretInput';
import { interactive, terminal } from './terminalPrompt';
import { printJson, say, tty } from './terminalText';

const JSON_HELP = 'print the outcome as JSON on stdout';

/** What `mooring mcp set` changes: limits and settings of one server (trust and tools have commands of their own). */
const SETTABLE = {
  url: 'string',
  maxMessageMB: 'number',
  timeoutSeconds: 'number',
  samplingTokensPerHour: 'number',
  policy: 'string',
  logLevel: 'string',
} as const;

export function registerServerCommands(mcp: Command, withCore: CoreRunner): void {
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
    .option('--replace', 'replace the server of this name: the whole entry, as given here')
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      `
Secrets never belong on the command line (other users read it with ps):
  mooring mcp add github --secret-env GITHUB_TOKEN -- npx -y @modelcontextprotocol/server-github
asks for the value without echoing it; from a script, pipe it in:
  printf '%s\\n' "$GITHUB_TOKEN" | mooring mcp add github --secret-env GITHUB_TOKEN -- npx -y …`,
    )
    .action(async (name: string, command: string[], o) =>
      withCore(
        async (core) => {
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
          const exists = o.replace && (await core.servers.configs()).some((c) => c.name === name);
          const saved = exists
            ? await core.servers.update(name, input)
            : await core.servers.add(input, { start: false, safeDefaults: !o.allTools, source: 'cli' });
          const keychain = saved.secretEnv.concat(saved.secretHeaders);
          const commandLine = describeCommandLine(saved);
          if (o.json)
            return void printJson({
              ok: true,
              [exists ? 'replaced' : 'added']: saved.name,
              commandLine,
              keychain,
              safeSet: !exists && !o.allTools,
              confinement: confinementSummary(saved),
            });
          for (const w of keychain) say(tty`kept ${w} in the keychain\n`);
          say(tty`${exists ? 'replaced' : 'added'} ${saved.name}: ${commandLine}\n`);
          say(tty`${confinementSummary(saved)}\n`);
          if (!exists && !o.allTools)
            say(
              tty`its destructive tools start off (the default safe set, applied when it first connects); list them with: mooring mcp tools ${saved.name}\n`,
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
    .option('--yes', 'consent to what is shown without asking (what is held back stays held back)')
    .option(
      '--allow-variable <NAME>',
      'let this remote server receive a secret-looking environment variable its URL or headers name (repeat for more)',
      collect,
    )
    .option('--json', JSON_HELP)
    .action(async (name: string, o) =>
      withCore(
        async (core) => {
          const scan = await core.workspaces.scan(o.workspace);
          const offered = scan.servers.find((s) => s.name === name);
          if (offered) {
            say(tty`${name} (${offered.source}):\n`);
            for (const line of describeOffered(offered)) say(tty`${line}\n`);
          }
          if (!o.yes && !interactive())
            throw new MooringError(
              'refused',
              `Approving runs this command on your machine; ${name} was not approved.`,
              `Review what is shown above, then re-run with --yes to consent: mooring mcp approve ${name} --workspace ${o.workspace} --yes`,
            );
          if (!o.yes && !(await terminal.confirm(tty`Approve ${name}?`)))
            throw new MooringError('refused', `${name} was not approved.`);
          // What an import never carries is a question of its own, answered no unless the person says yes.
          const allowHeldBack =
            !o.yes &&
            offered !== undefined &&
            offered.heldBack.length > 0 &&
            (await terminal.confirm(tty`Also allow what is held back above for ${name}?`));
          const allowVariables: string[] = o.allowVariable ?? [];
          await core.workspaces.approve(o.workspace, name, {
            allowHeldBack,
            allowVariables,
            // What was shown above is what is approved: an entry edited while the question was open is refused.
            ...(offered ? { pin: offered.pin } : {}),
            ask: async (input) => {
              if (!interactive())
                throw new MooringError(
                  'usage',
                  `${name} needs the value of ${input.id}, which is asked on a terminal`,
                  'Run this command in a terminal to type it (hidden where it is a secret).',
                );
              const value = await terminal.line(
                tty`${input.description ?? input.id}${input.password ? ' (hidden, not echoed)' : ''}: `,
                { hidden: input.password },
              );
              if (value === null) throw new MooringError('cancelled', `${name} was not approved.`);
              return value.trim();
            },
          });
          if (o.json)
            return void printJson({
              ok: true,
              approved: name,
              workspace: scan.workspace,
              allowHeldBack,
              allowVariables,
            });
          say(tty`approved ${name} for ${scan.workspace}\n`);
          if (offered?.heldBack.length)
            say(
              allowHeldBack
                ? 'with what was held back\n'
                : 'without what was held back (to allow it later, run this command again and answer yes)\n',
            );
          const held = offered?.variables.filter((v) => v.held && !allowVariables.includes(v.name)) ?? [];
          for (const v of held)
            say(
              tty`${v.name} is not sent to ${name} (to allow it: mooring mcp approve ${name} --workspace ${o.workspace} --allow-variable ${v.name})\n`,
            );
        },
        { json: o.json },
      ),
    );

  mcp
    .command('remove')
    .description('remove a server (and its keychain secrets)')
    .argument('<name>')
    .option('--json', JSON_HELP)
    .action(async (name: string, o) =>
      withCore(
        async (core) => {
          await core.servers.remove(name);
          if (o.json) printJson({ ok: true, removed: name });
          else say(tty`removed ${name}\n`);
        },
        { json: o.json },
      ),
    );

  mcp
    .command('allow-variable')
    .description(
      "let an imported remote server's URL or headers carry a secret-looking environment variable its import held back",
    )
    .argument('<name>')
    .argument('<variable>')
    .option('--json', JSON_HELP)
    .action(async (name: string, variable: string, o) =>
      withCore(
        async (core) => {
          const config = await core.servers.get(name);
          const held = config.heldVariables ?? [];
          if (!held.includes(variable))
            throw new MooringError(
              'usage',
              `${name} holds back no variable named ${variable}`,
              held.length ? `It holds back: ${held.join(', ')}.` : 'It holds back none.',
            );
          await core.servers.update(name, { ...config, heldVariables: held.filter((v) => v !== variable) });
          if (o.json) return void printJson({ ok: true, server: name, allowed: variable });
          say(tty`${name} may now receive ${variable} in its URL or headers\n`);
        },
        { json: o.json },
      ),
    );

  mcp
    .command('trust')
    .description('let a server run a command outside the runtime allowlist (an import never does this)')
    .argument('<name>')
    .option('--off', 'take the trust back')
    .option('--json', JSON_HELP)
    .action(async (name: string, o) =>
      withCore(
        async (core) => {
          const saved = await core.servers.trust(name, !o.off);
          if (o.json)
            return void printJson({
              ok: true,
              server: name,
              trusted: !o.off,
              commandLine: describeCommandLine(saved),
            });
          say(
            o.off
              ? tty`${name} is no longer trusted\n`
              : tty`${name} is trusted to run: ${describeCommandLine(saved)}\n`,
          );
        },
        { json: o.json },
      ),
    );

  mcp
    .command('set')
    .description(
      `change one of a server's limits or settings: ${Object.keys(SETTABLE).join(', ')} (mooring mcp set files maxMessageMB 16)`,
    )
    .argument('<name>')
    .argument('<key>', Object.keys(SETTABLE).join(' | '))
    .argument('<value>')
    .option('--json', JSON_HELP)
    .action(async (name: string, key: string, raw: string, o) =>
      withCore(
        async (core) => {
          const kind = SETTABLE[key as keyof typeof SETTABLE];
          if (!kind)
            throw new MooringError(
              'usage',
              `"${key}" is not a server setting this command changes`,
              `It changes ${Object.keys(SETTABLE).join(', ')}; trust with mooring mcp trust NAME, tools with mooring mcp tools NAME --enable/--disable.`,
            );
          const value = kind === 'number' ? (Number.isFinite(Number(raw)) ? Number(raw) : raw) : raw;
          // The whole entry goes through the same checks as the app's form (ServerConfigSchema).
          const saved = await core.servers.update(name, { ...(await core.servers.get(name)), [key]: value });
          const now = (saved as Record<string, unknown>)[key];
          if (o.json) printJson({ ok: true, server: name, key, value: now });
          else say(tty`${name}: ${key} = ${String(now)}\n`);
        },
        { json: o.json },
      ),
    );

  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const)
    mcp
      .command(verb)
      .description(
        enabled
          ? 'switch a server on: it runs again (mcp call, chat, serve, the app)'
          : 'switch a server off without removing it: nothing starts it until mooring mcp enable NAME',
      )
      .argument('<name>')
      .option('--json', JSON_HELP)
      .action(async (name: string, o) =>
        withCore(
          async (core) => {
            await core.servers.setEnabled(name, enabled);
            if (o.json) printJson({ ok: true, server: name, enabled });
            else say(tty`${name} is ${enabled ? 'enabled' : 'disabled'}\n`);
          },
          { json: o.json },
        ),
      );
}
