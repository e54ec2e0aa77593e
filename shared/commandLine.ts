// The full command line of a server, as shown for consent (an import, an install link, the Trust switch
// of the server form) and in the server list. Pure: the core and the renderer show the very same text.
import type { ServerConfigInput } from './config';
import { isRemoteTransport } from './transports';

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;
const SECRET_NAME = /token|key|secret|password|passwd|auth|credential/i;

/** POSIX-shell quoting for display: plain words as they are, anything else in single quotes. */
function quote(word: string): string {
  if (word === '') return "''";
  return SAFE_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The full command line shown for consent when a server is added from an import or a link:
 * `[cd DIR &&] [ENV=value …] command args…` for stdio, `<transport> <url>` for remote servers. Values of
 * env entries that are secret (listed in secretEnv, or with a secret-looking name) are shown as `•••`.
 */
export function describeCommandLine(
  config: Pick<ServerConfigInput, 'transport' | 'command' | 'args' | 'env' | 'cwd' | 'url' | 'secretEnv'>,
): string {
  const transport = config.transport ?? 'stdio';
  if (isRemoteTransport(transport)) return `${transport.toUpperCase()} ${config.url ?? '(no url)'}`;
  const parts: string[] = [];
  if (config.cwd) parts.push(`cd ${quote(config.cwd)} &&`);
  for (const [k, v] of Object.entries(config.env ?? {})) {
    const secret = config.secretEnv?.includes(k) || SECRET_NAME.test(k);
    parts.push(`${k}=${secret ? '•••' : quote(v)}`);
  }
  parts.push(quote(config.command ?? ''), ...(config.args ?? []).map(quote));
  return parts.join(' ');
}
