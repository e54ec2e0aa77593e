// Every stdio start goes through here (mcp/stdioLauncher.ts; docs/confinement.md): a server that asks to
// run confined starts inside the sandbox of this platform, or not at all — never silently unconfined. Where
// confinement cannot run it says why and what to install, and starts it unconfined only when the user chose
// that for this server and the managed policy does not require confinement. Each refused access is
// recorded for its server and written to its log with what would allow it.
import { accessSync, constants, mkdirSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { ServerConfig } from '@shared/config';
import { confinementSummary } from '@shared/confinement';
import { MooringError } from '../errors';
import type { LaunchedCommand, StdioCommand, StdioLauncher } from '../mcp/stdioLauncher';
import { checkAvailability, type Availability } from './availability';
import { startLinuxRun, type SandboxRun } from './linuxRun';
import type { ManagedPolicyFile } from './managedPolicy';
import { resolveSandbox } from './sandboxPolicy';
import { startSeatbeltRun } from './seatbeltRun';
import type { Refusal } from './syscallTrace';
import type { ViolationLog } from './violationLog';

export interface ConfinedLauncherDeps {
  /** Mooring's home: unreadable from every sandbox; run folders live in `<home>/run`. */
  home: string;
  env: () => NodeJS.ProcessEnv;
  policy: ManagedPolicyFile;
  violations: ViolationLog;
  platform?: NodeJS.Platform;
}

export class ConfinedLauncher implements StdioLauncher {
  private tools?: Promise<Availability>;

  constructor(private readonly deps: ConfinedLauncherDeps) {}

  /** Whether confinement runs here (checked once per process). */
  availability(): Promise<Availability> {
    this.tools ??= checkAvailability(this.deps.env(), this.deps.platform ?? process.platform);
    return this.tools;
  }

  async launch(
    config: ServerConfig,
    cmd: StdioCommand,
    note: (line: string) => void,
  ): Promise<LaunchedCommand> {
    const unconfined = { ...cmd, release: () => undefined };
    const managed = this.deps.policy.current();
    const required = managed?.confinement?.required === true;
    if (!config.sandboxEnabled) {
      if (required) this.deps.policy.check(config, 'start');
      return unconfined;
    }
    const tools = await this.availability();
    const needsWayOut = (config.sandbox?.network?.allowedDomains?.length ?? 0) > 0;
    const missing = !tools.ok
      ? tools
      : needsWayOut && tools.platform === 'linux' && !tools.socat
        ? {
            reason: 'socat is not installed, and a confined server that reaches any host needs it',
            hint: 'Install it: sudo apt install socat (Debian, Ubuntu), sudo dnf install socat (Fedora).',
          }
        : undefined;
    if (missing) {
      if (config.runUnconfinedIfUnavailable && !required) {
        note(
          `[sandbox] confinement cannot run here (${missing.reason}); it runs unconfined, as chosen for this server`,
        );
        return unconfined;
      }
      throw new MooringError(
        'confinement_unavailable',
        `"${config.name}" asks to run confined, and confinement cannot run here: ${missing.reason}. It was not started.`,
        `${missing.hint ?? ''}${required ? ' The managed policy requires confinement.' : ` Or run it unconfined on this machine: mooring mcp sandbox ${config.name} --unconfined-here (the app offers the same on its card).`}`.trim(),
      );
    }
    checkFound(cmd);
    const allowedOnly = managed?.confinement?.allowedDomainsOnly
      ? new Set(managed.confinement.allowedDomains ?? [])
      : undefined;
    const own = config.sandbox?.network?.allowedDomains ?? [];
    const dropped = allowedOnly ? own.filter((d) => !allowedOnly.has(d)) : [];
    if (dropped.length)
      note(
        `[sandbox] the managed policy lets confined servers reach only its own hosts; not allowed: ${dropped.join(', ')}`,
      );
    const sandbox = {
      ...config.sandbox,
      network: { allowedDomains: own.filter((d) => !dropped.includes(d)) },
    };
    // Made before the policy is worked out: the run folders are part of Mooring's home no server may read.
    const runRoot = join(this.deps.home, 'run');
    mkdirSync(runRoot, { recursive: true, mode: 0o700 });
    const policy = resolveSandbox(sandbox, {
      ...(cmd.env.HOME ? { userHome: cmd.env.HOME } : {}),
      mooringHome: this.deps.home,
      ownFolders: [join(this.deps.home, 'bundles', config.name)],
      ...(managed?.confinement ? { managed: managed.confinement } : {}),
    });
    const onRefused = (r: Refusal) => {
      this.deps.violations.record(config.name, r);
      note(describeRefusal(config.name, r));
    };
    const run: SandboxRun =
      tools.platform === 'darwin'
        ? await startSeatbeltRun({ runRoot, policy, tools, cmd, onRefused })
        : await startLinuxRun({ runRoot, policy, tools, cmd, onRefused });
    note(
      `[sandbox] ${confinementSummary({ transport: 'stdio', sandboxEnabled: true, sandbox })}${tools.observesFiles ? '' : ' Refused file accesses are not observed here (install strace to see them).'}`,
    );
    return { ...run.command, release: run.release };
  }
}

/** One log line: what was refused, and the command that would allow it (or why nothing will). */
export function describeRefusal(server: string, r: Refusal): string {
  const what = `[sandbox] refused: ${r.operation} ${r.target}`;
  if (r.allow?.write)
    return `${what}. To allow it: mooring mcp sandbox ${server} --allow-write ${r.allow.write}`;
  if (r.allow?.domain)
    return `${what}. To allow it: mooring mcp sandbox ${server} --allow-domain ${r.allow.domain}`;
  return `${what} (${r.noAllowReason ?? 'not allowed'})`;
}

/** The command must exist before the sandbox starts: the same error as an unconfined start gives. */
function checkFound(cmd: StdioCommand): void {
  const exe = (f: string) => {
    try {
      accessSync(f, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  const found =
    isAbsolute(cmd.command) || cmd.command.includes('/')
      ? exe(isAbsolute(cmd.command) ? cmd.command : join(cmd.cwd ?? process.cwd(), cmd.command))
      : (cmd.env.PATH ?? '').split(delimiter).some((d) => d && exe(join(d, cmd.command)));
  if (!found)
    throw new MooringError(
      'connect_failed',
      `Command "${cmd.command}" was not found on PATH`,
      `Install it, or give the full path to the executable in the server's command (Mooring searched the PATH of your login shell).`,
    );
}
