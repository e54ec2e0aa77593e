// A `config_invalid` error's message is one issue per line, `FILE:LINE:COLUMN: PATH: MESSAGE`
// (core/config/jsonDiagnostics.ts, `formatIssue`), which a terminal prints as is and an editor can jump to.
// The app reads the lines back to show the file, and each place in it, in words.

export interface ConfigIssueLine {
  file: string;
  line: number;
  column: number;
  /** What the issue says, its JSON path first when it has one (`servers[2].timeoutSeconds: …`). */
  text: string;
}

// Greedy up to the last `:LINE:COLUMN: ` of the line, so a Windows drive letter stays in the file name.
const ISSUE = /^(.+):(\d+):(\d+): (.*)$/;

/** The issues of a config error's message; lines that are not an issue are left out. */
export function parseConfigIssues(message: string): ConfigIssueLine[] {
  const out: ConfigIssueLine[] = [];
  for (const l of message.split('\n')) {
    const m = ISSUE.exec(l);
    if (m) out.push({ file: m[1]!, line: Number(m[2]), column: Number(m[3]), text: m[4]! });
  }
  return out;
}
