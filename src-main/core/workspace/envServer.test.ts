// Quick config from the environment: both forms, every bad value named, and masking.
import { describe, expect, it } from 'vitest';
import { MooringError } from '../errors';
import { envServer, logMasker } from './envServer';

function thrown(fn: () => unknown): MooringError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(MooringError);
    return err as MooringError;
  }
  throw new Error('expected a throw');
}

describe('envServer', () => {
  it('is null when neither variable is set (or both are blank)', () => {
    expect(envServer({})).toBeNull();
    expect(envServer({ MOORING_MCP_SERVER_STDIO: '  ', MOORING_MCP_SERVER_URL: '' })).toBeNull();
  });

  it('stdio: "command|arg1|arg2" → one server named env; arguments keep their spaces', () => {
    const s = envServer({ MOORING_MCP_SERVER_STDIO: 'node|/opt/my server/index.js|--port|3000' })!;
    expect(s).toMatchObject({
      name: 'env',
      transport: 'stdio',
      command: 'node',
      args: ['/opt/my server/index.js', '--port', '3000'],
      trust: false,
      enabled: true,
    });
    expect(envServer({ MOORING_MCP_SERVER_STDIO: ' uvx ' })!.args).toEqual([]);
  });

  it('url: Streamable HTTP, or SSE when the path ends in /sse', () => {
    expect(envServer({ MOORING_MCP_SERVER_URL: 'https://mcp.example.com/mcp' })).toMatchObject({
      name: 'env',
      transport: 'http',
      url: 'https://mcp.example.com/mcp',
    });
    expect(envServer({ MOORING_MCP_SERVER_URL: 'http://127.0.0.1:9/sse' })!.transport).toBe('sse');
  });

  it('refuses both at once, a missing command, and a URL that is not http(s), naming the variable', () => {
    const both = thrown(() =>
      envServer({ MOORING_MCP_SERVER_STDIO: 'node|x', MOORING_MCP_SERVER_URL: 'https://a.example' }),
    );
    expect(both.code).toBe('usage');
    expect(both.message).toMatch(/Both MOORING_MCP_SERVER_STDIO and MOORING_MCP_SERVER_URL/);

    const noCommand = thrown(() => envServer({ MOORING_MCP_SERVER_STDIO: '|--flag' }));
    expect(noCommand.code).toBe('config_invalid');
    expect(noCommand.hint).toMatch(/"npx\|-y\|/);

    const scheme = thrown(() => envServer({ MOORING_MCP_SERVER_URL: 'ftp://secret-token@host/x' }));
    expect(scheme.code).toBe('config_invalid');
    expect(scheme.message).toMatch(/must start with http/);
    expect(scheme.message).not.toContain('secret-token');

    const junk = thrown(() => envServer({ MOORING_MCP_SERVER_URL: 'https://' }));
    expect(junk.message).toMatch(/^MOORING_MCP_SERVER_URL is not a usable server: url:/);
  });
});

describe('logMasker', () => {
  it('reduces the URL to scheme and host, and hides its credentials, token path segments and query values', () => {
    const url =
      'https://user:pa55word@mcp.example.com:8443/s/a1b2c3d4e5f6g7h8i9j0k1l2m3/mcp?api_key=zz-top-secret';
    const server = envServer({ MOORING_MCP_SERVER_URL: url })!;
    const mask = logMasker(server);
    const line = mask(`connecting to ${url} (attempt 1)`);
    expect(line).toBe('connecting to https://mcp.example.com:8443 (attempt 1)');
    // Parts logged on their own (an SDK error, a server's message) are caught as well.
    const parts = mask(
      'GET /s/a1b2c3d4e5f6g7h8i9j0k1l2m3/mcp?api_key=zz-top-secret failed; auth pa55word; ' +
        encodeURIComponent('zz-top-secret'),
    );
    expect(parts).not.toMatch(/a1b2c3d4e5f6g7h8i9j0k1l2m3|zz-top-secret|pa55word/);
    expect(parts).toContain('GET /s/');
  });

  it('hides secret-looking arguments, inline or after a flag, bare tokens and their base64 form', () => {
    const server = envServer({
      MOORING_MCP_SERVER_STDIO:
        'npx|-y|@acme/mcp-server|--api-key=abc123secret|--token|tok-9876543|ghp_abcdefghijklmnop1234|--verbose',
    })!;
    const raw =
      'spawn npx -y @acme/mcp-server --api-key=abc123secret --token tok-9876543 ghp_abcdefghijklmnop1234 --verbose';
    const masked = logMasker(server)(raw);
    expect(masked).toBe('spawn npx -y @acme/mcp-server --api-key=•••••• --token •••••• •••••• --verbose');
    const basic = Buffer.from('tok-9876543').toString('base64');
    const header = logMasker(server)(`Authorization: Basic ${basic}`);
    expect(header).toMatch(/^Authorization: Basic \[redacted\]/);
    expect(header).not.toContain(basic.replace(/=+$/, ''));
  });

  it('leaves a line alone when there is nothing to hide, and when no env server is configured', () => {
    const server = envServer({ MOORING_MCP_SERVER_STDIO: 'node|server.js' })!;
    expect(logMasker(server)('server.js started on stdio')).toBe('server.js started on stdio');
    expect(logMasker(null)('anything https://x.example/path')).toBe('anything https://x.example/path');
  });
});
