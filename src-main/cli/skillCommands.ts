// `mooring mcp skills|skill`: a server's skills from a terminal (docs/skills.md), on the same core service
// as the Skills screen (core.skills). `skill` shows one skill and prints one of its files, verified against
// the manifest: an inspection, not a load (ext-skills specification, "Reading Skill Content"); `--approve`
// binds an approval to the manifest, `--revoke` takes it back. Every string from the server is printed
// through `tty`, or `printJson` with --json.
import type { Command } from 'commander';
import type { SkillView } from '@shared/skills';
import { MooringError } from '../core/errors';
import type { MooringCore } from '../core/mooringCore';
import { startServer, type CoreRunner } from './coreRunner';
import { multiline, print, printJson, tty } from './terminalText';

const started = (core: MooringCore, name: string): Promise<void> => startServer(core, name);

const STATE: Record<SkillView['approval']['state'], string> = {
  none: 'not approved',
  approved: 'approved',
  changed: 'CHANGED since approved (asks again)',
  dynamic: 'dynamic (no digests: asks every time)',
};

function printSkill(s: SkillView, withFiles: boolean): void {
  const scope = s.approval.scope === 'conversation' ? ' for a conversation' : '';
  print(
    tty`${s.label}  ${s.uri}  [${STATE[s.approval.state]}${s.approval.state === 'approved' ? scope : ''}]\n`,
  );
  print(tty`    ${s.description.split('\n')[0] ?? ''}\n`);
  print(tty`    from server "${s.server}"${s.nestedIn ? `, nested in ${s.nestedIn}` : ''}\n`);
  if (s.allowedTools.length)
    print(
      tty`    asks for allowed-tools: ${s.allowedTools.join(' ')} (${s.approval.toolsGranted ? 'granted' : 'not granted'})\n`,
    );
  if (s.problem) print(tty`    cannot be loaded: ${s.problem}\n`);
  for (const d of s.approval.diff ?? []) print(tty`    changed: ${d.summary}\n`);
  if (withFiles && s.files)
    for (const f of s.files) print(tty`    ${f.path}  ${String(f.size)} bytes  ${f.digest}\n`);
  else if (s.files) print(tty`    ${String(s.files.length)} files, ${String(s.totalBytes)} bytes\n`);
}

export function registerSkillCommands(mcp: Command, withCore: CoreRunner): void {
  mcp
    .command('skills')
    .description("list a server's skills (Skills extension), each with its origin and approval")
    .argument('<name>', 'the server')
    .option('--refresh', 'list again now, not from the cache')
    .option('--json', 'machine-readable output')
    .action(async (name: string, o: { json?: boolean; refresh?: boolean }) =>
      withCore(
        async (core) => {
          await started(core, name);
          const view = await core.skills.server(name, o.refresh ? { refresh: true } : {});
          if (o.json) return void printJson(view);
          if (view.error) print(tty`${name}: ${view.error}\n`);
          else if (!view.skills.length) print(tty`${name} lists no skills.\n`);
          for (const s of view.skills) printSkill(s, false);
          for (const bad of view.invalid) print(tty`refused: ${bad.uri ?? '(no uri)'}: ${bad.reason}\n`);
        },
        { json: o.json === true },
      ),
    );

  mcp
    .command('skill')
    .description(
      'show one skill and print its SKILL.md, or --file, verified against its digest (not a load); --approve or --revoke its approval',
    )
    .argument('<name>', 'the server')
    .argument('<uri>', "the skill's SKILL.md URI")
    .option('--file <path>', 'a file of the skill, relative to its root')
    .option('--approve', 'approve the skill as its manifest reads now; any change to it asks again')
    .option('--grant-tools', 'with --approve: also grant the tools its allowed-tools asks for')
    .option('--revoke', "revoke the skill's approval")
    .option('--json', 'machine-readable output')
    .action(
      async (
        name: string,
        uri: string,
        o: { json?: boolean; file?: string; approve?: boolean; grantTools?: boolean; revoke?: boolean },
      ) =>
        withCore(
          async (core) => {
            if (o.approve && o.revoke)
              throw new MooringError('usage', 'Pass --approve or --revoke, not both.');
            if (o.grantTools && !o.approve)
              throw new MooringError('usage', '--grant-tools goes with --approve.');
            if (o.revoke) {
              const revoked = await core.skills.revoke(name, uri, 'user:cli');
              if (o.json) return void printJson({ revoked });
              return void print(tty`${String(revoked)} skill approval${revoked === 1 ? '' : 's'} revoked.\n`);
            }
            await started(core, name);
            const skill = o.approve
              ? await core.skills.approve({
                  server: name,
                  uri,
                  scope: 'always',
                  grantTools: o.grantTools === true,
                  decidedBy: 'user:cli',
                })
              : await core.skills.skill(name, uri);
            const content = await core.skills.inspect(name, uri, o.file);
            if (o.json) return void printJson({ skill, content });
            printSkill(skill, true);
            print(
              tty`\n--- ${content.uri} from "${name}" (${content.verified ? 'verified' : 'dynamic, unverified'}) ---\n`,
            );
            print(tty`${multiline(content.text)}\n`);
          },
          { json: o.json === true },
        ),
    );
}
