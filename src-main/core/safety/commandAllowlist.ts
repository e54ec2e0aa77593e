// The stdio runtime allowlist (README, "Safety"): a stdio server runs a command with the user's rights, so
// only well-known runtime entrypoints start without the user marking the server trusted. This is a speed
// bump against pasted or imported configs that run an arbitrary script, not a sandbox: `node evil.js`
// passes, which is why imports also show the full command line for consent (`describeCommandLine`).
// The name alone proves nothing — a script called `node` in any folder has it — so the executable the
// child would actually run is checked too (`checkRuntimeLocation`): it must be found in a folder of the
// user's own PATH, not through a PATH the server's config sets, a relative folder, or a path to elsewhere.
import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { delimiter as hostDelimiter, posix, win32 } from 'node:path';
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
    `Review the command; if you trust it, mark the server trusted: mooring mcp trust ${config.name} (or --trust on one mooring mcp call; in the app: Servers, Edit, "Trust this command")`,
  );
}

export interface RuntimeLocationOptions {
  /** The PATH the child will get (the user's, unless the server's env sets its own). */
  childPath: string | undefined;
  /** The user's PATH: the login shell's, merged with Mooring's own. */
  userPath: string | undefined;
  /** The server's working directory (Windows searches it first for a bare name). */
  cwd?: string | undefined;
  platform?: NodeJS.Platform;
}

/**
 * Throws `untrusted_command` unless the executable an allowed runtime name stands for is one on the user's
 * PATH: a bare name must resolve, through the PATH the child gets, to a file in a folder of the user's PATH;
 * a path must be absolute and point into such a folder. A name found nowhere passes (spawning it fails
 * with "not found", which says more). Trusted servers and commands outside the allowlist are not judged
 * here (checkCommandAllowed does that).
 */
export async function checkRuntimeLocation(
  config: Pick<ServerConfig, 'name' | 'command' | 'trust'>,
  opts: RuntimeLocationOptions,
): Promise<void> {
  const platform = opts.platform ?? process.platform;
  if (config.trust || !config.command || !runtimeOf(config.command, platform)) return;
  const why = await misplacedRuntime(config.command, { ...opts, platform });
  if (!why) return;
  throw new MooringError(
    'untrusted_command',
    `The command "${config.command}" ${why}, so Mooring will not start server "${config.name}".`,
    `Use the runtime from your PATH (a plain "${runtimeOf(config.command, platform)}", without a PATH of the server's own), or if you trust this executable, mark the server trusted: mooring mcp trust ${config.name} (or --trust on one mooring mcp call; in the app: Servers, Edit, "Trust this command")`,
  );
}

async function misplacedRuntime(
  command: string,
  opts: RuntimeLocationOptions & { platform: NodeJS.Platform },
): Promise<string | undefined> {
  const path = opts.platform === 'win32' ? win32 : posix;
  const sep = opts.platform === 'win32' ? ';' : opts.platform === process.platform ? hostDelimiter : ':';
  const dirs = (value: string | undefined) => (value ?? '').split(sep).filter(Boolean);
  const userDirs = new Set(
    await Promise.all(
      dirs(opts.userPath)
        .filter((d) => path.isAbsolute(d))
        .map((d) => canonical(d)),
    ),
  );
  const onUserPath = async (dir: string) => path.isAbsolute(dir) && userDirs.has(await canonical(dir));

  const hasSeparator = command.includes('/') || (opts.platform === 'win32' && command.includes('\\'));
  if (hasSeparator) {
    if (!path.isAbsolute(command))
      return "is a relative path: it runs whatever file of that name is in the server's folder, not the runtime on your PATH";
    return (await onUserPath(path.dirname(command)))
      ? undefined
      : `is not a runtime on your PATH (${path.dirname(command)} is not one of your PATH's folders)`;
  }
  // What spawn will run: the first match along the child's PATH (Windows looks in the working folder
  // first, and tries the .com and .exe forms of a bare name).
  const searched =
    opts.platform === 'win32' ? [opts.cwd ?? '.', ...dirs(opts.childPath)] : dirs(opts.childPath);
  const names =
    opts.platform === 'win32' && !/\.[a-z]+$/i.test(command)
      ? [`${command}.com`, `${command}.exe`]
      : [command];
  for (const dir of searched)
    for (const name of names) {
      const file = path.join(dir, name);
      if (!(await isExecutable(file))) continue;
      return (await onUserPath(dir))
        ? undefined
        : `resolves to ${file}, which is not a runtime on your PATH (the server's PATH or folder leads elsewhere)`;
    }
  return undefined;
}

async function canonical(dir: string): Promise<string> {
  return realpath(dir).catch(() => dir);
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    if (!(await stat(file)).isFile()) return false;
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The consent line lives in shared/ so the renderer's form shows the very same text. */
export { describeCommandLine } from '@shared/commandLine';
