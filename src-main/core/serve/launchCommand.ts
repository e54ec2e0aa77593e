// How another client (Claude Desktop, Cursor, VS Code) starts this install of Mooring as an MCP server on
// stdio (docs/cli.md, "How the CLI ships"). A bare `mooring` exists only after `npm link` or a global
// install, and a client launched from the desktop does not read the shell's PATH, so the entry we hand out
// names absolute paths: this Node and this package's bin/mooring.mjs, or the packaged app's own binary with
// `--mcp-server` (the host says so, `selfLaunch`).
import { existsSync, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';

export interface SelfLaunch {
  command: string;
  args: string[];
}

export interface ClientEntry {
  /** The stdio entry with absolute paths: works from any client on this machine. */
  command: string;
  args: string[];
  /** `{ "mcpServers": { "mooring": … } }`, ready to paste into a client's config. */
  json: string;
  /** A `mooring` on PATH runs this very install (so `mooring serve --stdio` works in a terminal). */
  bareOnPath: boolean;
  /** When the bare `mooring` command would work instead, in a sentence. */
  bareNote: string;
}

/** This package's root: the first folder up from here with a package.json and bin/mooring.mjs. */
export function packageRoot(from: string = import.meta.dirname): string | undefined {
  for (let dir = from; dirname(dir) !== dir; dir = dirname(dir))
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'bin', 'mooring.mjs'))) return dir;
  return undefined;
}

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** Whether a `mooring` in one of PATH's folders is this bin (npm link and global installs symlink it). */
export function mooringOnPath(bin: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const target = real(bin);
  if (!target) return false;
  const names = process.platform === 'win32' ? ['mooring.cmd', 'mooring.exe'] : ['mooring'];
  for (const dir of (env.PATH ?? env.Path ?? '').split(delimiter).filter(Boolean))
    for (const name of names) {
      const found = real(join(dir, name));
      if (!found) continue;
      // A Windows npm shim is a script, not a link: it is ours when it sits in a folder npm made for us.
      if (process.platform === 'win32' || found === target) return true;
    }
  return false;
}

export function clientEntry(
  opts: { selfLaunch?: SelfLaunch; env?: NodeJS.ProcessEnv; root?: string } = {},
): ClientEntry {
  const entry = (command: string, args: string[], bareOnPath: boolean, bareNote: string) => ({
    command,
    args,
    json: JSON.stringify({ mcpServers: { mooring: { command, args } } }, null, 2),
    bareOnPath,
    bareNote,
  });
  if (opts.selfLaunch)
    return entry(
      opts.selfLaunch.command,
      opts.selfLaunch.args,
      false,
      `This is the installed app (${basename(opts.selfLaunch.command)} with --mcp-server); it needs no mooring command on PATH.`,
    );
  const root = opts.root ?? packageRoot();
  // Without a package root (an unusual layout) the bare command is all we can offer.
  if (!root)
    return entry(
      'mooring',
      ['serve', '--stdio'],
      false,
      'Mooring could not find its own bin/mooring.mjs: run "npm link" in its folder so "mooring" is on PATH.',
    );
  const bin = join(root, 'bin', 'mooring.mjs');
  // Inside Electron, execPath is the Electron binary, which would open the app rather than run the CLI.
  const node = process.versions.electron ? 'node' : process.execPath;
  const onPath = mooringOnPath(bin, opts.env);
  return entry(
    node,
    [bin, 'serve', '--stdio'],
    onPath,
    onPath
      ? 'A bare "mooring" is on your PATH and works in a terminal too; a client started from the desktop may not see your shell\'s PATH, so the absolute paths are safer.'
      : `A bare "mooring" works only once it is on PATH: run "npm link" in ${root} (or install the package globally).`,
  );
}
