// The stdio runtime allowlist (issue 4): a stdio server runs a command with the user's rights, so only
// well-known runtime entrypoints start without the user marking the server trusted. This is a speed bump
// against pasted or imported configs that run an arbitrary script, not a sandbox: `node evil.js` passes,
// which is why imports also show the full command line for consent (`describeCommandLine`).
import { posix, win32 } from 'node:path';
import type { ServerConfig } from '@shared/config';
import { MooringError } from '../errors';

export const ALLOWED_RUNTIMES = ['npx', 'node', 'uvx', 'python', 'python3', 'deno', 'bun', 'docker'] as const;
export type Runtime = (typeof ALLOWED_RUNTIMES)[number];

const WINDOWS_EXTENSIONS = /\.(exe|cmd)$/i;

/**
 * The runtime a command runs, by basename: `/usr/bin/node` → node; on Windows also `C:\…\npx.cmd` → npx
 * (case-insensitive, `.exe`/`.cmd` stripped). Undefined when it is not an allowed runtime.
 */
export function runtimeOf(
  command: string,
  platform: NodeJS.Platform = process.platform,
): Runtime | undefined {
  const isWin = platform === 'win32';
  let base = (isWin ? win32 : posix).basename(command.trim());
  if (isWin) base = base.replace(WINDOWS_EXTENSIONS, '').toLowerCase();
  return (ALLOWED_RUNTIMES as readonly string[]).includes(base) ? (base as Runtime) : undefined;
}

/** Throws `untrusted_command` unless the command is an allowed runtime or the server is trusted. */
export function checkCommandAllowed(
  config: Pick<ServerConfig, 'name' | 'command' | 'trust'>,
  platform: NodeJS.Platform = process.platform,
): void {
  if (config.trust || !config.command) return;
  if (runtimeOf(config.command, platform)) return;
  throw new MooringError(
    'untrusted_command',
    `The command "${config.command}" is not a known runtime (${ALLOWED_RUNTIMES.join(', ')}), so Mooring will not start server "${config.name}".`,
    `Review the command; if you trust it, mark the server trusted: mooring mcp add ${config.name} … --trust (or the Trust switch in Settings)`,
  );
}

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;
const SECRET_NAME = /token|key|secret|password|passwd|auth|credential/i;

/** POSIX-shell quoting for display: plain words as they are, anything else in single quotes. */
function quote(word: string): string {
  if (word === '') return "''";
  return SAFE_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The full command line shown for consent when a server is added from an import or a link (issue 4):
 * `[cd DIR &&] [ENV=value …] command args…` for stdio, `<transport> <url>` for remote servers. Values of
 * env entries that are secret (listed in secretEnv, or with a secret-looking name) are shown as `•••`.
 */
export function describeCommandLine(
  config: Pick<ServerConfig, 'transport' | 'command' | 'args' | 'env' | 'cwd' | 'url' | 'secretEnv'>,
): string {
  if (config.transport !== 'stdio') return `${config.transport.toUpperCase()} ${config.url ?? '(no url)'}`;
  const parts: string[] = [];
  if (config.cwd) parts.push(`cd ${quote(config.cwd)} &&`);
  for (const [k, v] of Object.entries(config.env ?? {})) {
    const secret = config.secretEnv?.includes(k) || SECRET_NAME.test(k);
    parts.push(`${k}=${secret ? '•••' : quote(v)}`);
  }
  parts.push(quote(config.command ?? ''), ...(config.args ?? []).map(quote));
  return parts.join(' ');
}
