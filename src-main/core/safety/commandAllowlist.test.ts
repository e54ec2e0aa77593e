import { describe, expect, it } from 'vitest';
import { ServerConfigSchema } from '@shared/config';
import { MooringError } from '../errors';
import { ALLOWED_RUNTIMES, checkCommandAllowed, describeCommandLine, runtimeOf } from './commandAllowlist';

const refusal = (command: string, platform: NodeJS.Platform = 'linux'): MooringError | undefined => {
  try {
    checkCommandAllowed({ name: 'srv', command, trust: false }, platform);
    return undefined;
  } catch (e) {
    return e as MooringError;
  }
};

describe('stdio command allowlist', () => {
  it.each(ALLOWED_RUNTIMES.map((r) => [r]))('allows %s', (r) => {
    expect(refusal(r)).toBeUndefined();
    expect(refusal(`/usr/bin/${r}`)).toBeUndefined();
  });

  it.each([
    ['C:\\Program Files\\nodejs\\npx.cmd', 'npx'],
    ['C:\\Program Files\\nodejs\\NODE.EXE', 'node'],
    ['uvx.exe', 'uvx'],
    ['C:/Python312/python.exe', 'python'],
  ])('on Windows %s counts as %s', (cmd, runtime) => {
    expect(runtimeOf(cmd, 'win32')).toBe(runtime);
    expect(refusal(cmd, 'win32')).toBeUndefined();
  });

  it('does not strip Windows extensions on other platforms', () => {
    expect(runtimeOf('npx.cmd', 'linux')).toBeUndefined();
    expect(runtimeOf('/usr/local/bin/node', 'darwin')).toBe('node');
  });

  it.each([
    'bash',
    './x.sh',
    '/tmp/evil',
    'sh',
    'node-evil',
    '/usr/bin/nodejs',
    'curl',
    'python3.12',
    'x.cmd',
  ])('refuses %s with a hint to mark the server trusted', (cmd) => {
    const err = refusal(cmd);
    expect(err).toBeInstanceOf(MooringError);
    expect(err?.code).toBe('untrusted_command');
    expect(err?.message).toContain(`The command "${cmd}" is not a known runtime`);
    expect(err?.hint).toMatch(/--trust/);
    expect(err?.hint).toMatch(/"Trust this command"/);
  });

  it('allows anything for a trusted server', () => {
    expect(() =>
      checkCommandAllowed({ name: 'srv', command: './evil.sh', trust: true }, 'linux'),
    ).not.toThrow();
  });
});

describe('describeCommandLine', () => {
  it('shows the full stdio command line, quoted, with secret env values masked', () => {
    const config = ServerConfigSchema.parse({
      name: 'gh',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github', 'a b', "it's"],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_x', LOG_LEVEL: 'debug', PLAIN: 'v1' },
      secretEnv: ['PLAIN'],
      cwd: '/home/me/my dir',
    });
    expect(describeCommandLine(config)).toBe(
      "cd '/home/me/my dir' && GITHUB_PERSONAL_ACCESS_TOKEN=••• LOG_LEVEL=debug PLAIN=••• npx -y @modelcontextprotocol/server-github 'a b' 'it'\\''s'",
    );
  });

  it('shows the URL of a remote server', () => {
    const config = ServerConfigSchema.parse({
      name: 'r',
      transport: 'http',
      url: 'https://mcp.example.com/mcp',
    });
    expect(describeCommandLine(config)).toBe('HTTP https://mcp.example.com/mcp');
  });
});
