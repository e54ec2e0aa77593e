// Text from a server, a registry or a file is untrusted wherever it is shown (docs/untrusted-text.md, "Untrusted
// text"). A terminal obeys the characters it prints: ESC and CSI sequences clear lines, move the cursor,
// recolour or retitle the window; a carriage return overwrites the start of a line; bidi controls (U+202E
// right-to-left override, the isolates) and other invisible format characters reorder or hide what is
// read. This is the one place that names those characters and shows them as visible escapes instead.

/**
 * Characters no untrusted string may put on a terminal as they are: C0 and C1 controls and DEL (`Cc`),
 * format characters (`Cf`: bidi embeddings, overrides, isolates and marks, zero-width characters, the
 * byte order mark, Unicode tag characters) and the line and paragraph separators (`Zl`, `Zp`).
 */
export const UNSAFE_CHARS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** `\x1b`, `\r`, `\u202e`: a visible, unambiguous spelling of one unsafe character. */
export function visibleEscape(ch: string): string {
  switch (ch) {
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
  }
  const code = ch.codePointAt(0)!;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\u{${code.toString(16)}}`;
}

export interface EscapeOptions {
  /** Keep newlines and tabs as they are (a tool's text result, a description); default: one line. */
  multiline?: boolean;
}

/**
 * The text with every unsafe character shown as a visible escape (`\x1b[2K`, `\u202e`), so it reads as
 * what it is and cannot act on the terminal. With `multiline`, `\n` and `\t` stay; `\r` never does.
 */
export function escapeUntrusted(text: string, opts: EscapeOptions = {}): string {
  return text.replace(UNSAFE_CHARS, (ch) =>
    opts.multiline && (ch === '\n' || ch === '\t') ? ch : visibleEscape(ch),
  );
}

/**
 * JSON for a terminal or a pipe: the same value as `JSON.stringify` (it parses back to the same thing),
 * with every unsafe character inside its strings written as a `\uXXXX` escape. `JSON.stringify` already
 * escapes C0 controls; C1 controls, bidi controls and separators it leaves raw.
 */
export function jsonForTerminal(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? 'null').replace(UNSAFE_CHARS, (ch) => {
    if (ch === '\n' || ch === '\t' || ch === '\r') return ch; // indentation; string contents are escaped already
    let out = '';
    for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return out;
  });
}
