// Skills over MCP through the core's one service (docs/skills.md) against two copies of the skills fixture
// (test/fixtures/servers/skillsServer.ts, on the v2 server SDK): listed per server with their origin, the
// same `skill://refunds/SKILL.md` from two servers as two skills, approvals bound to the manifest (a changed
// file revokes and the next load asks with the diff), the tampered skill refused naming its digest
// mismatch (and logged), the nested skill approved on its own, `allowed-tools` never granted by a load.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '@shared/approval';
import type { LogLine } from '@shared/session';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { fixtureStdio, tempDir, waitFor } from '../helpers/servers';

const REFUNDS = 'skill://refunds/SKILL.md';
const ESCALATION = 'skill://refunds/escalation/SKILL.md';
const TAMPERED = 'skill://tampered/SKILL.md';
const DAILY = 'skill://reports/daily/SKILL.md';

let core: MooringCore;
const logs: LogLine[] = [];
beforeAll(async () => {
  const home = tempDir('mooring-skills-');
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({
      servers: [
        // ttl 0: every load takes the entry afresh, so a changed file is seen at the next load.
        fixtureStdio('skillsServer.ts', 'acme', { SKILLS_FLAVOUR: 'acme', SKILLS_TTL_MS: '0' }),
        fixtureStdio('skillsServer.ts', 'globex', { SKILLS_FLAVOUR: 'globex' }),
        // Serves no skills extension: nothing is inferred from it.
        fixtureStdio('mutableTool.ts', 'plain'),
      ],
    }),
  );
  core = await MooringCore.open({ home, secretStore: new MemorySecretStore() });
  core.on('log', (l) => logs.push(l));
  await core.start();
  await waitFor(
    () => core.servers.statuses().filter((s) => s.state === 'ready').length === 3,
    'the three servers ready',
  );
}, 60_000);
afterAll(async () => core?.close());

/** Answers the next approval request with `outcome`, handing it back for inspection. */
function answerNext(outcome: 'approve' | 'always' | 'deny'): Promise<ApprovalRequest> {
  return new Promise((resolve) => {
    const sub = core.on('approval', (r) => {
      sub.dispose();
      core.approvals.answer(r.id, { outcome, decidedBy: 'user:test' });
      resolve(r);
    });
  });
}

describe('skills over MCP', () => {
  it('lists each declaring server’s skills with their origin, names disambiguated, nesting shown', async () => {
    const servers = await core.skills.servers({ refresh: true });
    expect(servers.map((s) => s.server).sort()).toEqual(['acme', 'globex']);
    const acme = servers.find((s) => s.server === 'acme')!;
    expect(acme.invalid).toEqual([]);
    expect(acme.skills.map((s) => s.uri).sort()).toEqual([DAILY, ESCALATION, REFUNDS, TAMPERED].sort());
    const refunds = acme.skills.find((s) => s.uri === REFUNDS)!;
    expect(refunds).toMatchObject({
      server: 'acme',
      name: 'refunds',
      label: 'acme: refunds',
      description: 'Process acme customer refund requests per policy',
      allowedTools: ['issue_refund', 'send_email'],
      approval: { state: 'none' },
    });
    expect(refunds.files!.map((f) => f.path).sort()).toEqual([
      'SKILL.md',
      'escalation/SKILL.md',
      'examples/email.md',
      'scripts/issue.py',
    ]);
    expect(acme.skills.find((s) => s.uri === ESCALATION)!.nestedIn).toBe(REFUNDS);
    expect(acme.skills.find((s) => s.uri === DAILY)).toMatchObject({
      dynamic: true,
      approval: { state: 'dynamic' },
    });
    const other = servers.find((s) => s.server === 'globex')!.skills.find((s) => s.uri === REFUNDS)!;
    expect(other).toMatchObject({ label: 'globex: refunds', description: expect.stringContaining('globex') });
  });

  it('two servers serving the same URI are two skills: approving one does not approve the other', async () => {
    await core.skills.approve({ server: 'acme', uri: REFUNDS, decidedBy: 'user:test' });
    expect((await core.skills.skill('acme', REFUNDS)).approval).toMatchObject({
      state: 'approved',
      scope: 'always',
    });
    expect((await core.skills.skill('globex', REFUNDS)).approval.state).toBe('none');
    await expect(
      core.skills.load({ server: 'globex', uri: REFUNDS }, { interactive: false }),
    ).rejects.toThrow(/needs your approval: the skill is not approved/);
    const perms = await core.permissions.list();
    expect(perms.skills).toEqual([
      expect.objectContaining({ server: 'acme', uri: REFUNDS, toolsGranted: false }),
    ]);
  });

  it('loads an approved skill and its supporting file, verified, from its own server', async () => {
    const md = await core.skills.load({ server: 'acme', uri: REFUNDS }, { interactive: false });
    expect(md).toMatchObject({ server: 'acme', uri: REFUNDS, verified: true });
    expect(md.text).toContain('# Refunds');
    const email = await core.skills.load(
      { server: 'acme', uri: REFUNDS, file: 'examples/email.md' },
      { interactive: false },
    );
    expect(email).toMatchObject({ uri: 'skill://refunds/examples/email.md', verified: true });
    await expect(
      core.skills.load(
        { server: 'acme', uri: REFUNDS, file: 'examples/credit-note.md' },
        { interactive: false },
      ),
    ).rejects.toThrow(/not in the skill’s manifest/);
  });

  it('the nested skill needs its own approval', async () => {
    expect((await core.skills.skill('acme', ESCALATION)).approval.state).toBe('none');
    await expect(
      core.skills.load({ server: 'acme', uri: ESCALATION }, { interactive: false }),
    ).rejects.toThrow(/Loading skill "escalation".*needs your approval/);
  });

  it('a changed file revokes the approval; the next load asks with the diff', async () => {
    await core.tools.call(
      'mcp__acme__change_skill_file',
      { path: 'examples/email.md', text: 'Dear customer, we changed our minds.\n' },
      { client: 'test', preApproved: true },
    );
    const changed = await core.skills.skill('acme', REFUNDS);
    expect(changed.approval).toMatchObject({
      state: 'changed',
      diff: [
        expect.objectContaining({ change: 'changed', summary: 'examples/email.md changed (54 → 37 bytes)' }),
      ],
    });
    await expect(core.skills.load({ server: 'acme', uri: REFUNDS }, { interactive: false })).rejects.toThrow(
      /the skill changed since it was approved \(examples\/email\.md changed/,
    );
    const asked = answerNext('always');
    const loaded = await core.skills.load(
      { server: 'acme', uri: REFUNDS },
      { interactive: true, client: 'test' },
    );
    const request = await asked;
    expect(request).toMatchObject({ server: 'acme', tool: 'load_skill' });
    expect(request.diff).toEqual([
      expect.objectContaining({ kind: 'file', summary: expect.stringContaining('email.md') }),
    ]);
    expect(request.reason).toContain(
      'allowed-tools issue_refund, send_email, which this answer does not grant',
    );
    expect(loaded.text).toContain('# Refunds');
    expect((await core.skills.skill('acme', REFUNDS)).approval).toMatchObject({
      state: 'approved',
      toolsGranted: false,
    });
  });

  it('a stale cached entry is taken afresh: the change asks again rather than failing the read', async () => {
    // globex keeps its listing for 60 s: the load after the change first reads against the old entry.
    await core.skills.approve({ server: 'globex', uri: REFUNDS, decidedBy: 'user:test' });
    await core.skills.load(
      { server: 'globex', uri: REFUNDS, file: 'examples/email.md' },
      { interactive: false },
    );
    await core.tools.call(
      'mcp__globex__change_skill_file',
      { path: 'examples/email.md', text: 'Changed.\n' },
      { client: 'test', preApproved: true },
    );
    await expect(
      core.skills.load({ server: 'globex', uri: REFUNDS, file: 'examples/email.md' }, { interactive: false }),
    ).rejects.toThrow(
      /the skill changed since it was approved \(examples\/email\.md changed \(54 → 9 bytes\)\)/,
    );
  });

  it('refuses the tampered skill, naming the digest mismatch, and logs it', async () => {
    await core.skills.approve({ server: 'acme', uri: TAMPERED, decidedBy: 'user:test' });
    await expect(core.skills.load({ server: 'acme', uri: TAMPERED }, { interactive: false })).rejects.toThrow(
      /skill:\/\/tampered\/SKILL\.md from "acme" failed verification: (digest|size) mismatch/,
    );
    expect(logs).toContainEqual(
      expect.objectContaining({
        server: 'acme',
        level: 'error',
        text: expect.stringContaining('failed verification'),
      }),
    );
  });

  it('a dynamic skill cannot be approved ahead and asks at every load', async () => {
    await expect(core.skills.approve({ server: 'acme', uri: DAILY, decidedBy: 'user:test' })).rejects.toThrow(
      /dynamic/,
    );
    for (let i = 0; i < 2; i++) {
      const asked = answerNext('always');
      const loaded = await core.skills.load({ server: 'acme', uri: DAILY }, { interactive: true });
      expect((await asked).reason).toContain('dynamic');
      expect(loaded.verified).toBe(false);
    }
  });

  it('revoking from Permissions takes the approval away', async () => {
    await core.permissions.revoke({ kind: 'skill', server: 'acme', uri: REFUNDS });
    expect((await core.skills.skill('acme', REFUNDS)).approval.state).toBe('none');
  });

  it('a server without the extension serves no skills, whatever its resources are called', async () => {
    await expect(core.skills.server('plain')).rejects.toThrow(/does not serve skills/);
  });
});
