// `mooring mcp sandbox NAME`: what a server may touch and what it was refused, at the terminal
// (docs/confinement.md). `--show` lists it; `--allow-write PATH` and `--allow-domain HOST` widen it (the
// terminal's one-click "allow"); `--on`/`--off` is the "Run confined" switch; `--unconfined-here` starts it
// unconfined where confinement cannot run. All through core.confinement; a running app restarts the
// server with the change.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { SandboxViolation } from '@shared/confinement';
import { MooringError } from '../core/errors';
import type { CoreRunner } from './coreRunner';
import { collect } from './output';
import { print, printJson, say, tty } from './terminalText';

export function registerSandboxCommand(mcp: Command, withCore: CoreRunner): void {
  mcp
    .command('sandbox')
    .description('show or change what a confined server may write and reach, and what it was refused')
    .argument('<name>', 'the server')
    .option('--show', 'what it may touch and what it was refused (the default)')
    .option('--allow-write <path>', 'let it write PATH (repeatable)', collect)
    .option(
      '--allow-domain <host>',
      'let it reach HOST, e.g. api.example.com or localhost:5432 (repeatable)',
      collect,
    )
    .option('--on', 'run it confined')
    .option('--off', 'run it unconfined: it can do everything you can')
    .option(
      '--unconfined-here',
      'where confinement cannot run (Windows, no bubblewrap), start it unconfined instead of refusing',
    )
    .option('--confined-only', 'take --unconfined-here back')
    .option('--json', 'machine-readable output')
    .action(async (name: string, o) =>
      withCore(
        async (core) => {
          if (o.on && o.off) throw new MooringError('usage', '--on and --off together say nothing.');
          if (o.on !== undefined || o.off !== undefined) {
            await core.confinement.setConfined(name, Boolean(o.on));
            say(o.on ? tty`${name} runs confined\n` : tty`${name} runs unconfined\n`);
          }
          if (o.unconfinedHere || o.confinedOnly) {
            await core.confinement.runUnconfinedWhereUnavailable(name, Boolean(o.unconfinedHere));
            say(
              o.unconfinedHere
                ? tty`where confinement cannot run, ${name} starts unconfined\n`
                : tty`${name} starts only where it can run confined\n`,
            );
          }
          if (o.allowWrite?.length || o.allowDomain?.length) {
            await core.confinement.allow(name, {
              ...(o.allowWrite ? { write: (o.allowWrite as string[]).map(absolute) } : {}),
              ...(o.allowDomain ? { domain: o.allowDomain as string[] } : {}),
            });
            for (const p of (o.allowWrite as string[] | undefined) ?? []) say(tty`${name} may write ${p}\n`);
            for (const d of (o.allowDomain as string[] | undefined) ?? []) say(tty`${name} may reach ${d}\n`);
          }
          const changed =
            o.on || o.off || o.unconfinedHere || o.confinedOnly || o.allowWrite || o.allowDomain;
          if (changed && !o.show) return;
          const shown = await core.confinement.show(name);
          if (o.json) return void printJson(shown);
          print(tty`${name}: ${shown.view.summary}\n`);
          if (shown.view.state === 'unavailable')
            print(tty`  it does not start here: ${shown.view.reason ?? ''}\n  ${shown.view.hint ?? ''}\n`);
          if (shown.view.required) print('  the managed policy requires confinement\n');
          const fs = shown.sandbox.filesystem ?? {};
          for (const [label, list] of [
            ['may write', fs.allowWrite],
            ['may not read', fs.denyRead],
            ['may not write', fs.denyWrite],
            ['may reach', shown.sandbox.network?.allowedDomains],
          ] as const)
            if (list?.length) print(tty`  ${label}: ${list.join(', ')}\n`);
          if (shown.sandboxEnabled && !shown.view.observesFiles)
            print('  refused file accesses are not observed on this machine (install strace to see them)\n');
          if (!shown.violations.length) return void print('  nothing refused so far\n');
          print(`  refused (${shown.violations.length}):\n`);
          for (const v of shown.violations) print(describeViolation(name, v));
        },
        { json: o.json },
      ),
    );
}

/** A path as typed at the terminal: `~/…` as is, a relative one from here. */
export const absolute = (p: string) => (p === '~' || p.startsWith('~/') ? p : resolve(p));

/** One refused access and the command that would allow it. */
export function describeViolation(name: string, v: SandboxViolation): string {
  const times = v.count > 1 ? ` (${v.count} times)` : '';
  let out = tty`    ${v.kind}: ${v.operation} ${v.target}${times}, last ${new Date(v.last).toISOString()}\n`;
  if (v.allow?.write)
    out += tty`      allow it: mooring mcp sandbox ${name} --allow-write ${v.allow.write}\n`;
  else if (v.allow?.domain)
    out += tty`      allow it: mooring mcp sandbox ${name} --allow-domain ${v.allow.domain}\n`;
  else if (v.noAllowReason) out += tty`      not offered: ${v.noAllowReason}\n`;
  return out;
}
