// Where `mooring mcp search` and `mooring mcp install` meet the terminal, in one place: the consent text
// (every string from a registry, a bundle or a link escaped by `tty`, terminalText.ts), and the questions
// (consent, each value the server needs, secrets not echoed) through the one queued prompt (terminalPrompt.ts).
import type { InstallInput, InstallPlan, InstallResult, RegistrySearchPage } from '@shared/registry';
import { MooringError } from '../core/errors';
import { readStdinLines } from './secretInput';
import { interactive, terminal } from './terminalPrompt';
import { multiline, say, tty } from './terminalText';
import { isLocalTransport } from '@shared/transports';

export { interactive };

const SOURCE_LINK = {
  mooring: 'a mooring:// link',
  cursor: 'a Cursor install link',
  vscode: 'a VS Code install link',
};

/** The consent: what will run, where it came from, what it is known for, what it will ask. */
export function describePlan(plan: InstallPlan): string {
  const s = plan.source;
  let out =
    s.kind === 'registry'
      ? tty`${s.name} ${s.version}${plan.title ? ` — ${plan.title}` : ''}\n  from the registry at ${s.registry}\n`
      : s.kind === 'bundle'
        ? tty`${plan.title ?? plan.name} ${plan.version ?? ''}\n  from the bundle ${s.file} (SHA-256 ${s.sha256})\n`
        : tty`${plan.name}\n  from ${SOURCE_LINK[s.link]}; only install servers from pages you trust\n`;
  if (plan.description) out += tty`  ${multiline(plan.description.split('\n').slice(0, 3).join('\n'))}\n`;
  if (plan.repository) out += tty`  repository: ${plan.repository}\n`;
  if (plan.websiteUrl) out += tty`  website: ${plan.websiteUrl}\n`;
  if (plan.option) out += tty`  installs: ${plan.option.label}\n`;
  const others = (plan.options ?? []).filter((o) => o.label !== plan.option?.label);
  others.forEach((o) => {
    const n = (plan.options ?? []).indexOf(o) + 1;
    out += tty`  also offered (--option ${n}): ${o.label}${o.unsupported ? ` (not installable: ${o.unsupported})` : ''}\n`;
  });
  out += tty`  ${isLocalTransport(plan.transport) ? 'runs' : 'connects to'}: ${plan.commandLine}\n`;
  out += tty`  ${plan.confinement}\n`;
  out += tty`  OSV: ${plan.osv.text}\n`;
  for (const g of plan.grants) out += tty`  gives it: ${g}\n`;
  for (const i of plan.inputs) out += tty`  asks for ${describeInput(i)}\n`;
  for (const w of plan.warnings) out += tty`  note: ${w}\n`;
  out += tty`  saved as: ${plan.name}\n`;
  return out;
}

function describeInput(i: InstallInput): string {
  const traits = [
    i.required ? 'required' : 'optional',
    ...(i.secret ? ['secret, kept in the keychain'] : []),
    ...(i.default !== undefined && !i.secret ? [`default ${i.default}`] : []),
    ...(i.choices?.length ? [`one of ${i.choices.join(', ')}`] : []),
  ];
  return tty`${i.label} [${i.id}] (${traits.join('; ')})${i.description ? `: ${i.description}` : ''}`;
}

export const sayPlan = (plan: InstallPlan) => say(describePlan(plan));

export const consent = (question: string) => terminal.confirm(question);

/**
 * The values of `--input ID=VALUE` and `--input ID` options. A secret given on the command line is taken with
 * a warning (other users read it there, `ps`); `--input ID` without a value is asked (hidden) on a terminal,
 * else read from standard input, one line each, in the order given.
 */
export async function inputOptions(
  given: string[] | undefined,
  inputs: InstallInput[],
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const fromStdin: string[] = [];
  for (const g of given ?? []) {
    const at = g.indexOf('=');
    const id = at > 0 ? g.slice(0, at) : g;
    if (!id) throw new MooringError('usage', '--input needs an ID', 'e.g. --input env.API_KEY');
    if (at < 0) {
      if (!terminal.available) fromStdin.push(id);
      continue;
    }
    out[id] = g.slice(at + 1);
    if (inputs.find((i) => i.id === id)?.secret)
      say(
        tty`warning: the value of ${id} was on the command line, where other users can read it (ps); next time use --input ${id} and type it when asked, or pipe it in
`,
      );
  }
  if (fromStdin.length) {
    const lines = await readStdinLines();
    fromStdin.forEach((id, i) => {
      const value = lines[i];
      if (!value)
        throw new MooringError(
          'usage',
          `Expected ${fromStdin.length} value(s) on standard input, one line each, in this order: ${fromStdin.join(', ')}`,
          `e.g. printf '%s\\n' "$TOKEN" | mooring mcp install REF --yes --input ${fromStdin[0]}`,
        );
      out[id] = value;
    });
  }
  return out;
}

/** Asks for each value not given yet; Enter keeps the default or, for an optional value, leaves it out. */
export async function askInputs(
  inputs: InstallInput[],
  given: Record<string, string>,
): Promise<Record<string, string>> {
  const out = { ...given };
  for (const i of inputs) {
    if (out[i.id] !== undefined) continue;
    const hint =
      i.default !== undefined && !i.secret ? ` [${i.default}]` : i.required ? '' : ' (Enter to leave out)';
    const answer = await terminal.line(tty`${i.label}${hint}: `, { hidden: i.secret });
    if (answer === null) throw new MooringError('refused', 'Nothing was installed.');
    if (answer.trim() !== '') out[i.id] = answer.trim();
  }
  return out;
}

export function sayInstalled(r: InstallResult): void {
  say(tty`installed ${r.name}: ${r.commandLine}\n`);
  if (r.secrets.length) say(tty`kept in the keychain: ${r.secrets.join(', ')}\n`);
  const safe = r.safeDefaults;
  if (safe.message || safe.pending)
    say(
      tty`${safe.message ?? 'its destructive tools start off when it first connects'} (the default safe set); list them with: mooring mcp tools ${r.name}\n`,
    );
  say(tty`check it with: mooring mcp test ${r.name}\n`);
}

/** `mooring mcp search` as text: one block per server. */
export function describeSearch(page: RegistrySearchPage): string {
  if (!page.servers.length) return tty`No servers found in the registry at ${page.registry}.\n`;
  let out = '';
  for (const s of page.servers) {
    out += tty`${s.name}  ${s.version}${s.title ? `  ${s.title}` : ''}\n`;
    if (s.description) out += tty`    ${s.description.split('\n')[0] ?? ''}\n`;
    out += tty`    runs: ${s.options.map((o) => (o.unsupported ? `${o.label} (not installable)` : o.label)).join('; ') || 'nothing listed'}\n`;
  }
  if (page.nextCursor) out += tty`more: --cursor ${page.nextCursor}\n`;
  if (page.skipped.length)
    out += tty`(${page.skipped.length} entr${page.skipped.length === 1 ? 'y' : 'ies'} skipped: not valid registry entries)\n`;
  return out;
}
