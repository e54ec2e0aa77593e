// Splitting, resolving, masking and redacting server secrets (README, "Safety"). The keychain here is MemorySecretStore;
// the real Secret Service is exercised in keytarSecretStore.test.ts.
import { ServerConfigSchema, type ServerConfigInput } from '@shared/config';
import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from './secretStore';
import {
  deleteServerSecrets,
  inputAccount,
  isReference,
  KEYCHAIN_REF,
  looksSecret,
  MASK,
  maskArgs,
  maskConfig,
  maskUrl,
  moveServerSecrets,
  resolveServerConfig,
  secretAccounts,
  secretValuesOf,
  splitSecrets,
} from './serverSecrets';

const server = (input: ServerConfigInput) => ServerConfigSchema.parse(input);

describe('looksSecret', () => {
  it.each([
    'GITHUB_TOKEN',
    'api_key',
    'X-Api-Key',
    'CLIENT_SECRET',
    'DB_PASSWORD',
    'Authorization',
    'proxy-authorization',
  ])('%s looks secret', (name) => expect(looksSecret(name)).toBe(true));
  it.each(['PATH', 'DEBUG', 'Content-Type', 'LOG_LEVEL', 'HOME'])('%s does not', (name) =>
    expect(looksSecret(name)).toBe(false),
  );
});

describe('splitSecrets', () => {
  it('moves marked and secret-looking values out of the config, with per-server account names', () => {
    const { config, secrets } = splitSecrets({
      name: 'gh',
      command: 'docker',
      env: { GITHUB_TOKEN: 'ghp_abc', LOG_LEVEL: 'debug', CUSTOM: 'c-value' },
      secretEnv: ['CUSTOM'],
      headers: {},
    });
    expect(config.env).toEqual({ GITHUB_TOKEN: KEYCHAIN_REF, LOG_LEVEL: 'debug', CUSTOM: KEYCHAIN_REF });
    expect(config.secretEnv).toEqual(['CUSTOM', 'GITHUB_TOKEN']);
    expect(secrets).toEqual([
      { account: 'server/gh/env/CUSTOM', value: 'c-value', field: 'env CUSTOM' },
      { account: 'server/gh/env/GITHUB_TOKEN', value: 'ghp_abc', field: 'env GITHUB_TOKEN' },
    ]);
    expect(JSON.stringify(config)).not.toMatch(/ghp_abc|c-value/);
  });

  it('Cookie, X-Auth*, Proxy-Authorization and a URL with a password are secrets', () => {
    const { config, secrets } = splitSecrets({
      name: 'db',
      transport: 'http',
      url: 'https://db.example.com/mcp',
      env: { DATABASE_URL: 'postgres://app:pa55w0rd@db.internal/app', PUBLIC_URL: 'https://example.com/' },
      headers: {
        Cookie: 'session=abc123',
        'X-Auth-Token': 'xat-1',
        'Proxy-Authorization': 'Basic dXNlcjpwdw==',
        Accept: 'application/json',
      },
    });
    expect(config.headers).toEqual({
      Cookie: KEYCHAIN_REF,
      'X-Auth-Token': KEYCHAIN_REF,
      'Proxy-Authorization': KEYCHAIN_REF,
      Accept: 'application/json',
    });
    expect(config.env).toEqual({ DATABASE_URL: KEYCHAIN_REF, PUBLIC_URL: 'https://example.com/' });
    expect(secrets.map((x) => x.field).sort()).toEqual([
      'env DATABASE_URL',
      'header Cookie',
      'header Proxy-Authorization',
      'header X-Auth-Token',
    ]);
    expect(JSON.stringify(config)).not.toMatch(/pa55w0rd|abc123|xat-1|dXNlcjpwdw/);
  });

  it('headers: Authorization is detected; detect:false keeps only what is marked', () => {
    const input = {
      name: 'web',
      transport: 'http' as const,
      url: 'https://x.example/mcp',
      headers: { Authorization: 'Bearer t0k', 'X-Team': 'a' },
    };
    expect(splitSecrets(input).secrets).toEqual([
      { account: 'server/web/header/Authorization', value: 'Bearer t0k', field: 'header Authorization' },
    ]);
    expect(splitSecrets(input, { detect: false }).secrets).toEqual([]);
    expect(splitSecrets({ ...input, secretHeaders: ['X-Team'] }, { detect: false }).config.headers).toEqual({
      Authorization: 'Bearer t0k',
      'X-Team': KEYCHAIN_REF,
    });
  });

  it('references (${env:…}, ${input:…}) are not secret values and stay in the file', () => {
    const { config, secrets } = splitSecrets({
      name: 'p',
      command: 'npx',
      env: { API_KEY: '${input:key}', TOKEN: '${env:MY_TOKEN}' },
      secretEnv: ['TOKEN'],
    });
    expect(secrets).toEqual([]);
    expect(config.env).toEqual({ API_KEY: '${input:key}', TOKEN: '${env:MY_TOKEN}' });
    expect(config.secretEnv).toEqual([]);
    expect(isReference('Bearer ${env:T}')).toBe(true);
  });

  it('a value already "<keychain>" is kept as stored, not re-stored', () => {
    const { config, secrets } = splitSecrets({
      name: 'a',
      command: 'x',
      env: { TOKEN: KEYCHAIN_REF },
      secretEnv: ['TOKEN'],
    });
    expect(secrets).toEqual([]);
    expect(config.secretEnv).toEqual(['TOKEN']);
  });

  it('a masked value sent back from a form ("••••••") keeps the stored secret instead of replacing it', () => {
    const { config, secrets } = splitSecrets({
      name: 'a',
      command: 'x',
      env: { TOKEN: MASK, OTHER: 'o' },
      secretEnv: [],
    });
    expect(secrets).toEqual([]);
    expect(config.env).toEqual({ TOKEN: KEYCHAIN_REF, OTHER: 'o' });
    expect(config.secretEnv).toEqual(['TOKEN']);
  });

  it('secretEnv naming a missing key is left for the schema to report', () => {
    const { config } = splitSecrets({ name: 'a', command: 'x', env: {}, secretEnv: ['NOPE'] });
    expect(ServerConfigSchema.safeParse(config).error?.issues[0]?.message).toBe('"NOPE" is not a key of env');
  });
});

describe('resolveServerConfig', () => {
  const cfg = server({
    name: 'gh',
    command: 'node',
    args: ['--root', '${env:ROOT}'],
    env: { GITHUB_TOKEN: KEYCHAIN_REF, OTHER: 'plain', FROM_ENV: '${env:SOURCE}' },
    secretEnv: ['GITHUB_TOKEN'],
  });

  it('fills keychain values and ${env:NAME} references', async () => {
    const store = new MemorySecretStore();
    await store.set('server/gh/env/GITHUB_TOKEN', 'ghp_real');
    const r = await resolveServerConfig(cfg, store, { SOURCE: 'from-env', ROOT: '/data' });
    expect(r.env).toEqual({ GITHUB_TOKEN: 'ghp_real', OTHER: 'plain', FROM_ENV: 'from-env' });
    expect(r.args).toEqual(['--root', '/data']);
  });

  it('a missing keychain value is secret_unavailable naming the server and key', async () => {
    await expect(
      resolveServerConfig(cfg, new MemorySecretStore(), { SOURCE: 'x', ROOT: 'y' }),
    ).rejects.toMatchObject({
      code: 'secret_unavailable',
      message: 'Server "gh": the secret env GITHUB_TOKEN is not in the keychain.',
      hint: expect.stringMatching(/--secret-env GITHUB_TOKEN=VALUE/),
    });
  });

  it('an unset environment variable is secret_unavailable naming it', async () => {
    const store = new MemorySecretStore();
    await store.set('server/gh/env/GITHUB_TOKEN', 'x');
    await expect(resolveServerConfig(cfg, store, { ROOT: '/' })).rejects.toMatchObject({
      code: 'secret_unavailable',
      message:
        'Server "gh": env FROM_ENV refers to ${env:SOURCE}, but SOURCE is not set in Mooring\'s environment.',
      hint: 'Export SOURCE before starting Mooring, or store the value in the keychain instead.',
    });
  });

  it('no keychain: the error names the server and keeps the env-reference hint', async () => {
    await expect(
      resolveServerConfig(cfg, new MemorySecretStore({ unavailable: 'no D-Bus' }), {}),
    ).rejects.toMatchObject({
      code: 'secret_unavailable',
      message: expect.stringMatching(
        /^Server "gh": cannot read the secret env GITHUB_TOKEN\. No keychain is reachable[^\n]*\nThe keychain said: no D-Bus$/,
      ),
      hint: expect.stringMatching(/\$\{env:NAME\}/),
    });
  });

  it('an unresolved VS Code ${input:…} is reported, not passed to the server', async () => {
    const c = server({ name: 'p', command: 'npx', env: { API_KEY: '${input:key}' } });
    await expect(resolveServerConfig(c, new MemorySecretStore(), {})).rejects.toMatchObject({
      code: 'secret_unavailable',
      message: expect.stringMatching(
        /env API_KEY refers to the input \$\{input:key\}, whose value is not in the keychain/,
      ),
    });
  });

  it('a value given at install or import (${input:ID}) is filled in from the keychain, in args, env and URL', async () => {
    const store = new MemorySecretStore();
    await store.set(inputAccount('p', 'key'), 'k-1');
    await store.set(inputAccount('p', 'tenant'), 'acme');
    const c = server({ name: 'p', command: 'npx', args: ['--key=${input:key}'], env: { K: '${input:key}' } });
    expect(await resolveServerConfig(c, store, {})).toMatchObject({ args: ['--key=k-1'], env: { K: 'k-1' } });
    const r = server({ name: 'p', transport: 'http', url: 'https://x.example.com/${input:tenant}/mcp' });
    expect((await resolveServerConfig(r, store, {})).url).toBe('https://x.example.com/acme/mcp');
    expect(secretAccounts(c)).toContain(inputAccount('p', 'key'));
  });
});

describe('masking', () => {
  it('maskConfig hides secret and secret-looking values, keeps references and plain values', () => {
    const c = server({
      name: 'web',
      transport: 'http',
      url: 'https://user:pw@api.example.com/mcp?api_key=abc&team=x',
      headers: {
        Authorization: KEYCHAIN_REF,
        'X-Api-Key': 'plain-but-secret',
        'X-Team': 'blue',
        'X-Token': '${env:T}',
      },
      secretHeaders: ['Authorization'],
    });
    const m = maskConfig(c);
    expect(m.headers).toEqual({
      Authorization: MASK,
      'X-Api-Key': MASK,
      'X-Team': 'blue',
      'X-Token': '${env:T}',
    });
    expect(m.url).toBe(`https://user:${MASK}@api.example.com/mcp?api_key=${MASK}&team=x`);
    expect(maskConfig(c, { urlHostOnly: true }).url).toBe('https://api.example.com');
    expect(JSON.stringify(m)).not.toMatch(/plain-but-secret|abc|:pw@/);
  });

  it('maskArgs hides values of secret-looking flags', () => {
    expect(
      maskArgs(['--api-key=sk-1', '--token', 'tok', '--port', '80', '--password=${env:P}', 'file.txt']),
    ).toEqual([`--api-key=${MASK}`, '--token', MASK, '--port', '80', '--password=${env:P}', 'file.txt']);
  });

  it('maskUrl with hostOnly keeps the port; an unparsable URL is fully masked', () => {
    expect(maskUrl('http://127.0.0.1:8080/a/b?c=d', { hostOnly: true })).toBe('http://127.0.0.1:8080');
    expect(maskUrl('not a url', { hostOnly: true })).toBe(MASK);
  });
});

describe("moving and deleting a server's secrets", () => {
  it('moveServerSecrets copies to the new name and deletes the old accounts', async () => {
    const store = new MemorySecretStore();
    await store.set('server/a/env/TOKEN', 't');
    await store.set('server/a/header/Authorization', 'h');
    await moveServerSecrets(
      store,
      { name: 'a', secretEnv: ['TOKEN'], secretHeaders: ['Authorization'] },
      'b',
    );
    expect(Object.fromEntries(store.entries)).toEqual({
      'server/b/env/TOKEN': 't',
      'server/b/header/Authorization': 'h',
    });
  });

  it('deleteServerSecrets reports what it could not delete', async () => {
    const failing = new MemorySecretStore({ unavailable: 'locked' });
    expect(await deleteServerSecrets(failing, { name: 'a', secretEnv: ['K'], secretHeaders: [] })).toEqual([
      'server/a/env/K',
    ]);
  });
});

describe('secretValuesOf (what the redactor masks)', () => {
  it('finds keychain values, secret-looking keys, secret env references, inputs, arguments and URL parts', async () => {
    const store = new MemorySecretStore();
    await store.set('server/s/env/API_KEY', 'kc-env-value');
    await store.set('server/s/header/Authorization', 'Bearer kc-bearer-token');
    const template = server({
      name: 's',
      transport: 'http',
      url: 'https://u:url-pass-1@api.example.com/mcp?token=${env:URL_TOKEN}&page=2',
      env: { API_KEY: KEYCHAIN_REF, DEBUG: 'true', PASSWORD: 'plain-password' },
      headers: {
        Authorization: KEYCHAIN_REF,
        'X-Upstream': 'key=${env:UPSTREAM_SECRET};region=${env:REGION}',
      },
      secretEnv: ['API_KEY'],
      secretHeaders: ['Authorization'],
    });
    const env = { URL_TOKEN: 'url-token-1', UPSTREAM_SECRET: 'up-secret-1', REGION: 'eu-west-1' };
    const resolved = await resolveServerConfig(template, store, env);
    const found = secretValuesOf(template, resolved);
    expect(found).toEqual(
      expect.arrayContaining([
        'kc-env-value',
        'Bearer kc-bearer-token',
        'kc-bearer-token',
        'plain-password',
        'up-secret-1',
        'url-token-1',
        'url-pass-1',
      ]),
    );
    // Not secrets: a plain flag, a region, a page number.
    for (const v of ['true', 'eu-west-1', '2']) expect(found).not.toContain(v);

    const stdio = server({
      name: 't',
      command: 'node',
      args: ['srv.js', '--api-key=arg-key-1', '--token', 'arg-token-1', '--name=${input:who}', '--verbose'],
    });
    const withInput = { ...stdio, args: stdio.args.map((a) => a.replace('${input:who}', 'input-value-1')) };
    expect(secretValuesOf(stdio, withInput).sort()).toEqual(['arg-key-1', 'arg-token-1', 'input-value-1']);
  });
});
