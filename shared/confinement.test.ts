import { describe, expect, it } from 'vitest';
import { ServerConfigSchema } from './config';
import {
  confinementSummary,
  mergeSandbox,
  profileKindOf,
  SandboxSettingsSchema,
  sandboxProfile,
} from './confinement';

describe('a server’s confinement', () => {
  it('reads VS Code’s shape and refuses what has no meaning', () => {
    const ok = SandboxSettingsSchema.parse({
      filesystem: { allowWrite: ['~/.npm', '/tmp/x'], denyRead: ['~/.ssh'], denyWrite: [] },
      network: { allowedDomains: ['Registry.NPMJS.org', '*.example.com', 'localhost:5432', '[::1]:8080'] },
    });
    expect(ok.network?.allowedDomains).toEqual([
      'registry.npmjs.org',
      '*.example.com',
      'localhost:5432',
      '[::1]:8080',
    ]);
    expect(SandboxSettingsSchema.safeParse({ filesystem: { allowWrite: ['relative/path'] } }).success).toBe(
      false,
    );
    expect(SandboxSettingsSchema.safeParse({ network: { allowedDomains: ['http://x.com'] } }).success).toBe(
      false,
    );
    expect(SandboxSettingsSchema.safeParse({ network: { allowedDomains: ['x.com:99999'] } }).success).toBe(
      false,
    );
    expect(SandboxSettingsSchema.safeParse({ network: { allowedDomains: ['*'] } }).success).toBe(false);
    expect(SandboxSettingsSchema.safeParse({ filesystem: { allowRead: [] } }).success).toBe(false);
    expect(
      ServerConfigSchema.safeParse({
        name: 'r',
        transport: 'http',
        url: 'https://x.example/mcp',
        sandboxEnabled: true,
      }).success,
    ).toBe(false);
  });

  it('profiles by runtime: npx and uvx runners, a bundle’s folder, nothing for the rest', () => {
    expect(profileKindOf('npx', ['-y', 'x'])).toBe('npx');
    expect(profileKindOf('/usr/local/bin/npx')).toBe('npx');
    expect(profileKindOf('npm', ['exec', 'x'])).toBe('npx');
    expect(profileKindOf('uvx', ['x'])).toBe('uvx');
    expect(profileKindOf('uv', ['tool', 'run', 'x'])).toBe('uvx');
    expect(profileKindOf('node', ['server.js'])).toBe('plain');
    expect(sandboxProfile('npx')).toEqual({
      filesystem: { allowWrite: ['~/.npm'] },
      network: { allowedDomains: ['registry.npmjs.org'] },
    });
    expect(sandboxProfile('uvx').network?.allowedDomains).toEqual(['pypi.org', 'files.pythonhosted.org']);
    expect(sandboxProfile('uvx', { platform: 'darwin' }).filesystem?.allowWrite).toContain(
      '~/Library/Caches/uv',
    );
    expect(sandboxProfile('bundle', { bundleDir: '/h/bundles/x' })).toEqual({
      filesystem: { allowWrite: ['/h/bundles/x'] },
    });
    expect(sandboxProfile('plain')).toEqual({});
    expect(
      mergeSandbox(sandboxProfile('npx'), {
        network: { allowedDomains: ['registry.npmjs.org', 'api.x.com'] },
      }),
    ).toEqual({
      filesystem: { allowWrite: ['~/.npm'] },
      network: { allowedDomains: ['registry.npmjs.org', 'api.x.com'] },
    });
  });

  it('says in one line what it can write and reach, or that it runs unconfined', () => {
    expect(
      confinementSummary({ transport: 'stdio', sandboxEnabled: true, sandbox: sandboxProfile('npx') }),
    ).toBe('Runs confined: writes only to ~/.npm; reaches only registry.npmjs.org.');
    expect(confinementSummary({ transport: 'stdio', sandboxEnabled: true })).toBe(
      'Runs confined: writes nowhere but its own temporary folder; reaches no network.',
    );
    expect(
      confinementSummary({
        sandboxEnabled: true,
        sandbox: { filesystem: { allowWrite: ['/a', '/b', '/c', '/d', '/e'] } },
      }),
    ).toBe('Runs confined: writes only to /a, /b, /c and 2 more; reaches no network.');
    expect(confinementSummary({ transport: 'stdio' })).toMatch(
      /^Runs unconfined: it can read and write everything/,
    );
    expect(confinementSummary({ transport: 'http' })).toMatch(/^Remote server/);
  });
});
