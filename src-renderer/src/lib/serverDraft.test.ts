import { describe, expect, it } from 'vitest';
import { ServerConfigSchema } from '@shared/config';
import { clientConfigKind, draftFrom, emptyDraft, inputFrom } from './serverDraft';
import { checkArgs } from '@shared/toolArguments';

describe('the server form model', () => {
  it('round-trips a saved entry, keeping what the form has no field for', () => {
    const saved = ServerConfigSchema.parse({
      name: 'gh',
      command: 'npx',
      args: ['-y', 'server with space'],
      env: { GITHUB_TOKEN: '<keychain>', MODE: 'x' },
      secretEnv: ['GITHUB_TOKEN'],
      excludeTools: ['delete_repo'],
      policy: 'always-ask',
    });
    const d = draftFrom(saved);
    expect(d.args).toBe('-y\nserver with space');
    expect(d.env).toContainEqual({ key: 'GITHUB_TOKEN', value: '<keychain>', secret: true });
    const back = ServerConfigSchema.parse(inputFrom(d));
    expect(back).toEqual(saved);
  });

  it("carries a server's log level and sampling budget both ways; an older 'warn' reads as 'warning'", () => {
    const saved = ServerConfigSchema.parse({
      name: 'talkative',
      command: 'node',
      logLevel: 'notice',
      samplingTokensPerHour: 500,
    });
    const d = draftFrom(saved);
    expect(d.logLevel).toBe('notice');
    expect(d.samplingTokensPerHour).toBe('500');
    expect(ServerConfigSchema.parse(inputFrom(d))).toEqual(saved);
    expect(draftFrom({ name: 'old', command: 'node', logLevel: 'warn' as never }).logLevel).toBe('warning');
    // Cleared fields fall back to the defaults: nothing is written for them.
    const cleared = inputFrom({ ...d, logLevel: '', samplingTokensPerHour: '' });
    expect(cleared).not.toHaveProperty('logLevel');
    expect(cleared).not.toHaveProperty('samplingTokensPerHour');
    // A level the form cannot show stays in the entry, so saving says what is wrong with it.
    const typo = inputFrom(draftFrom({ name: 't', command: 'node', logLevel: 'loud' as never }));
    expect(ServerConfigSchema.safeParse(typo).success).toBe(false);
  });

  it('builds a remote entry from the URL and headers only', () => {
    const d = {
      ...emptyDraft(),
      name: 'r',
      transport: 'http' as const,
      command: 'stale',
      url: ' https://example.com/mcp ',
    };
    d.headers = [{ key: 'Authorization', value: 'Bearer t', secret: true }];
    expect(inputFrom(d)).toEqual({
      name: 'r',
      transport: 'http',
      url: 'https://example.com/mcp',
      headers: { Authorization: 'Bearer t' },
      secretHeaders: ['Authorization'],
    });
  });
});

describe('the form fields for cwd, policy and the message-size limit', () => {
  it('edits them and leaves them out when they are the defaults', () => {
    const d = { ...emptyDraft(), name: 'x', command: 'node' };
    expect(inputFrom(d)).toEqual({ name: 'x', transport: 'stdio', command: 'node' });
    const set = inputFrom({ ...d, cwd: ' /srv ', maxMessageMB: '16', policy: 'always-ask', trust: true });
    expect(set).toEqual({
      name: 'x',
      transport: 'stdio',
      command: 'node',
      cwd: '/srv',
      maxMessageMB: 16,
      policy: 'always-ask',
      trust: true,
    });
    expect(draftFrom(set)).toMatchObject({
      cwd: '/srv',
      maxMessageMB: '16',
      policy: 'always-ask',
      trust: true,
    });
  });
});

describe('a pasted client config', () => {
  it('is told apart from one server entry', () => {
    expect(clientConfigKind({ mcpServers: { a: { command: 'npx' } } })).toBe('mcpServers');
    expect(clientConfigKind({ servers: { a: { type: 'stdio', command: 'npx' } } })).toBe('servers');
    expect(clientConfigKind({ servers: [{ name: 'a', command: 'npx' }] })).toBe('servers');
    expect(clientConfigKind({ context_servers: { a: { command: 'npx' } } })).toBe('context_servers');
    expect(clientConfigKind({ mcp: { servers: {} } })).toBe('mcp.servers');
    expect(clientConfigKind({ name: 'a', command: 'npx' })).toBeNull();
    expect(clientConfigKind([1])).toBeNull();
  });
});

describe('argument checks against a tool schema', () => {
  const schema = {
    type: 'object',
    properties: { path: { type: 'string' }, n: { type: 'integer' } },
    required: ['path'],
  };
  it('accepts valid arguments', () => {
    expect(checkArgs('{"path": "/a", "n": 2}', schema)).toEqual({ ok: true, value: { path: '/a', n: 2 } });
  });
  it('names the field that is wrong, and says when JSON is broken or not an object', () => {
    const wrongType = checkArgs('{"path": 42}', schema);
    expect(wrongType.ok).toBe(false);
    expect(!wrongType.ok && wrongType.error).toMatch(/^path:/);
    expect(checkArgs('{}', schema)).toMatchObject({ ok: false });
    expect(checkArgs('{"path": ', schema)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/Not valid JSON/),
    });
    expect(checkArgs('[1]', schema)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/one JSON object/),
    });
  });
});
