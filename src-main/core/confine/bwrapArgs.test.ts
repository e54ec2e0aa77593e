import { describe, expect, it } from 'vitest';
import { bwrapArgs, initScript, INSIDE_PROXY, INSIDE_TMP, type BwrapRun } from './bwrapArgs';
import { seatbeltProfile } from './seatbeltRun';
import type { ResolvedSandbox } from './sandboxPolicy';

const policy: ResolvedSandbox = {
  allowWrite: ['/home/u/.npm', '/home/u/.ssh/keep'],
  denyWrite: ['/home/u/.npm/_cacache/locked'],
  denyRead: ['/home/u/.ssh', '/home/u/.netrc'],
  fixedDenyRead: ['/home/u/.ssh'],
  rules: [{ host: 'registry.npmjs.org', wildcard: false }],
  loopbackPorts: [5432],
};
const run: BwrapRun = {
  bwrap: '/usr/bin/bwrap',
  socat: '/usr/bin/socat',
  strace: '/usr/bin/strace',
  tmp: '/run/x/tmp',
  emptyDir: '/run/x/denied',
  emptyFile: '/run/x/denied-file',
  proxy: { socket: '/run/x/proxy.sock', port: 30000 },
  loopback: [{ port: 5432, socket: '/run/x/port-5432.sock' }],
  trace: '/run/x/trace',
  hideSockets: ['/tmp/.X11-unix/X0'],
  hideDirs: [],
  isDir: (p) => !p.endsWith('.netrc'),
  root: true,
};

describe('the bubblewrap command line', () => {
  const { command, args } = bwrapArgs(policy, run, { command: 'npx', args: ['-y', 'pkg'], cwd: '/home/u/p' });
  const at = (...seq: string[]) => args.findIndex((_, i) => seq.every((s, j) => args[i + j] === s));

  it('everything read-only, its own namespaces, no capabilities, dies with Mooring', () => {
    expect(command).toBe('/usr/bin/bwrap');
    for (const flag of ['--die-with-parent', '--unshare-pid', '--unshare-net', '--unshare-ipc'])
      expect(args).toContain(flag);
    expect(at('--cap-drop', 'ALL')).toBeGreaterThanOrEqual(0);
    expect(at('--ro-bind', '/', '/')).toBeGreaterThanOrEqual(0);
    expect(at('--tmpfs', '/run')).toBeGreaterThan(at('--ro-bind', '/', '/'));
    expect(at('--ro-bind', run.emptyFile, '/tmp/.X11-unix/X0')).toBeGreaterThan(0);
    expect(bwrapArgs(policy, { ...run, root: false }, { command: 'x', args: [] }).args).not.toContain(
      '--cap-drop',
    );
  });

  it('writable where allowed, then denied paths replaced: a deny wins over an allow', () => {
    const allow = at('--bind', '/home/u/.ssh/keep', '/home/u/.ssh/keep');
    const deny = at('--ro-bind', run.emptyDir, '/home/u/.ssh');
    expect(allow).toBeGreaterThan(0);
    expect(deny).toBeGreaterThan(allow);
    expect(at('--ro-bind', run.emptyFile, '/home/u/.netrc')).toBeGreaterThan(0);
    expect(
      at('--ro-bind-try', '/home/u/.npm/_cacache/locked', '/home/u/.npm/_cacache/locked'),
    ).toBeGreaterThan(at('--bind', '/home/u/.npm', '/home/u/.npm'));
    // Its own temporary folder is bound last, so the denial of Mooring's home (where it lives) does not hide it.
    expect(at('--bind', run.tmp, INSIDE_TMP)).toBeGreaterThan(deny);
  });

  it('the ways out are bound into its own /run, and the shell waits for socat before it becomes the server', () => {
    expect(at('--bind', '/run/x/proxy.sock', INSIDE_PROXY)).toBeGreaterThan(at('--tmpfs', '/run'));
    expect(args.slice(-4)).toEqual(['mooring-sandbox', 'npx', '-y', 'pkg']);
    expect(args.slice(-3)).toEqual(['npx', '-y', 'pkg']);
    expect(at('--chdir', '/home/u/p')).toBeGreaterThan(0);
    const script = initScript(run);
    expect(script).toContain(`TCP-LISTEN:30000,bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${INSIDE_PROXY}`);
    expect(script).toContain('TCP-LISTEN:5432,bind=127.0.0.1');
    expect(script).toContain('for h in 7530 1538');
    expect(script).toMatch(/exec '\/usr\/bin\/strace' -f .* -e status=failed .* -- "\$@"$/);
    expect(initScript({ ...run, proxy: undefined, loopback: [], strace: undefined, trace: undefined })).toBe(
      'exec "$@"',
    );
  });
});

describe('the Seatbelt profile (macOS)', () => {
  it('denies writes but where allowed, denied reads, connections but to the proxy and listed loopback ports', () => {
    const p = seatbeltProfile(policy, { tmp: '/private/var/t', proxyPort: 40000, mark: 'mooring-abc' });
    const lines = p.split('\n');
    expect(lines[0]).toBe('(version 1)');
    expect(lines).toContain('(deny network-outbound (with message "mooring-abc"))');
    expect(lines).toContain('(allow network-outbound (remote ip "localhost:40000"))');
    expect(lines).toContain('(allow network-outbound (remote ip "localhost:5432"))');
    const denyWrite = lines.indexOf('(deny file-write* (with message "mooring-abc"))');
    const allowWrite = lines.findIndex((l) => l.startsWith('(allow file-write*'));
    expect(allowWrite).toBeGreaterThan(denyWrite);
    expect(lines[allowWrite]).toContain('(subpath "/home/u/.npm")');
    const denyRead = lines.findIndex((l) => l.startsWith('(deny file-read* file-write*'));
    expect(denyRead).toBeGreaterThan(allowWrite);
    expect(lines[denyRead]).toContain('(subpath "/home/u/.ssh")');
    expect(lines.at(-1)).toBe('(allow file-read* file-write* (subpath "/private/var/t"))');
  });
});
