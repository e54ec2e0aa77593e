import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServerConfigSchema, type ServerConfigInput } from '@shared/config';
import { tempDir } from '../../../test/helpers/servers';
import { ManagedPolicyFile, policyPath } from './managedPolicy';

const cfg = (c: Partial<ServerConfigInput>) => ServerConfigSchema.parse({ name: 's', command: 'node', ...c });
const policy = (p: unknown) => {
  const file = join(tempDir('mooring-policy-'), 'policy.json');
  writeFileSync(file, JSON.stringify(p));
  return new ManagedPolicyFile(file);
};

describe('the managed policy', () => {
  it('lives at the system path of each platform, or MOORING_POLICY_FILE', () => {
    expect(policyPath({}, 'linux')).toBe('/etc/mooring/policy.json');
    expect(policyPath({}, 'darwin')).toBe('/Library/Application Support/Mooring/policy.json');
    expect(policyPath({ ProgramData: 'D:\\PD' }, 'win32')).toBe(join('D:\\PD', 'Mooring', 'policy.json'));
    expect(policyPath({ MOORING_POLICY_FILE: '/x/p.json' }, 'linux')).toBe('/x/p.json');
  });

  it('no file: everything allowed', () => {
    const p = new ManagedPolicyFile('/nonexistent/policy.json');
    expect(() => p.check(cfg({}), 'form')).not.toThrow();
    expect(p.view()).toMatchObject({ active: false, rules: [] });
  });

  it('refuses by command, command line, URL pattern, registry name and name, naming the rule and who manages it', () => {
    const p = policy({
      managedBy: 'Example IT',
      deniedServers: [
        { command: 'docker' },
        { serverCommand: ['npx', '-y', '@evil/*'] },
        { serverUrl: 'https://*.evil.example/*' },
        { registryName: 'io.github.evil/*' },
        { serverName: 'forbidden' },
      ],
    });
    expect(() => p.check(cfg({ command: '/usr/bin/docker', args: ['run'] }), 'form')).toThrow(
      /managed by Example IT.*deniedServers\[0\] \{"command":"docker"\}/,
    );
    expect(() => p.check(cfg({ command: 'npx', args: ['-y', '@evil/mcp'] }), 'cli')).toThrow(
      /deniedServers\[1\]/,
    );
    expect(() => p.check(cfg({ command: 'npx', args: ['-y', '@good/mcp'] }), 'cli')).not.toThrow();
    expect(() =>
      p.check(cfg({ transport: 'http', command: undefined, url: 'https://a.evil.example/mcp' }), 'link'),
    ).toThrow(/deniedServers\[2\]/);
    // A star in the host never crosses into the path.
    expect(() =>
      p.check(
        cfg({ transport: 'http', command: undefined, url: 'https://good.example/x.evil.example/mcp' }),
        'link',
      ),
    ).not.toThrow();
    expect(() =>
      p.check(cfg({ origin: { kind: 'registry', name: 'io.github.evil/tool' } }), 'registry'),
    ).toThrow(/deniedServers\[3\]/);
    expect(() => p.check(cfg({ name: 'forbidden' }), 'import')).toThrow(/deniedServers\[4\]/);
  });

  it('an allow list lets only its entries in; registryOnly only registry installs; confinement.required only confined servers', () => {
    const p = policy({
      allowedServers: [{ command: 'node' }, { registryName: 'io.github.ok/*' }],
      registryOnly: true,
      confinement: { required: true },
    });
    expect(() => p.check(cfg({ command: 'python3' }), 'registry')).toThrow(/allowedServers/);
    expect(() => p.check(cfg({ sandboxEnabled: true }), 'form')).toThrow(/registryOnly/);
    expect(() => p.check(cfg({}), 'registry')).toThrow(/confinement\.required/);
    expect(() => p.check(cfg({ sandboxEnabled: true }), 'registry')).not.toThrow();
    expect(() => p.check(cfg({ sandboxEnabled: true, origin: { kind: 'registry' } }), 'start')).not.toThrow();
    expect(() => p.check(cfg({ sandboxEnabled: true }), 'start')).toThrow(/registryOnly/);
  });

  it('a file that cannot be used refuses everything, and says why', () => {
    const p = policy({ registryOnly: 'yes' });
    expect(() => p.check(cfg({}), 'form')).toThrow(/cannot be used: registryOnly/);
    expect(p.view()).toMatchObject({ active: true, error: expect.stringMatching(/registryOnly/) });
  });

  it('shows each rule in a sentence, and the settings it locks', () => {
    const v = policy({
      managedBy: 'Example IT',
      deniedServers: [{ command: 'docker' }],
      confinement: { required: true, denyRead: ['~/corp'], allowedDomains: ['proxy.corp'] },
      alwaysAllow: false,
      yolo: false,
      registryUrl: 'https://mcp.corp.example',
    }).view();
    expect(v.managedBy).toBe('Example IT');
    expect(v.rules).toEqual([
      'These servers may not be added: command docker.',
      'The registry is https://mcp.corp.example.',
      'Every local server runs confined.',
      'No confined server may read ~/corp.',
      'Every confined server may reach proxy.corp.',
      '"Always allow" is off: each call is approved on its own.',
      'YOLO mode is off.',
    ]);
    expect(v.locks).toEqual({
      yolo: false,
      alwaysAllow: false,
      confinementRequired: true,
      registryUrl: 'https://mcp.corp.example',
    });
  });
});
