// A skill's `allowed-tools` through the real gate (docs/skills.md, "allowed-tools grants"), against two
// copies of the skills fixture (test/fixtures/servers/skillsServer.ts, on the v2 server SDK): the load's
// question offers the grant as its own tick, off by default; without it the listed tools still ask; with it
// those tools of that server run unasked in the conversation that loaded the skill — never another
// server's, another conversation's, a tool it does not list, a flow between servers, a changed skill or a
// revoked one. Every step is in the audit log.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalDecision, ApprovalRequest } from '@shared/approval';
import type { ReadOrigin } from '@shared/dataFlow';
import { MooringCore } from '../../src-main/core/mooringCore';
import type { AuditEntry } from '../../src-main/core/safety/auditLog';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { fixtureStdio, tempDir, waitFor } from '../helpers/servers';

const REFUNDS = 'skill://refunds/SKILL.md';

let core: MooringCore;
let home: string;
beforeAll(async () => {
  home = tempDir('mooring-skill-tools-');
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({
      servers: [
        fixtureStdio('skillsServer.ts', 'acme', { SKILLS_FLAVOUR: 'acme', SKILLS_TTL_MS: '0' }),
        fixtureStdio('skillsServer.ts', 'globex', { SKILLS_FLAVOUR: 'globex' }),
      ],
    }),
  );
  core = await MooringCore.open({ home, secretStore: new MemorySecretStore() });
  await core.start();
  await waitFor(
    () => core.servers.statuses().filter((s) => s.state === 'ready').length === 2,
    'both servers ready',
  );
}, 60_000);
afterAll(async () => core?.close());

/** Answers the next approval request, handing it back for inspection. */
function answerNext(answer: Omit<ApprovalDecision, 'decidedBy'>): Promise<ApprovalRequest> {
  return new Promise((resolve) => {
    const sub = core.on('approval', (r) => {
      sub.dispose();
      core.approvals.answer(r.id, { ...answer, decidedBy: 'user:test' });
      resolve(r);
    });
  });
}

/** A model's call in a conversation where nobody can answer: it runs only if nothing needs asking. */
const call = (tool: string, conversationId: string, readFrom?: ReadOrigin[]) =>
  core.tools.call(
    tool,
    { order: 'A-1' },
    {
      conversationId,
      client: `conversation:${conversationId}`,
      interactive: false,
      ...(readFrom ? { readFrom } : {}),
    },
  );

const audit = (): AuditEntry[] =>
  readFileSync(join(home, 'logs', 'audit.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditEntry);

const load = (conversationId: string) =>
  core.skills.load({ server: 'acme', uri: REFUNDS }, { conversationId, interactive: true, client: 'test' });

describe('allowed-tools grants', () => {
  it('without the tick, the skill loads and its listed tools still ask', async () => {
    const asked = answerNext({ outcome: 'conversation' });
    await load('c1');
    const request = await asked;
    expect(request.skillTools).toEqual({ server: 'acme', tools: ['issue_refund', 'send_email'] });
    expect(request.reason).toContain('which run without asking only if you also tick the grant');
    expect((await core.skills.skill('acme', REFUNDS, 'c1')).approval).toMatchObject({
      state: 'approved',
      scope: 'conversation',
      toolsGranted: false,
    });
    await expect(call('mcp__acme__issue_refund', 'c1')).rejects.toThrow(/needs your approval/);
  });

  it('with the tick, those tools of that server run unasked in that conversation, and nothing else', async () => {
    const asked = answerNext({ outcome: 'conversation', grantSkillTools: true });
    await load('c2');
    await asked;
    const ran = await call('mcp__acme__issue_refund', 'c2');
    expect(ran.result.parts).toEqual([{ kind: 'text', text: 'issue_refund done for A-1' }]);
    await call('mcp__acme__send_email', 'c2');
    // Not listed; another server's tool of the same name; another conversation: each still asks.
    await expect(call('mcp__acme__close_account', 'c2')).rejects.toThrow(/needs your approval/);
    await expect(call('mcp__globex__issue_refund', 'c2')).rejects.toThrow(/needs your approval/);
    await expect(call('mcp__acme__issue_refund', 'c3')).rejects.toThrow(/needs your approval/);

    const lines = audit();
    expect(lines).toContainEqual(
      expect.objectContaining({
        server: 'acme',
        tool: 'load_skill',
        decision: 'approve',
        decidedBy: 'user:test',
        skill: { uri: REFUNDS, grantedTools: ['issue_refund', 'send_email'] },
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        server: 'acme',
        tool: 'issue_refund',
        decision: 'approve',
        decidedBy: 'user:test (allowed-tools of skill "refunds", skill://refunds/SKILL.md)',
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ server: 'globex', tool: 'issue_refund', decision: 'refuse' }),
    );
  });

  it('a flow between servers still asks, granted or not', async () => {
    const read: ReadOrigin[] = [{ server: 'globex', tool: 'lookup', openWorld: true, untrusted: true }];
    await expect(call('mcp__acme__issue_refund', 'c2', read)).rejects.toThrow(
      /needs your approval: This conversation has read content from globex/,
    );
  });

  it('loading the skill again without the grant ends it', async () => {
    const asked = answerNext({ outcome: 'approve' });
    await load('c4');
    await asked;
    await expect(call('mcp__acme__issue_refund', 'c4')).rejects.toThrow(/needs your approval/);
    // c2's approval holds the grant: a later load there keeps it, without a question.
    await load('c2');
    await call('mcp__acme__issue_refund', 'c2');
  });

  it('an approval made with the grant grants on load; revoking it ends the grant and is audited', async () => {
    await core.skills.approve({
      server: 'acme',
      uri: REFUNDS,
      scope: 'always',
      grantTools: true,
      decidedBy: 'user:test',
    });
    await load('c5'); // approved: no question
    await call('mcp__acme__issue_refund', 'c5');
    await core.skills.revoke('acme', REFUNDS, 'user:test');
    await expect(call('mcp__acme__issue_refund', 'c5')).rejects.toThrow(/needs your approval/);
    await expect(call('mcp__acme__issue_refund', 'c2')).rejects.toThrow(/needs your approval/);
    const lines = audit().filter((l) => l.tool === 'load_skill');
    expect(lines).toContainEqual(
      expect.objectContaining({
        decision: 'always',
        skill: { uri: REFUNDS, grantedTools: ['issue_refund', 'send_email'] },
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ decision: 'auto', decidedBy: 'skill approval (always)' }),
    );
    expect(lines.at(-1)).toMatchObject({
      decision: 'revoke',
      decidedBy: 'user:test',
      skill: { uri: REFUNDS },
    });
  });

  it('a changed skill grants nothing: the tools ask again', async () => {
    const asked = answerNext({ outcome: 'conversation', grantSkillTools: true });
    await load('c6');
    await asked;
    await call('mcp__acme__issue_refund', 'c6');
    await core.tools.call(
      'mcp__acme__change_skill_file',
      { path: 'examples/email.md', text: 'Changed.\n' },
      { client: 'test', preApproved: true },
    );
    await expect(call('mcp__acme__issue_refund', 'c6')).rejects.toThrow(/needs your approval/);
  });
});
