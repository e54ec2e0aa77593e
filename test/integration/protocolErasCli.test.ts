// Both protocol eras through the real `mooring` command (docs/decisions/006-protocol-eras.md): `mcp test
// --json` reports the revision each fixture server negotiated (2026-07-28 or 2025-11-25, stdio and HTTP),
// `mcp call` reaches their tools, and a 2026 server's input_required form is asked at the terminal by
// `mooring chat` exactly like a 2025 elicitation (a real pseudo-terminal; the model a scripted server).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../shared/config';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../fixtures/providers/scriptedServer';
import { runMooring } from '../helpers/cli';
import { ERA_VERSION, eraStdio, startEraHttp } from '../helpers/eraServers';
import { mooringInPty } from '../helpers/pty';
import { tempDir } from '../helpers/servers';

const stops: Array<() => Promise<void>> = [];
let home: string;
beforeAll(async () => {
  const modernHttp = await startEraHttp('modern');
  const legacyHttp = await startEraHttp('legacy');
  stops.push(modernHttp.stop, legacyHttp.stop);
  const servers: ServerConfig[] = [
    eraStdio('modern', 'modern-stdio'),
    eraStdio('legacy', 'legacy-stdio'),
    modernHttp.config('modern-http'),
    legacyHttp.config('legacy-http'),
  ];
  home = tempDir('mooring-eras-cli-');
  writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers }));
});
afterAll(async () => void (await Promise.all(stops.map((s) => s()))));

describe.each([
  ['modern', 'stdio'],
  ['modern', 'http'],
  ['legacy', 'stdio'],
  ['legacy', 'http'],
] as const)('the %s fixture over %s', (era, transport) => {
  const name = `${era}-${transport}`;
  it('mcp test --json reports the negotiated protocol_version; mcp call reaches its tools', async () => {
    const test = await runMooring(home, ['mcp', 'test', name, '--json']);
    expect(test.code, test.stderr).toBe(0);
    const r = JSON.parse(test.stdout) as { ok: boolean; protocol_version: string; tools: string[] };
    expect(r.ok).toBe(true);
    expect(r.protocol_version).toBe(ERA_VERSION[era]);
    expect(r.tools).toEqual(expect.arrayContaining(['echo', 'ask']));
    const call = await runMooring(home, ['mcp', 'call', name, 'echo', '{"text":"hi"}']);
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout).toContain(`${era}: hi`);
  });
});

describe('a 2026 server asking for input in mooring chat', () => {
  let fake: FakeProviderServer;
  afterAll(() => fake.close());

  it('gets the form at the terminal and the answer goes back in the retried call', async () => {
    fake = await startOpenAIServer([
      { toolCalls: [{ name: 'mcp__modern-stdio__ask', arguments: {} }] },
      { text: 'Greeted.' },
    ]);
    const pty = mooringInPty(home, ['chat', '--model', 'openai:gpt-4o', '--yes', 'greet me'], {
      MOORING_OPENAI_BASE_URL: `${fake.url}/v1`,
      OPENAI_API_KEY: 'test-key',
    });
    await pty.waitFor('modern-stdio asks for input: What is your name?');
    await pty.waitFor('Answer it? (no declines) [y/N]');
    pty.type('y\r');
    await pty.waitFor('name (string): ');
    pty.type('Ada\r');
    expect(await pty.exited, pty.output()).toBe(0);
    expect(pty.output()).toContain('Greeted.');
    const toolMessages = fake.requests
      .at(-1)
      ?.body.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(JSON.stringify(toolMessages)).toContain('hello Ada');
  });
});
