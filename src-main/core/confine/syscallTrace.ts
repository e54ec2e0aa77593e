// Refused accesses, read from strace inside the sandbox (docs/confinement.md, "Refused accesses"): strace
// reports every traced syscall that failed; a failure is a refusal when the sandbox caused it — a file
// access that failed with EACCES, EPERM or EROFS on a path the policy denies or does not allow to be
// written, a connection to anything but the sandbox's own ways out. The lines come from inside the
// sandbox: a hint to show, never a reason to widen anything by itself.
import { posix } from 'node:path';
import type { SandboxViolation } from '@shared/confinement';
import { isUnder, type ResolvedSandbox } from './sandboxPolicy';

/** One traced syscall that failed, decoded. */
export interface TracedFailure {
  syscall: string;
  errno: string;
  /** The paths it named, resolved against its directory descriptor; the one it creates or changes last. */
  paths: string[];
  /** For open-like calls: whether it opened for writing or creating. */
  writes: boolean;
  /** For connect: the address it tried. */
  address?: { family: 'inet' | 'unix'; host: string; port?: number };
}

export type Refusal = Omit<SandboxViolation, 'server' | 'count' | 'first' | 'last'>;

const WRITE_FLAGS = /\bO_(WRONLY|RDWR|CREAT|TRUNC|APPEND)\b/;
const CREATES = new Set([
  'mkdir',
  'mkdirat',
  'unlink',
  'unlinkat',
  'rmdir',
  'rename',
  'renameat',
  'renameat2',
]);
const CREATES_LAST = new Set(['link', 'linkat', 'symlink', 'symlinkat']);

/** Joins strace's `<unfinished ...>` / `<... resumed>` halves per process and decodes each whole line. */
export class TraceLines {
  private pending = new Map<string, string>();

  push(line: string): TracedFailure | undefined {
    const m = /^(\d+)\s+(.*)$/.exec(line);
    const pid = m?.[1] ?? '';
    let body = m ? m[2]! : line;
    if (body.endsWith('<unfinished ...>')) {
      this.pending.set(pid, body.slice(0, -'<unfinished ...>'.length));
      return undefined;
    }
    const resumed = /^<\.\.\. \w+ resumed>(.*)$/.exec(body);
    if (resumed) {
      const head = this.pending.get(pid);
      this.pending.delete(pid);
      if (head === undefined) return undefined;
      body = head + resumed[1]!;
    }
    return decodeLine(body);
  }
}

export function decodeLine(body: string): TracedFailure | undefined {
  const m = /^(\w+)\((.*)\)\s+=\s+-1\s+(E[A-Z0-9]+)/.exec(body);
  if (!m) return undefined;
  const [, syscall, argText, errno] = m as unknown as [string, string, string, string];
  const args = splitArgs(argText);
  if (syscall === 'connect') {
    const address = decodeSockaddr(args[1] ?? '');
    return address ? { syscall, errno, paths: [], writes: false, address } : undefined;
  }
  const paths: string[] = [];
  let dir: string | undefined;
  for (const a of args) {
    const fd = /^(?:AT_FDCWD|\d+)<(.*)>$/.exec(a);
    if (fd) {
      dir = unescapeC(fd[1]!);
      continue;
    }
    if (a.startsWith('"')) {
      const p = unescapeC(a.slice(1, a.lastIndexOf('"')));
      paths.push(posix.isAbsolute(p) ? posix.normalize(p) : posix.normalize(posix.join(dir ?? '/', p)));
    }
  }
  if (!paths.length) return undefined;
  if (CREATES_LAST.has(syscall)) paths.splice(0, paths.length - 1);
  const writes =
    CREATES.has(syscall) || CREATES_LAST.has(syscall) || syscall === 'truncate' || syscall === 'creat'
      ? true
      : args.some((a) => WRITE_FLAGS.test(a));
  return { syscall, errno, paths, writes };
}

const REFUSED_FILE = new Set(['EACCES', 'EPERM', 'EROFS']);

/**
 * Whether a failure is the sandbox's doing, and what it was. `ways` are the sandbox's own ways out (the
 * proxy's and the forwarders' loopback ports), never refusals.
 */
export function classify(
  f: TracedFailure,
  policy: ResolvedSandbox,
  ctx: { writable: string[]; ways: number[] },
): Refusal | undefined {
  if (f.address) return classifyConnect(f, ctx.ways);
  if (!REFUSED_FILE.has(f.errno)) return undefined;
  for (const path of f.paths) {
    const denied = isUnder(path, policy.denyRead);
    if (!f.writes) {
      if (!denied) continue;
      return { kind: 'read', target: path, operation: 'open for reading', ...readAnswer(path, policy) };
    }
    const allowed = isUnder(path, ctx.writable) && !isUnder(path, policy.denyWrite);
    if (allowed && !denied) continue;
    const operation = f.syscall.startsWith('mkdir')
      ? 'create a folder'
      : f.syscall.startsWith('open') || f.syscall === 'creat'
        ? 'open for writing'
        : f.syscall.replace(/at2?$/, '');
    if (denied) return { kind: 'write', target: path, operation, ...readAnswer(path, policy) };
    if (isUnder(path, policy.denyWrite))
      return { kind: 'write', target: path, operation, noAllowReason: 'it is listed in its denyWrite' };
    return { kind: 'write', target: path, operation, allow: { write: path } };
  }
  return undefined;
}

function readAnswer(path: string, policy: ResolvedSandbox): Pick<Refusal, 'noAllowReason'> {
  return isUnder(path, policy.fixedDenyRead)
    ? { noAllowReason: 'no confined server may read it (credentials, or Mooring’s own files)' }
    : { noAllowReason: 'it is listed in its denyRead; remove it there to allow it' };
}

function classifyConnect(f: TracedFailure, ways: number[]): Refusal | undefined {
  const a = f.address!;
  if (a.family === 'unix') {
    // A hidden socket (replaced by an empty file) answers ECONNREFUSED; ENOENT is the common miss.
    if (f.errno !== 'ECONNREFUSED' && f.errno !== 'EACCES') return undefined;
    return {
      kind: 'network',
      target: `unix:${a.host}`,
      operation: 'connect to a local socket',
      noAllowReason: 'local sockets outside the sandbox stay closed',
    };
  }
  if (f.errno === 'EALREADY' || f.errno === 'EISCONN') return undefined;
  const local = a.host === '127.0.0.1' || a.host === '::1' || a.host === '::ffff:127.0.0.1';
  if (local && a.port !== undefined && ways.includes(a.port)) return undefined;
  const target = a.host.includes(':') ? `[${a.host}]:${a.port}` : `${a.host}:${a.port}`;
  if (a.port === 53)
    return {
      kind: 'network',
      target,
      operation: 'look up a host name itself (DNS)',
      noAllowReason: 'a confined server reaches hosts through Mooring’s proxy only; this one does not use it',
    };
  return { kind: 'network', target, operation: 'connect', allow: { domain: target } };
}

/** `{sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("1.2.3.4")}` and the IPv6 and Unix forms. */
function decodeSockaddr(text: string): TracedFailure['address'] {
  const port = /htons\((\d+)\)/.exec(text);
  if (text.includes('AF_INET6')) {
    const host = /inet_pton\(AF_INET6,\s*"([^"]+)"/.exec(text);
    return host && port ? { family: 'inet', host: host[1]!, port: Number(port[1]) } : undefined;
  }
  if (text.includes('AF_INET')) {
    const host = /inet_addr\("([^"]+)"\)/.exec(text);
    return host && port ? { family: 'inet', host: host[1]!, port: Number(port[1]) } : undefined;
  }
  const path = /sun_path=@?"((?:[^"\\]|\\.)*)"/.exec(text);
  return path ? { family: 'unix', host: unescapeC(path[1]!) } : undefined;
}

/** Top-level arguments of a syscall's text, split on commas outside quotes, braces and brackets. */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inStr = false;
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inStr) {
      cur += c;
      if (c === '\\') cur += text[++i] ?? '';
      else if (c === '"') inStr = false;
      continue;
    }
    if (c === '"') inStr = true;
    else if (c === '{' || c === '[' || c === '(' || c === '<') depth++;
    else if (c === '}' || c === ']' || c === ')' || c === '>') depth--;
    if (c === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** strace's C escapes (`\"`, `\\`, `\n`, octal and `\x` bytes) back to text. */
export function unescapeC(s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const n = s[++i] ?? '';
    if (/[0-7]/.test(n)) {
      let oct = n;
      while (oct.length < 3 && /[0-7]/.test(s[i + 1] ?? '')) oct += s[++i];
      bytes.push(parseInt(oct, 8));
    } else if (n === 'x') {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(({ n: 10, t: 9, r: 13, v: 11, f: 12 } as Record<string, number>)[n] ?? n.charCodeAt(0));
  }
  return Buffer.from(bytes).toString('utf8');
}
