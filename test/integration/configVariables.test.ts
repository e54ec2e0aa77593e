// A cloned repository's `.mcp.json` and an imported file name environment variables in a remote server's
// headers and URL (docs/config-variables.md). The real CLI lists every variable with where its value goes;
// a secret-looking one is not sent to the server (the start is refused, naming it) until the person allows
// that variable for that server by name. The remote server is the era fixture over HTTP, recording every
// Authorization and Accept-Language header it receives.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMooring } from '../helpers/cli';
import { startEraHttp } from '../helpers/eraServers';
import { tempDir } from '../helpers/servers';

const SECRETS = { GITHUB_TOKEN: 'ghp_fixture_token_1234', OPENAI_API_KEY: 'sk-fixture-key-5678' };
const headerLog = join(tempDir('mooring-vars-log-'), 'headers.jsonl');
let server: Awaited<ReturnType<typeof startEraHttp>>;
const seen = () => (existsSync(headerLog) ? readFileSync(headerLog, 'utf8') : '');

beforeAll(async () => {
  server = await startEraHttp('modern', { HEADER_LOG: headerLog });
});
afterAll(() => server.stop());

const remoteEntry = () => ({
  type: 'http',
  url: server.url,
  headers: { Authorization: 'Bearer ${GITHUB_TOKEN}', 'Accept-Language': '${OPENAI_API_KEY}' },
});

describe('variables in a project folder’s .mcp.json (real CLI)', () => {
  it('lists each variable and where it goes, and sends no secret-looking one until it is allowed by name', async () => {
    const ws = tempDir('mooring-vars-ws-');
    writeFileSync(join(ws, '.mcp.json'), JSON.stringify({ mcpServers: { docs: remoteEntry() } }));
    const home = tempDir('mooring-vars-home-');
    const run = (args: string[]) => runMooring(home, args, { env: SECRETS });

    const approve = await run(['mcp', 'approve', 'docs', '--workspace', ws, '--yes']);
    expect(approve.code, approve.stderr).toBe(0);
    const host = new URL(server.url).host;
    expect(approve.stderr).toContain(
      `variable: GITHUB_TOKEN (\${env:GITHUB_TOKEN}) → header Authorization, sent to ${host}: held back`,
    );
    expect(approve.stderr).toContain(
      `variable: OPENAI_API_KEY (\${env:OPENAI_API_KEY}) → header Accept-Language, sent to ${host}: held back`,
    );
    expect(approve.stderr).toContain('--allow-variable GITHUB_TOKEN');

    const tools = await run(['mcp', 'tools', 'docs', '--workspace', ws]);
    expect(tools.code).not.toBe(0);
    expect(tools.stderr).toContain('refers to ${env:');
    expect(tools.stderr).toContain('nothing was sent');
    expect(seen()).not.toContain(SECRETS.GITHUB_TOKEN);
    expect(seen()).not.toContain(SECRETS.OPENAI_API_KEY);

    // A name the server does not send is refused, so a typo is never a silent no.
    const typo = await run([
      'mcp',
      'approve',
      'docs',
      '--workspace',
      ws,
      '--yes',
      '--allow-variable',
      'GH_TOKEN',
    ]);
    expect(typo.code).not.toBe(0);
    expect(typo.stderr).toContain('no held-back variable named GH_TOKEN');

    // Allowing one is not allowing the other.
    const one = await run([
      'mcp',
      'approve',
      'docs',
      '--workspace',
      ws,
      '--yes',
      '--allow-variable',
      'GITHUB_TOKEN',
    ]);
    expect(one.code, one.stderr).toBe(0);
    const still = await run(['mcp', 'tools', 'docs', '--workspace', ws]);
    expect(still.code).not.toBe(0);
    expect(still.stderr).toContain('${env:OPENAI_API_KEY}');
    expect(seen()).not.toContain(SECRETS.OPENAI_API_KEY);

    const both = await run([
      'mcp',
      'approve',
      'docs',
      '--workspace',
      ws,
      '--yes',
      '--allow-variable',
      'OPENAI_API_KEY',
    ]);
    expect(both.code, both.stderr).toBe(0);
    expect(both.stderr).toContain('allowed for this server');
    const listed = await run(['mcp', 'tools', 'docs', '--workspace', ws]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(seen()).toContain(`Bearer ${SECRETS.GITHUB_TOKEN}`);
    expect(seen()).toContain(SECRETS.OPENAI_API_KEY);
  });
});

describe('variables in an imported file (real CLI)', () => {
  it('holds ${env:X} in a remote URL or header until --allow-variable SERVER:X, then allow-variable later', async () => {
    const home = tempDir('mooring-vars-import-');
    const dir = tempDir('mooring-vars-file-');
    const file = join(dir, 'claude.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          remote: {
            type: 'http',
            url: `${server.url}?k=\${env:OPENAI_API_KEY}`,
            headers: { Authorization: 'Bearer ${env:GITHUB_TOKEN}', 'X-Region': '${env:REGION}' },
          },
          local: { command: 'node', args: ['srv.js', '$HOME'], env: { TOKEN: '${env:GITHUB_TOKEN}' } },
        },
      }),
    );
    // Values of their own: the project folder's test above sent its values once allowed.
    const secrets = { GITHUB_TOKEN: 'ghp_import_token_9999', OPENAI_API_KEY: 'sk-import-key-0000' };
    const run = (args: string[]) => runMooring(home, args, { env: { ...secrets, REGION: 'eu' } });
    const imported = await run(['mcp', 'import', file, '--yes', '--allow-variable', 'remote:GITHUB_TOKEN']);
    expect(imported.code, imported.stderr).toBe(0);
    const out = imported.stderr; // the consent is said on stderr
    expect(out).toMatch(
      /OPENAI_API_KEY \(\$\{env:OPENAI_API_KEY\}\) → the URL \(127\.0\.0\.1:\d+\): held back/,
    );
    expect(out).toContain('REGION (${env:REGION}) → header X-Region');
    expect(out).not.toMatch(/REGION[^\n]*held back/);
    // A local command's environment is its own business: listed, not held.
    expect(out).toContain(
      'GITHUB_TOKEN (${env:GITHUB_TOKEN}) → environment variable TOKEN of the command node',
    );
    expect(out).toContain('HOME ($HOME) → argument 2 of the command node (sent as written');
    const saved = JSON.parse(readFileSync(join(home, 'mcp_servers.json'), 'utf8')) as {
      servers: { name: string; heldVariables?: string[] }[];
    };
    expect(saved.servers.find((s) => s.name === 'remote')?.heldVariables).toEqual(['OPENAI_API_KEY']);
    expect(saved.servers.find((s) => s.name === 'local')?.heldVariables).toBeUndefined();

    const refused = await run(['mcp', 'tools', 'remote']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('mooring mcp allow-variable remote OPENAI_API_KEY');
    expect(seen()).not.toContain(secrets.OPENAI_API_KEY);
    expect(seen()).not.toContain(secrets.GITHUB_TOKEN);

    expect((await run(['mcp', 'allow-variable', 'remote', 'OPENAI_API_KEY'])).code).toBe(0);
    const ok = await run(['mcp', 'tools', 'remote']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(seen()).toContain(`Bearer ${secrets.GITHUB_TOKEN}`);
  });
});
