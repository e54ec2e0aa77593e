// A confined server's command line on Linux (docs/confinement.md, "Linux"): bubblewrap with the whole file
// system read-only, the allowed paths writable, the denied ones replaced by empty unreadable ones, its own
// process and network namespaces (no network but loopback inside), no capabilities, and dying with Mooring.
// Inside, a small shell starts socat for each way out (the egress proxy, listed loopback ports), waits until
// they listen, then becomes the server — under strace when refused accesses are observed.
import type { ResolvedSandbox } from './sandboxPolicy';

/** Where the run's sockets and the trace appear inside the sandbox (an empty /run of its own). */
export const INSIDE_DIR = '/run/mooring';
export const INSIDE_PROXY = `${INSIDE_DIR}/proxy.sock`;
export const INSIDE_TRACE = `${INSIDE_DIR}/trace`;
/**
 * Its private temporary folder inside (TMPDIR): the run's folder under Mooring's home, which every confined
 * server is kept from, bound last so it wins over that denial.
 */
export const INSIDE_TMP = `${INSIDE_DIR}/tmp`;
export const insidePortSocket = (port: number) => `${INSIDE_DIR}/port-${port}.sock`;

/** The syscalls strace reports when they fail: every way to open, create, change or connect. */
export const TRACED_SYSCALLS = [
  '?open',
  'openat',
  '?openat2',
  '?creat',
  '?mkdir',
  'mkdirat',
  '?unlink',
  'unlinkat',
  '?rmdir',
  '?rename',
  'renameat',
  '?renameat2',
  '?link',
  'linkat',
  '?symlink',
  'symlinkat',
  'truncate',
  'connect',
];

export interface BwrapRun {
  bwrap: string;
  /** socat, when the server has a way out (a proxy or a loopback port). */
  socat?: string;
  /** strace, when refused accesses are observed. */
  strace?: string;
  /** The run's private temporary folder outside (writable; TMPDIR is INSIDE_TMP). */
  tmp: string;
  /** An empty folder and an empty file, both mode 000: what a denied path is replaced with. */
  emptyDir: string;
  emptyFile: string;
  /** The egress proxy's Unix socket outside, and the loopback port the server's proxy variables name inside. */
  proxy?: { socket: string; port: number };
  /** Per listed loopback port: the Unix socket outside that reaches it. */
  loopback: Array<{ port: number; socket: string }>;
  /** The FIFO strace writes to (outside path). */
  trace?: string;
  /** Unix sockets under /tmp that a file-system bind would leave reachable (X11, ssh-agent, …): hidden. */
  hideSockets: string[];
  /** Folders to hide entirely besides /run (XDG_RUNTIME_DIR when it is elsewhere). */
  hideDirs: string[];
  /** Which denyRead entries are folders (the rest are files). */
  isDir: (path: string) => boolean;
  /** Whether this process runs as root (then capabilities are dropped explicitly). */
  root: boolean;
}

export function bwrapArgs(
  policy: ResolvedSandbox,
  run: BwrapRun,
  cmd: { command: string; args: string[]; cwd?: string | undefined },
): { command: string; args: string[] } {
  const a: string[] = ['--die-with-parent', '--unshare-pid', '--unshare-net', '--unshare-ipc'];
  if (run.root) a.push('--cap-drop', 'ALL');
  a.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/run');
  for (const d of run.hideDirs) a.push('--tmpfs', d);
  for (const s of run.hideSockets) a.push('--ro-bind', run.emptyFile, s);
  for (const p of policy.allowWrite) a.push('--bind', p, p);
  for (const p of policy.denyWrite) a.push('--ro-bind-try', p, p);
  for (const p of policy.denyRead) a.push('--ro-bind', run.isDir(p) ? run.emptyDir : run.emptyFile, p);
  if (run.proxy) a.push('--bind', run.proxy.socket, INSIDE_PROXY);
  for (const l of run.loopback) a.push('--bind', l.socket, insidePortSocket(l.port));
  if (run.trace) a.push('--bind', run.trace, INSIDE_TRACE);
  a.push('--bind', run.tmp, INSIDE_TMP);
  if (cmd.cwd) a.push('--chdir', cmd.cwd);
  a.push('--', '/bin/sh', '-c', initScript(run), 'mooring-sandbox', cmd.command, ...cmd.args);
  return { command: run.bwrap, args: a };
}

/**
 * The shell that runs first inside: the forwarders, a bounded wait until each listens (read from the
 * sandbox's own /proc/net/tcp, at most 2 s), then `exec` of the server (under strace when observed).
 */
export function initScript(run: BwrapRun): string {
  const forwards = [
    ...(run.proxy ? [{ port: run.proxy.port, inside: INSIDE_PROXY }] : []),
    ...run.loopback.map((l) => ({ port: l.port, inside: insidePortSocket(l.port) })),
  ];
  const lines: string[] = [];
  if (forwards.length && run.socat) {
    for (const f of forwards)
      lines.push(
        `${q(run.socat)} TCP-LISTEN:${f.port},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${f.inside} </dev/null >/dev/null 2>&1 &`,
      );
    const hex = forwards.map((f) => f.port.toString(16).toUpperCase().padStart(4, '0'));
    lines.push(
      `n=0; while [ $n -lt 400 ]; do ok=1; for h in ${hex.join(' ')}; do grep -qi ":$h 00000000:0000 0A" /proc/net/tcp || ok=0; done; [ $ok = 1 ] && break; n=$((n+1)); sleep 0.005; done`,
    );
  }
  if (run.trace && run.strace)
    lines.push(
      `exec ${q(run.strace)} -f -qq --seccomp-bpf -e trace=${TRACED_SYSCALLS.join(',')} -e status=failed -y -s 4096 -o ${INSIDE_TRACE} -- "$@"`,
    );
  else lines.push('exec "$@"');
  return lines.join('\n');
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
