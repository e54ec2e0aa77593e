// How every `mooring` command ends (README, "Using it from a terminal"): one exit code per kind of outcome,
// the same for every command, listed by `mooring help exit-codes`. An error's code (shared/errors.ts) picks
// its exit code here and nowhere else.
import type { ErrorCode } from '@shared/errors';

export const EXIT = { ok: 0, failed: 1, usage: 2, refused: 3, cancelled: 130 } as const;

const REFUSED: ErrorCode[] = ['refused', 'untrusted_command', 'vulnerable_package', 'ssrf_blocked'];
const USAGE: ErrorCode[] = ['usage', 'config_invalid', 'config_not_found', 'not_found'];

export function exitCodeFor(code: ErrorCode): number {
  if (REFUSED.includes(code)) return EXIT.refused;
  if (USAGE.includes(code)) return EXIT.usage;
  if (code === 'cancelled') return EXIT.cancelled;
  return EXIT.failed;
}

export interface ExitCodeDoc {
  code: number;
  meaning: string;
  /** The error codes (`--json`'s `code`) that end with it. */
  errors: ErrorCode[];
}

/** What `mooring help exit-codes` prints: what each code means, for every command. */
export const EXIT_CODE_DOCS: ExitCodeDoc[] = [
  {
    code: EXIT.ok,
    meaning:
      'done; also when the reader of the output went away (a closed pipe, `| head -1`), and for serve, web and logs --follow when Ctrl-C or SIGTERM stops them (that is how they end)',
    errors: [],
  },
  {
    code: EXIT.failed,
    meaning:
      'it failed: a server did not connect, a tool answered with an error (mcp call), a test failed (mcp test), an import kept nothing usable (mcp import), a scheduled run failed',
    errors: [
      'connect_failed',
      'timeout',
      'transport_closed',
      'tool_error',
      'protocol_error',
      'secret_unavailable',
      'auth_required',
      'internal',
    ],
  },
  {
    code: EXIT.usage,
    meaning:
      'usage or configuration: a missing or wrong argument, no server or tool of that name, an invalid config file',
    errors: USAGE,
  },
  {
    code: EXIT.refused,
    meaning:
      'refused: a call that needs approval (--yes, or yes at the prompt), a consent not given off a terminal (--yes), a command outside the allowlist (mooring mcp trust NAME), a blocked address or package',
    errors: REFUSED,
  },
  {
    code: EXIT.cancelled,
    meaning:
      'cancelled: Ctrl-C, SIGINT or SIGTERM stopped it (a tool call is cancelled at its server first), or a question was answered with Ctrl-C',
    errors: ['cancelled'],
  },
];
