// Whether confinement runs on this machine, and why not (docs/confinement.md, "Where it runs"). Linux needs
// bubblewrap that can make its namespaces here (a container without user namespaces cannot), socat for a
// server with a way out, and — to observe refused file accesses — strace that may trace inside. macOS needs
// sandbox-exec. Windows is not supported. Checked once per process; every answer says what to install.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface Availability {
  ok: boolean;
  platform: NodeJS.Platform;
  /** Why not, and what to do (when not ok). */
  reason?: string;
  hint?: string;
  bwrap?: string;
  socat?: string;
  strace?: string;
  sandboxExec?: string;
  /** Refused file accesses are observed (strace on Linux, the unified log on macOS). */
  observesFiles: boolean;
}

export const LINUX_INSTALL_HINT =
  'Install them: sudo apt install bubblewrap socat strace (Debian, Ubuntu), sudo dnf install bubblewrap socat strace (Fedora), sudo pacman -S bubblewrap socat strace (Arch).';

/** Finds an executable on the tool path (MOORING_SANDBOX_TOOLS_PATH, else PATH plus the usual bins). */
export function findTool(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const path =
    env.MOORING_SANDBOX_TOOLS_PATH ?? [env.PATH ?? '', '/usr/bin', '/bin', '/usr/local/bin'].join(delimiter);
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      /* next */
    }
  }
  return undefined;
}

function run(cmd: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    child.once('error', (e) => resolve({ code: -1, stderr: e.message }));
    child.once('close', (code) => resolve({ code, stderr: stderr.trim() }));
  });
}

/** What both probes ask bwrap to make: a read-only root with its own pid and network namespaces. */
const PROBE_SANDBOX = [
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
  '--unshare-pid',
  '--unshare-net',
  '--die-with-parent',
];

export async function checkAvailability(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<Availability> {
  if (platform === 'darwin') {
    const sandboxExec = findTool('sandbox-exec', {
      ...env,
      MOORING_SANDBOX_TOOLS_PATH: env.MOORING_SANDBOX_TOOLS_PATH ?? '/usr/bin',
    });
    return sandboxExec
      ? { ok: true, platform, sandboxExec, observesFiles: true }
      : {
          ok: false,
          platform,
          reason: 'sandbox-exec is not in /usr/bin',
          hint: 'It ships with macOS; check that /usr/bin/sandbox-exec exists.',
          observesFiles: false,
        };
  }
  if (platform !== 'linux')
    return {
      ok: false,
      platform,
      reason: `confinement runs on Linux and macOS; not on ${platform === 'win32' ? 'Windows' : platform} yet`,
      hint: 'Run it unconfined for this server (you accept that it can do all you can), or run Mooring in WSL.',
      observesFiles: false,
    };
  const bwrap = findTool('bwrap', env);
  if (!bwrap)
    return {
      ok: false,
      platform,
      reason: 'bubblewrap (bwrap) is not installed',
      hint: LINUX_INSTALL_HINT,
      observesFiles: false,
    };
  const probe = await run(bwrap, [...PROBE_SANDBOX, '--', '/bin/true']);
  if (probe.code !== 0)
    return {
      ok: false,
      platform,
      bwrap,
      reason: `bubblewrap cannot make its namespaces on this machine (${probe.stderr || `exit ${probe.code}`})`,
      hint: 'Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 an AppArmor profile for bwrap), or run it unconfined for this server.',
      observesFiles: false,
    };
  const socat = findTool('socat', env);
  const strace = findTool('strace', env);
  let observesFiles = false;
  if (strace) {
    const traced = await run(bwrap, [
      ...PROBE_SANDBOX,
      '--',
      strace,
      '-f',
      '-qq',
      '--seccomp-bpf',
      '-e',
      'trace=openat',
      '-e',
      'status=failed',
      '-o',
      '/dev/null',
      '/bin/true',
    ]);
    observesFiles = traced.code === 0;
  }
  return {
    ok: true,
    platform,
    bwrap,
    ...(socat ? { socat } : {}),
    ...(strace && observesFiles ? { strace } : {}),
    observesFiles,
  };
}
