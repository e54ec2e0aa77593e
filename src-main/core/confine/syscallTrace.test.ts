import { describe, expect, it } from 'vitest';
import type { ResolvedSandbox } from './sandboxPolicy';
import { classify, decodeLine, TraceLines, unescapeC } from './syscallTrace';

// Lines as strace 6.1 wrote them inside bubblewrap on Debian 12 (-f -y -e status=failed).
const LINES = {
  read: `6     openat(AT_FDCWD</tmp/cfx>, "/tmp/cfx/deny/x", O_RDONLY|O_CLOEXEC) = -1 EACCES (Permission denied)`,
  write: `6     openat(AT_FDCWD</tmp/cfx>, "/etc/mooring-x", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = -1 EROFS (Read-only file system)`,
  relative: `6     openat(AT_FDCWD</home/u/project>, "out/report.txt", O_WRONLY|O_CREAT, 0666) = -1 EROFS (Read-only file system)`,
  mkdir: `6     mkdir("/etc/newdir", 0777)        = -1 EROFS (Read-only file system)`,
  missing: `6     openat(AT_FDCWD</tmp>, "/usr/lib/locale/C.UTF-8/LC_CTYPE", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)`,
  v6: `6     connect(20<socket:[200861]>, {sa_family=AF_INET6, sin6_port=htons(9), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = -1 EINPROGRESS (Operation now in progress)`,
  v4: `6     connect(19<socket:[23691]>, {sa_family=AF_INET, sin_port=htons(45678), sin_addr=inet_addr("127.0.0.1")}, 16) = -1 EINPROGRESS (Operation now in progress)`,
  proxy: `6     connect(19<socket:[23691]>, {sa_family=AF_INET, sin_port=htons(38001), sin_addr=inet_addr("127.0.0.1")}, 16) = -1 EINPROGRESS (Operation now in progress)`,
  dns: `13    connect(21<socket:[200869]>, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.255.255.53")}, 16) = -1 ENETUNREACH (Network is unreachable)`,
};

const policy: ResolvedSandbox = {
  allowWrite: ['/home/u/.npm'],
  denyWrite: [],
  denyRead: ['/tmp/cfx/deny', '/home/u/.ssh'],
  fixedDenyRead: ['/home/u/.ssh'],
  rules: [],
  loopbackPorts: [],
};
const ctx = { writable: ['/home/u/.npm', '/run/mooring'], ways: [38001] };
const refusal = (line: string) => {
  const f = decodeLine(line.replace(/^\d+\s+/, ''));
  return f && classify(f, policy, ctx);
};

describe('refused accesses from strace', () => {
  it('a read of a denied path, with the reason there is no one-click allow', () => {
    expect(refusal(LINES.read)).toEqual({
      kind: 'read',
      target: '/tmp/cfx/deny/x',
      operation: 'open for reading',
      noAllowReason: 'it is listed in its denyRead; remove it there to allow it',
    });
  });

  it('a write outside allowWrite, offered as the path to allow; relative paths resolved against the descriptor', () => {
    expect(refusal(LINES.write)).toEqual({
      kind: 'write',
      target: '/etc/mooring-x',
      operation: 'open for writing',
      allow: { write: '/etc/mooring-x' },
    });
    expect(refusal(LINES.relative)?.target).toBe('/home/u/project/out/report.txt');
    expect(refusal(LINES.mkdir)).toMatchObject({
      kind: 'write',
      target: '/etc/newdir',
      operation: 'create a folder',
    });
  });

  it('a connection to anything but the sandbox’s own ways out, and a DNS lookup the server made itself', () => {
    expect(refusal(LINES.v4)).toEqual({
      kind: 'network',
      target: '127.0.0.1:45678',
      operation: 'connect',
      allow: { domain: '127.0.0.1:45678' },
    });
    expect(refusal(LINES.v6)?.target).toBe('[::1]:9');
    expect(refusal(LINES.proxy)).toBeUndefined();
    expect(refusal(LINES.dns)).toMatchObject({ operation: 'look up a host name itself (DNS)' });
    expect(refusal(LINES.dns)?.allow).toBeUndefined();
  });

  it('ignores the misses every program has (ENOENT), and reads that were allowed', () => {
    expect(refusal(LINES.missing)).toBeUndefined();
    expect(
      refusal(`6 openat(AT_FDCWD</>, "/etc/shadow", O_RDONLY|O_CLOEXEC) = -1 EACCES (Permission denied)`),
    ).toBeUndefined();
  });

  it('a floor path is never offered', () => {
    expect(
      refusal(`6 openat(AT_FDCWD</>, "/home/u/.ssh/id_ed25519", O_RDONLY) = -1 EACCES (Permission denied)`)
        ?.noAllowReason,
    ).toMatch(/no confined server may read it/);
  });

  it('joins a call strace split in two, per process', () => {
    const lines = new TraceLines();
    expect(lines.push(`7 openat(AT_FDCWD</>, "/etc/x", O_WRONLY|O_CREAT <unfinished ...>`)).toBeUndefined();
    expect(
      lines.push(`8 openat(AT_FDCWD</>, "/etc/y", O_RDONLY) = -1 ENOENT (No such file or directory)`),
    ).toMatchObject({
      errno: 'ENOENT',
    });
    expect(lines.push(`7 <... openat resumed>, 0666) = -1 EROFS (Read-only file system)`)).toMatchObject({
      paths: ['/etc/x'],
      writes: true,
      errno: 'EROFS',
    });
  });

  it('decodes strace’s escapes back to the path (quotes, octal bytes of UTF-8)', () => {
    expect(unescapeC('a\\"b\\\\c')).toBe('a"b\\c');
    expect(unescapeC('caf\\303\\251')).toBe('café');
    expect(
      decodeLine(`openat(AT_FDCWD</>, "/etc/caf\\303\\251 \\"q\\"", O_WRONLY) = -1 EROFS (x)`)?.paths,
    ).toEqual(['/etc/café "q"']);
  });
});
