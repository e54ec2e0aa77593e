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
