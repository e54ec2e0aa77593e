import { describe, expect, it } from 'vitest';
import { ServerConfigSchema } from '@shared/config';
import { draftFrom, emptyDraft, inputFrom } from './serverDraft';
import { checkArgs } from './argsValidation';

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
