// `mooring mcp import FILE`: the servers of another client's config (config/clientFormats.ts names them),
// added only with consent to what the consent shows (README, "Safety"): each command line or URL, what else
// each server may do (working directory, environment and header names, policy), and the settings of the
// file an import never carries. Everything shown came from the file and is escaped. Nothing is started.
// `mooring mcp detect`: the client configs found at their documented places, and their servers.
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { MooringError } from '../core/errors';
import type { MooringCore } from '../core/mooringCore';
import type { ImportPreview } from '../core/services/configuredServers';
import { describeVariable } from '@shared/importConsent';
import type { DetectedClient } from '@shared/wire';
import type { CoreRunner } from './coreRunner';
import { askInputs, inputOptions } from './installTerminal';
import { collect, EXIT } from './output';
import { interactive, terminal } from './terminalPrompt';
import { print, printJson, say, tty } from './terminalText';

/** The consent text: one block per server. */
export function describeImport(file: string, preview: ImportPreview): string {
  let out = tty`${file}: ${preview.formatName}, ${preview.servers.length} server(s):\n`;
  for (const s of preview.servers) {
    out += tty`  ${s.config.name}${s.exists ? ' (already configured)' : ''}: ${s.commandLine}\n`;
    out += tty`      ${s.confinement}\n`;
    for (const g of s.grants) out += tty`      ${g.text}\n`;
    for (const v of s.variables) out += tty`      variable: ${describeVariable(v)}\n`;
    for (const d of s.dropped) out += tty`      not imported: ${d.text}\n`;
  }
  for (const r of preview.renamed) out += tty`  ("${r.from}" is imported as "${r.to}")\n`;
  for (const w of preview.warnings) out += tty`  note: ${w}\n`;
  const noKeychain = preview.missingKeychain;
  if (noKeychain) {
    out += 'No keychain is reachable here, and these servers have secrets to keep in it:\n';
    for (const [name, fields] of Object.entries(noKeychain.servers))
      out += tty`  ${name}: ${fields.join(', ')}\n`;
    out +=
      'They are not imported: a server whose secrets cannot be kept could never start. To import them, ' +
      'replace each secret value in the file with ${env:NAME} and export NAME before starting Mooring, or ' +
      'run this where a keychain is unlocked.\n';
  }
  if (preview.servers.some((s) => s.variables.some((v) => v.held)))
    out +=
      'A variable "held back" is not sent: the server does not start with it until you allow it for that server\n' +
      '(--allow-variable SERVER:NAME here, or mooring mcp allow-variable SERVER NAME later).\n';
  if (preview.servers.some((s) => s.dropped.length))
    out +=
      'Settings marked "not imported" are never taken from a file; turn one on yourself afterwards, one server at a time\n' +
      "(mooring mcp trust NAME, or the server's settings in the app).\n";
  return out;
}

/** `mooring mcp detect` as text: one line per config found, then its servers. */
export function describeDetected(found: DetectedClient[]): string {
  if (!found.length) return 'No other MCP client’s config was found on this machine.\n';
  let out = '';
  for (const c of found) {
    const held = c.error
      ? `cannot be read: ${c.error}`
      : `${c.servers.length} server${c.servers.length === 1 ? '' : 's'}`;
    out += tty`${c.label}  ${c.path}  ${held}\n`;
    for (const s of c.servers)
      out += tty`    ${s.name}${s.exists ? ' (already in Mooring)' : ''}: ${s.commandLine}\n`;
  }
  return out + 'Import one with: mooring mcp import PATH\n';
}

export function registerImportCommand(mcp: Command, withCore: CoreRunner): void {
  mcp
    .command('detect')
    .description('list the MCP client configs found on this machine and the servers each holds')
    .option('--json', 'machine-readable output')
    .action(async (o) =>
      withCore(
        async (core) => {
          const found = await core.clients.detect();
          if (o.json) printJson(found);
          else print(describeDetected(found));
        },
        { json: o.json },
      ),
    );

  mcp
    .command('import')
    .description(
      'import servers from another client’s config: Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Zed, Goose, Continue, LM Studio, Cherry Studio, Mooring',
    )
    .argument('<file>')
    .option('--yes', 'consent to everything shown without asking')
    .option('--replace', 'replace servers of the same name')
    .option(
      '--input <ID[=VALUE]>',
      'the value of a VS Code input (${input:ID}); ID alone: asked hidden, or read from standard input',
      collect,
    )
    .option('--all-tools', 'skip the default safe set: leave their destructive tools on')
    .option(
      '--allow-variable <SERVER:NAME>',
      "let SERVER's URL or headers carry the secret-looking environment variable NAME (repeatable)",
      collect,
    )
    .option('--json', 'print the outcome as JSON on stdout')
    .action(async (file: string, o) => withCore((core) => importFile(core, file, o), { json: o.json }));
}

interface ImportOptions {
  yes?: boolean;
  replace?: boolean;
  input?: string[];
  allTools?: boolean;
  allowVariable?: string[];
  json?: boolean;
}

/** `--allow-variable SERVER:NAME`, each checked against what the consent showed held for that server. */
function allowedVariables(preview: ImportPreview, given: string[] = []): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const pair of given) {
    const at = pair.indexOf(':');
    const server = pair.slice(0, at);
    const name = pair.slice(at + 1);
    const s = preview.servers.find((x) => x.config.name === server);
    if (at < 1 || !s || !s.variables.some((v) => v.held && v.name === name))
      throw new MooringError(
        'usage',
        `--allow-variable ${pair}: no server of the file sends a held-back variable by that name; nothing was imported.`,
        'Give SERVER:NAME as listed "held back" above.',
      );
    (out[server] ??= []).push(name);
  }
  return out;
}

async function importFile(core: MooringCore, file: string, o: ImportOptions): Promise<number> {
  const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new MooringError(
      'config_not_found',
      `Cannot read ${file}: ${e.code ?? e.message}`,
      'Check the path.',
    );
  });
  // Shown for consent before anything is written.
  const preview = await core.servers.previewImport(text, file);
  say(describeImport(file, preview));
  const allowVariables = allowedVariables(preview, o.allowVariable);
  // A server whose secrets no keychain can keep would never start: it is left out, and said so.
  const unkept = Object.keys(preview.missingKeychain?.servers ?? {});
  const names = preview.servers.map((s) => s.config.name).filter((n) => !unkept.includes(n));
  if (!names.length)
    throw new MooringError(
      'secret_unavailable',
      `Nothing was imported: every server in ${file} has secrets, and no keychain is reachable to keep them`,
      'Replace each secret value in the file with ${env:NAME} and export NAME before starting Mooring, or import where a keychain is unlocked.',
    );
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
  // VS Code inputs (`${input:ID}`): asked now, kept in the keychain, filled in at start.
  const inputs = preview.inputs.map((i) => ({
    id: i.id,
    label: `input ${i.id}${i.description ? ` (${i.description})` : ''}`,
    secret: i.password,
    required: true,
  }));
  let inputValues = await inputOptions(o.input, inputs);
  if (interactive()) inputValues = await askInputs(inputs, inputValues);
  const merged = await core.servers.import({
    text,
    fileName: file,
    replaceExisting: Boolean(o.replace),
    inputValues,
    ...(unkept.length ? { names } : {}),
    ...(o.allTools ? { safeDefaults: false } : {}),
    allowVariables,
  });
  const imported = [...merged.added, ...merged.replaced];
  if (o.json) {
    printJson({ ok: true, imported, notImported: unkept, safeDefaults: merged.safeDefaults });
    return EXIT.ok;
  }
  say(tty`imported ${imported.length} server(s); none was started\n`);
  for (const [name, safe] of Object.entries(merged.safeDefaults))
    say(
      tty`  ${name}: ${safe.message ?? (safe.pending ? 'its destructive tools start off when it first connects (the default safe set)' : 'no destructive tools')}\n`,
    );
  if (unkept.length)
    say(tty`not imported (their secrets cannot be kept without a keychain): ${unkept.join(', ')}\n`);
  return EXIT.ok;
}
