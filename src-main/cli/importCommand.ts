// `mooring mcp import FILE`: the servers of a Claude Desktop, Cursor, VS Code or Mooring file, added only
// with consent to what the consent shows (README, "Safety"): each command line or URL, what else each
// server may do (working directory, environment and header names, policy), and the settings of the file
// an import never carries. Everything shown came from the file and is escaped. Nothing is started.
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { MooringError } from '../core/errors';
import type { ImportPreview } from '../core/services/configuredServers';
import type { CoreRunner } from './coreRunner';
import { interactive, terminal } from './terminalPrompt';
import { say, tty } from './terminalText';

/** The consent text: one block per server. */
export function describeImport(file: string, preview: ImportPreview): string {
  let out = tty`${file}: ${preview.format} format, ${preview.servers.length} server(s):\n`;
  for (const s of preview.servers) {
    out += tty`  ${s.config.name}${s.exists ? ' (already configured)' : ''}: ${s.commandLine}\n`;
    for (const g of s.grants) out += tty`      ${g.text}\n`;
    for (const d of s.dropped) out += tty`      not imported: ${d.text}\n`;
  }
  for (const r of preview.renamed) out += tty`  ("${r.from}" is imported as "${r.to}")\n`;
  for (const w of preview.warnings) out += tty`  note: ${w}\n`;
  if (preview.servers.some((s) => s.dropped.length))
    out +=
      'Settings marked "not imported" are never taken from a file; turn one on yourself afterwards, one server at a time\n' +
      "(mooring mcp trust NAME, or the server's settings in the app).\n";
  return out;
}

export function registerImportCommand(mcp: Command, withCore: CoreRunner): void {
  mcp
    .command('import')
    .description('import servers from a Claude Desktop, Cursor, VS Code or Mooring config file')
    .argument('<file>')
    .option('--yes', 'consent to everything shown without asking')
    .option('--replace', 'replace servers of the same name')
    .option('--all-tools', 'skip the default safe set: leave their destructive tools on')
    .action(async (file: string, o) =>
      withCore(async (core) => {
        const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
          throw new MooringError(
            'config_not_found',
            `Cannot read ${file}: ${e.code ?? e.message}`,
            'Check the path.',
          );
        });
        // Shown for consent before anything is written.
        say(describeImport(file, await core.servers.previewImport(text, file)));
        if (!o.yes) {
          if (!interactive())
            throw new MooringError(
              'refused',
              'Importing runs these commands on your machine; nothing was imported.',
              'Review what is shown above, then re-run with --yes to consent.',
            );
          if (!(await terminal.confirm('Add these servers? They will run the commands shown above.')))
            throw new MooringError('refused', 'Nothing was imported.');
        }
        const merged = await core.servers.import({
          text,
          fileName: file,
          replaceExisting: Boolean(o.replace),
          ...(o.allTools ? { safeDefaults: false } : {}),
        });
        say(tty`imported ${merged.added.length + merged.replaced.length} server(s); none was started\n`);
        for (const [name, safe] of Object.entries(merged.safeDefaults))
          say(
            tty`  ${name}: ${safe.message ?? (safe.pending ? 'its destructive tools start off when it first connects (the default safe set)' : 'no destructive tools')}\n`,
          );
      }),
    );
}
