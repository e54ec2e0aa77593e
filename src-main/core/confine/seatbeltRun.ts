// One start of a confined server on macOS (docs/confinement.md, "macOS"): `sandbox-exec` with a profile
// written for this run — writes only where allowed, the denied paths unreadable, no connection but to the
// egress proxy on a loopback port and the listed loopback ports — and the unified log read for the
// sandbox's refusals, which the profile tags with this run's mark. Not run by this repository's CI (Linux
// only): the profile's text is tested, the run is not.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { randomBytes } from 'node:crypto';
import type { Availability } from './availability';
import { startEgressProxy } from './egressProxy';
import type { SandboxRun } from './linuxRun';
import type { ResolvedSandbox } from './sandboxPolicy';
import type { StdioCommand } from '../mcp/stdioLauncher';
import type { Refusal } from './syscallTrace';

const real = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};
const str = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** The Seatbelt profile (SBPL; later rules win over earlier ones). */
export function seatbeltProfile(
  policy: ResolvedSandbox,
  run: { tmp: string; proxyPort?: number; mark: string },
): string {
  const tag = `(with message ${str(run.mark)})`;
  const subpaths = (list: string[]) => list.map((p) => `(subpath ${str(real(p))})`).join(' ');
  const lines = [
    '(version 1)',
    '(allow default)',
    `(deny network-outbound ${tag})`,
    '(allow network-outbound (remote unix-socket (path-literal "/private/var/run/mDNSResponder")))',
  ];
  for (const port of [...(run.proxyPort ? [run.proxyPort] : []), ...policy.loopbackPorts])
    lines.push(`(allow network-outbound (remote ip "localhost:${port}"))`);
  lines.push(`(deny file-write* ${tag})`);
  lines.push(`(allow file-write* (subpath "/dev") ${subpaths(policy.allowWrite)})`);
  if (policy.denyWrite.length) lines.push(`(deny file-write* ${subpaths(policy.denyWrite)} ${tag})`);
  if (policy.denyRead.length) lines.push(`(deny file-read* file-write* ${subpaths(policy.denyRead)} ${tag})`);
  // Its own temporary folder sits in Mooring's home, which is denied above: allowed last, so it wins.
  lines.push(`(allow file-read* file-write* ${subpaths([run.tmp])})`);
  return lines.join('\n');
}

/** `Sandbox: node(123) deny(1) file-write-create /Users/a/x <mark>` → a refusal. */
export function parseSeatbeltLine(line: string, mark: string, policy: ResolvedSandbox): Refusal | undefined {
  const m = /deny\(\d+\)\s+(\S+)\s+(.*?)\s*$/.exec(line.replace(mark, ''));
  if (!m) return undefined;
  const [, op, target] = m as unknown as [string, string, string];
  if (op.startsWith('network'))
    return {
      kind: 'network',
      target,
      operation: 'connect',
      allow: { domain: target.replace(/^localhost/, '127.0.0.1') },
    };
  if (op.startsWith('file-read'))
    return {
      kind: 'read',
      target,
      operation: 'open for reading',
      noAllowReason: policy.fixedDenyRead.some((d) => target.startsWith(d))
        ? 'no confined server may read it (credentials, or Mooring’s own files)'
        : 'it is listed in its denyRead; remove it there to allow it',
    };
  return { kind: 'write', target, operation: op.replace(/^file-/, ''), allow: { write: target } };
}

export async function startSeatbeltRun(o: {
  runRoot: string;
  policy: ResolvedSandbox;
  tools: Availability;
  cmd: StdioCommand;
  onRefused: (r: Refusal) => void;
}): Promise<SandboxRun> {
  mkdirSync(o.runRoot, { recursive: true, mode: 0o700 });
  const dir = mkdtempSync(join(o.runRoot, 'sbx-'));
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp, { mode: 0o700 });
  for (const p of o.policy.allowWrite) if (!existsSync(p)) mkdirSync(p, { recursive: true });
  const closers: Array<() => unknown> = [() => rmSync(dir, { recursive: true, force: true })];
  const release = () => {
    for (const c of closers.splice(0).reverse()) void Promise.resolve(c()).catch(() => undefined);
  };
  try {
    const env: Record<string, string> = { ...o.cmd.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp };
    delete env.SSH_AUTH_SOCK;
    let proxyPort: number | undefined;
    if (o.policy.rules.length) {
      const egress = await startEgressProxy({
        rules: o.policy.rules,
        onRefused: (r) =>
          o.onRefused({
            kind: 'network',
            target: `${r.host}:${r.port}`,
            operation: 'a connection through the proxy',
            allow: { domain: r.port === 443 || r.port === 80 ? r.host : `${r.host}:${r.port}` },
          }),
      });
      closers.push(() => egress.close());
      proxyPort = egress.address as number;
      const url = `http://127.0.0.1:${proxyPort}`;
      Object.assign(env, {
        HTTP_PROXY: url,
        HTTPS_PROXY: url,
        http_proxy: url,
        https_proxy: url,
        NODE_USE_ENV_PROXY: '1',
      });
    }
    const mark = `mooring-${randomBytes(6).toString('hex')}`;
    const profile = seatbeltProfile(o.policy, { tmp: real(tmp), ...(proxyPort ? { proxyPort } : {}), mark });
    const log = spawn(
      '/usr/bin/log',
      ['stream', '--style', 'compact', '--predicate', `eventMessage ENDSWITH "${mark}"`],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    log.once('error', () => undefined);
    createInterface({ input: log.stdout! }).on('line', (line) => {
      const r = parseSeatbeltLine(line, mark, o.policy);
      if (r) o.onRefused(r);
    });
    closers.push(() => log.kill());
    return {
      command: {
        command: o.tools.sandboxExec!,
        args: ['-p', profile, o.cmd.command, ...o.cmd.args],
        env,
        ...(o.cmd.cwd ? { cwd: o.cmd.cwd } : {}),
      },
      release,
    };
  } catch (err) {
    release();
    throw err;
  }
}
