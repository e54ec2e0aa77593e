// One start of a confined server on Linux (docs/confinement.md, "Linux"): its run folder under Mooring's
// home (which no confined server can read, so one server never finds another's ways out), the egress proxy
// and the loopback forwarders on Unix sockets there, the FIFO strace writes refused accesses to, and the
// bubblewrap command line. `release` ends all of it once the server has exited.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { connect, createServer, Socket, type Server } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { StdioCommand } from '../mcp/stdioLauncher';
import type { Availability } from './availability';
import { bwrapArgs, INSIDE_DIR, INSIDE_TMP } from './bwrapArgs';
import { startEgressProxy, type EgressProxy } from './egressProxy';
import type { ResolvedSandbox } from './sandboxPolicy';
import { classify, TraceLines, type Refusal } from './syscallTrace';

export interface LinuxRunOptions {
  /** `<home>/run`: where run folders go (unreadable from every sandbox). */
  runRoot: string;
  policy: ResolvedSandbox;
  tools: Availability;
  cmd: StdioCommand;
  /** The environment as the server gets it (proxy variables and TMPDIR added here). */
  onRefused: (r: Refusal) => void;
  /** Unix sockets under these folders are hidden (default /tmp). */
  socketDirs?: string[];
}

export interface SandboxRun {
  command: StdioCommand;
  release(): void;
}

export async function startLinuxRun(o: LinuxRunOptions): Promise<SandboxRun> {
  mkdirSync(o.runRoot, { recursive: true, mode: 0o700 });
  const dir = mkdtempSync(join(o.runRoot, 'sbx-'));
  const tmp = join(dir, 'tmp');
  const emptyDir = join(dir, 'denied');
  const emptyFile = join(dir, 'denied-file');
  mkdirSync(tmp, { mode: 0o700 });
  mkdirSync(emptyDir, { mode: 0o000 });
  writeFileSync(emptyFile, '', { mode: 0o000 });
  const closers: Array<() => unknown> = [];
  const release = () => {
    for (const c of closers.splice(0).reverse()) {
      try {
        void Promise.resolve(c()).catch(() => undefined);
      } catch {
        /* best effort */
      }
    }
  };
  closers.push(() => rmSync(dir, { recursive: true, force: true }));
  try {
    // A path allowed before it exists is made a folder (a file the server tried to create is made by the allow).
    for (const p of o.policy.allowWrite) if (!existsSync(p)) mkdirSync(p, { recursive: true });
    const needsWayOut = o.policy.rules.length > 0;
    let proxy: { socket: string; port: number } | undefined;
    const env: Record<string, string> = {
      ...o.cmd.env,
      TMPDIR: INSIDE_TMP,
      TMP: INSIDE_TMP,
      TEMP: INSIDE_TMP,
    };
    for (const k of [
      'XDG_RUNTIME_DIR',
      'DBUS_SESSION_BUS_ADDRESS',
      'SSH_AUTH_SOCK',
      'GPG_AGENT_INFO',
      'DISPLAY',
      'WAYLAND_DISPLAY',
    ])
      delete env[k];
    if (needsWayOut && o.tools.socat) {
      const socket = join(dir, 'proxy.sock');
      const egress: EgressProxy = await startEgressProxy({
        rules: o.policy.rules,
        socketPath: socket,
        onRefused: (r) =>
          o.onRefused({
            kind: 'network',
            target: `${r.host}:${r.port}`,
            operation:
              r.method === 'CONNECT'
                ? 'a connection through the proxy'
                : `an HTTP ${r.method} through the proxy`,
            ...(r.method === 'resolve'
              ? {
                  noAllowReason:
                    'an allowed name must not lead to this machine; name localhost itself to allow it',
                }
              : { allow: { domain: r.port === 443 || r.port === 80 ? r.host : `${r.host}:${r.port}` } }),
          }),
      });
      closers.push(() => egress.close());
      const port = insidePort(o.policy.loopbackPorts);
      proxy = { socket, port };
      const url = `http://127.0.0.1:${port}`;
      Object.assign(env, {
        HTTP_PROXY: url,
        HTTPS_PROXY: url,
        http_proxy: url,
        https_proxy: url,
        NO_PROXY: 'localhost,127.0.0.1,::1',
        no_proxy: 'localhost,127.0.0.1,::1',
        NODE_USE_ENV_PROXY: '1',
      });
    }
    const loopback: Array<{ port: number; socket: string }> = [];
    if (o.tools.socat)
      for (const port of o.policy.loopbackPorts) {
        const socket = join(dir, `port-${port}.sock`);
        const server = await forwardToLoopback(socket, port);
        closers.push(() => server.close());
        loopback.push({ port, socket });
      }
    let trace: string | undefined;
    if (o.tools.strace) {
      trace = join(dir, 'trace');
      execFileSync('mkfifo', ['-m', '600', trace]);
      const ways = [...(proxy ? [proxy.port] : []), ...o.policy.loopbackPorts];
      const reader = readTrace(trace, o, { writable: [...o.policy.allowWrite, INSIDE_DIR, '/dev'], ways });
      closers.push(reader);
    }
    const run = {
      bwrap: o.tools.bwrap!,
      ...(o.tools.socat ? { socat: o.tools.socat } : {}),
      ...(o.tools.strace ? { strace: o.tools.strace } : {}),
      tmp,
      emptyDir,
      emptyFile,
      ...(proxy ? { proxy } : {}),
      loopback,
      ...(trace ? { trace } : {}),
      hideSockets: socketsUnder(o.socketDirs ?? ['/tmp']),
      hideDirs: runtimeDirOutsideRun(o.cmd.env.XDG_RUNTIME_DIR ?? process.env.XDG_RUNTIME_DIR),
      isDir,
      root: process.getuid?.() === 0,
    };
    const wrapped = bwrapArgs(o.policy, run, o.cmd);
    return {
      command: { ...wrapped, env, ...(o.cmd.cwd ? { cwd: o.cmd.cwd } : {}) },
      release,
    };
  } catch (err) {
    release();
    throw err;
  }
}

/**
 * Reads strace's lines from the FIFO. Mooring holds a writing end of its own until the run ends, so the
 * reader sees no end while the server starts; at the end that end closes and the reader drains what strace
 * wrote last (often the very refusal that made a start fail) before it stops.
 */
function readTrace(
  fifo: string,
  o: LinuxRunOptions,
  ctx: { writable: string[]; ways: number[] },
): () => void {
  const readFd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const keepOpen = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
  const socket = new Socket({ fd: readFd, readable: true, writable: false });
  const lines = new TraceLines();
  const rl = createInterface({ input: socket });
  rl.on('line', (line) => {
    const failure = lines.push(line);
    const r = failure && classify(failure, o.policy, ctx);
    if (r) o.onRefused(r);
  });
  socket.on('error', () => undefined);
  return () => {
    closeSync(keepOpen);
    // Whatever still holds the FIFO open (nothing, once the sandbox is gone) does not hold the reader forever.
    setTimeout(() => socket.destroy(), 2000).unref();
  };
}

/** A loopback port inside the sandbox for the proxy, clear of the ports the server may forward. */
function insidePort(taken: number[]): number {
  let port = 0;
  do port = 20000 + Math.floor(Math.random() * 40000);
  while (taken.includes(port));
  return port;
}

function forwardToLoopback(socket: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((client) => {
      const upstream = connect({ host: '127.0.0.1', port });
      client.pipe(upstream).pipe(client);
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.once('error', end);
      upstream.once('error', end);
      client.once('close', end);
      upstream.once('close', end);
    });
    server.once('error', reject);
    server.listen(socket, () => resolve(server));
  });
}

/** Unix sockets in these folders and one level down (an X display, an ssh-agent's folder): hidden. */
export function socketsUnder(dirs: string[]): string[] {
  const found: string[] = [];
  const scan = (dir: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isSocket()) found.push(p);
      else if (e.isDirectory() && depth > 0) scan(p, depth - 1);
    }
  };
  for (const d of dirs) scan(d, 1);
  return found;
}

function runtimeDirOutsideRun(dir: string | undefined): string[] {
  return dir && !dir.startsWith('/run/') && isDir(dir) ? [dir] : [];
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
