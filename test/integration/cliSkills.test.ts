// Skills from a terminal (docs/skills.md, "Doors") against the skills fixture: `mooring mcp skills` lists
// them with their origin, `mooring mcp skill` prints a verified file and refuses the tampered one naming the
// digest mismatch; after `skill --approve`, a scripted model (the OpenAI wire) in `mooring chat` is shown the
// skill by name and description, calls `load_skill`, and gets SKILL.md framed with the server it came from.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../fixtures/providers/scriptedServer';
import { runMooring } from '../helpers/cli';
import { fixtureStdio, tempDir } from '../helpers/servers';
import { openaiView } from '../helpers/wireViews';

const REFUNDS = 'skill://refunds/SKILL.md';
let home: string;
let model: FakeProviderServer | undefined;
beforeAll(() => {
  home = tempDir('mooring-cli-skills-');
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({ servers: [fixtureStdio('skillsServer.ts', 'acme', { SKILLS_FLAVOUR: 'acme' })] }),
  );
});
afterAll(() => model?.close());

describe('mooring mcp skills / skill', () => {
  it('lists the server’s skills with origin and approval', async () => {
    const text = await runMooring(home, ['mcp', 'skills', 'acme']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`refunds  ${REFUNDS}  [not approved]`);
    expect(text.stdout).toContain('from server "acme", nested in skill://refunds/SKILL.md');
    expect(text.stdout).toContain('asks for allowed-tools: issue_refund send_email (not granted)');
  });

  it('prints a verified file; refuses the tampered skill naming the digest mismatch', async () => {
    const ok = await runMooring(home, ['mcp', 'skill', 'acme', REFUNDS, '--file', 'examples/email.md']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('--- skill://refunds/examples/email.md from "acme" (verified) ---');
    expect(ok.stdout).toContain('your refund of {amount} is on its way');
    const bad = await runMooring(home, ['mcp', 'skill', 'acme', 'skill://tampered/SKILL.md']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(
      /skill:\/\/tampered\/SKILL\.md from "acme" failed verification: (size|digest) mismatch/,
    );
    // The hint names a command that exists, with this server's name.
    expect(bad.stderr).toContain('mooring mcp skills acme --refresh');
  });

  it('after approval, mooring chat’s model loads the skill and reads it tagged with its server', async () => {
    const approved = await runMooring(home, ['mcp', 'skill', 'acme', REFUNDS, '--approve']);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('[approved]');
    model = await startOpenAIServer([
      { toolCalls: [{ name: 'load_skill', arguments: { server: 'acme', uri: REFUNDS } }] },
      { text: 'Following the refunds skill.' },
    ]);
    const res = await runMooring(home, ['chat', '--model', 'openai:gpt-4o', 'Refund order 42'], {
      env: { MOORING_OPENAI_BASE_URL: `${model.url}/v1`, OPENAI_API_KEY: 'k' },
    });
    expect(res.code, res.stderr).toBe(0);
    const first = model.requests[0]!.body;
    expect(openaiView.toolNames(first)).toContain('load_skill');
    expect(openaiView.system(first)).toContain(
      `- refunds (server "acme", uri ${REFUNDS}): Process acme customer refund requests per policy`,
    );
    // Only approved skills are offered: the nested one is not.
    expect(openaiView.system(first)).not.toContain('escalation');
    const [result] = openaiView.toolResults(model.requests[1]!.body);
    expect(result!.text.startsWith(`<tool_result origin="acme/${REFUNDS}">`)).toBe(true);
    expect(result!.text).toContain('# Refunds');
    expect(result!.text).toContain('verified against its digest');
  });
});
