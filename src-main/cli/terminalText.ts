// The edge where text meets the terminal (docs/untrusted-text.md, "Untrusted text"): every line the CLI prints
// is built with `tty`, which escapes each interpolated value, so no string from a server, a registry or a
// file can clear a line, move the cursor, recolour, retitle the window or reorder what is read. The
// literal parts of the template are ours and stay as written. `--json` goes through `jsonForTerminal`.
import { escapeUntrusted, jsonForTerminal } from '@shared/untrustedText';

/** A value that may keep its newlines and tabs (a tool's text, a description); still escaped otherwise. */
export class MultilineText {
  constructor(readonly text: string) {}
}

export const multiline = (text: string): MultilineText => new MultilineText(text);

/** One value as the terminal may show it. */
export function safe(value: unknown): string {
  if (value instanceof MultilineText) return escapeUntrusted(value.text, { multiline: true });
  return escapeUntrusted(typeof value === 'string' ? value : String(value));
}

/** A template whose every `${value}` is escaped (one line, unless wrapped in `multiline`). */
export function tty(strings: TemplateStringsArray, ...values: unknown[]): string {
  let out = strings[0]!;
  values.forEach((v, i) => (out += safe(v) + strings[i + 1]!));
  return out;
}

/** Writes a line built with `tty` to stderr (notes, prompts, progress) or stdout (results). */
export const say = (text: string): boolean => process.stderr.write(text);
export const print = (text: string): boolean => process.stdout.write(text);

/** Pretty JSON on stdout: the same value, with unsafe characters as `\uXXXX` escapes. */
export const printJson = (value: unknown): boolean => print(`${jsonForTerminal(value, 2)}\n`);

/** One JSON value per line (`mooring chat --json`). */
export const printJsonLine = (value: unknown): boolean => print(`${jsonForTerminal(value)}\n`);
