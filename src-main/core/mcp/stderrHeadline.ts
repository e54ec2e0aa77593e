// Which of a server's last stderr lines says why it stopped. Servers print notices too ("No valid root
// directories…", a start-up banner); the line a person needs is the one that looks like an error: the last
// such line, else the last line.
const ERROR_LIKE =
  // `ValueError`, `TypeError`, `IOException` count: no word boundary before error/exception.
  /(error|exception)\b|\b(fatal|panic|traceback|failed|failure|cannot|can't|could not|denied|not found|refused|invalid|missing|unhandled|aborted)\b/i;
/** A stack frame names the place, not the reason. */
const STACK_FRAME = /^\s*at\s/;

/** True for a stderr line that reads like a failure rather than a notice. */
export function looksLikeError(line: string): boolean {
  return ERROR_LIKE.test(line) && !STACK_FRAME.test(line);
}

/** The line to show as the reason, from the last lines of stderr (oldest first); undefined when none. */
export function stderrHeadline(lines: readonly string[]): string | undefined {
  const kept = lines.map((l) => l.trim()).filter(Boolean);
  for (let i = kept.length - 1; i >= 0; i--) if (looksLikeError(kept[i]!)) return kept[i];
  return kept.at(-1);
}
