// The environment a stdio server starts with: an allowlist of inherited variables (the SDK's list),
// the PATH of the user's login shell, then the server's own `env`. GUI apps on macOS do not inherit
// the login shell's PATH, the commonest cause of "command not found" for MCP servers in the field.
import { delimiter } from 'node:path';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { shellEnv } from 'shell-env';

// Locale and temp-dir variables servers commonly need, beyond the SDK's minimal list.
const EXTRA_INHERITED = ['LANG', 'LC_ALL', 'LC_CTYPE', 'TMPDIR', 'TMP', 'TEMP', 'XDG_RUNTIME_DIR'];

let shellPathPromise: Promise<string | undefined> | undefined;

/** The login shell's PATH, looked up once per process; undefined when the shell cannot tell. */
export function loginShellPath(): Promise<string | undefined> {
  if (process.platform === 'win32' || process.env.MOORING_NO_SHELL_PATH === '1')
    return Promise.resolve(undefined);
  shellPathPromise ??= Promise.race([
    shellEnv()
      .then((e) => e.PATH)
      .catch(() => undefined),
    new Promise<undefined>((res) => setTimeout(() => res(undefined), 3000).unref()),
  ]);
  return shellPathPromise;
}

export function mergePath(first: string | undefined, second: string | undefined): string | undefined {
  const parts = [...(first ?? '').split(delimiter), ...(second ?? '').split(delimiter)].filter(Boolean);
  return parts.length ? [...new Set(parts)].join(delimiter) : undefined;
}

export async function childEnvironment(configured: Record<string, string>): Promise<Record<string, string>> {
  const env: Record<string, string> = getDefaultEnvironment();
  for (const k of EXTRA_INHERITED) {
    const v = process.env[k];
    if (v !== undefined) env[k] = v;
  }
  const path = mergePath(await loginShellPath(), env.PATH);
  if (path) env.PATH = path;
  return { ...env, ...configured };
}
