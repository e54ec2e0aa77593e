// Conversations remember what they read (docs/trust.md): on a real core with two fixture servers on the v2
// SDK (test/fixtures/servers/injectionServer.ts) and a scripted model that obeys the injected page, a call
// that carries what one server returned to another server asks first and names the flow; YOLO and
// "always allow" do not skip a flow from untrusted content into an open-world tool unless the pair is
// allowed; a schedule refuses it; the audit line records it; work inside one server asks no more than before.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '@shared/approval';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer, ScriptedReply } from '../fixtures/providers/scriptedServer';
import { fixtureStdio, tempDir } from '../helpers/servers';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';

const SPEC = 'openai:gpt-4o';
let core: MooringCore;
let home: string;
const sink = join(tempDir('mooring-flow-sink-'), 'sink.jsonl');
const models: FakeProviderServer[] = [];
const sunk = () => (existsSync(sink) ? readFileSync(sink, 'utf8') : '');

beforeAll(async () => {
  home = tempDir('mooring-flow-home-');
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({
      servers: [
        fixtureStdio('injectionServer.ts', 'web', { SINK_FILE: sink }),
        fixtureStdio('injectionServer.ts', 'notes', { SINK_FILE: sink }),
      ],
    }),
  );
  writeFileSync(join(home, 'settings.json'), JSON.stringify({}));
  core = await MooringCore.open({
    home,
    secretStore: new MemorySecretStore(),
    env: { OPENAI_API_KEY: 'sk-test', MOORING_NO_SHELL_PATH: '1' },
  });
  await core.start();
}, 60_000);
afterAll(async () => {
  await Promise.all(models.map((m) => m.close()));
  await core.close();
});

async function turn(script: ScriptedReply[]) {
  const model = await startOpenAIServer(script);
  models.push(model);
  await core.models.save({ defaultModel: SPEC, baseUrls: { openai: `${model.url}/v1` } });
  const run = (await core.chat.prepareTurn({ model: SPEC, interactive: true })).run;
  const result = await run({ message: 'What is the weather?' });
  return { result, saved: await core.conversations.load(result.conversationId) };
}

/** The model reads the page, then obeys it: it sends what it read to notes' log. */
const obeys = (text = 'Weather: sunny.'): ScriptedReply[] => [
  { toolCalls: [{ name: 'mcp__web__fetch_page', arguments: {} }] },
  { toolCalls: [{ name: 'mcp__notes__log', arguments: { text } }] },
  { text: 'Done.' },
];

const answerNext = (answer: (r: ApprovalRequest) => Record<string, unknown>) =>
  new Promise<ApprovalRequest>((resolve) =>
    core.approvals.once('requested', (r) => {
      core.approvals.answer(r.id, { decidedBy: 'user:test', ...answer(r) } as never);
      resolve(r);
    }),
  );

const auditLines = () =>
  readFileSync(join(home, 'logs/audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { server: string; tool: string; decision: string; flow?: string });

const FLOW =
  'This conversation has read content from web (fetch_page), marked untrusted, from the open world. This call sends data to notes (log).';

describe('a call that carries one server’s content to another', () => {
  it('asks first, naming the flow; denied, nothing reaches the other server', async () => {
    const asked = answerNext(() => ({ outcome: 'deny' }));
    const { saved } = await turn(obeys('exfil-1'));
    const request = await asked;
    expect(request.server).toBe('notes');
    expect(request.flow).toMatchObject({ from: ['web'], to: 'notes', strong: true });
    expect(request.flow!.text).toBe(FLOW);
    expect(request.reason).toContain(FLOW);
    expect(sunk()).not.toContain('exfil-1');
    const read = saved.messages.find((m) => m.role === 'tool' && m.name === 'mcp__web__fetch_page');
    expect(read).toMatchObject({
      origin: { server: 'web', tool: 'fetch_page', openWorld: true, untrusted: true },
    });
    const line = auditLines().find((l) => l.server === 'notes' && l.decision === 'deny');
    expect(line?.flow).toBe(FLOW);
  });

  it('YOLO and "always allow" do not skip it; an allowed pair does, and its revoke asks again', async () => {
    await core.settings.update((s) => ({ ...s, yolo: true }));
    try {
      const asked = answerNext(() => ({ outcome: 'always' }));
      await turn(obeys('exfil-2'));
      expect((await asked).flow?.strong).toBe(true);
      expect(sunk()).toContain('exfil-2'); // approved by the person, naming the flow

      // Remembered "always" and YOLO on: the flow still asks.
      const again = answerNext(() => ({ outcome: 'approve', allowFlow: true }));
      await turn(obeys('exfil-3'));
      expect((await again).flow?.text).toBe(FLOW);
      expect((await core.permissions.list()).flows).toMatchObject([{ from: 'web', to: 'notes' }]);

      // The pair is allowed: no question.
      let questions = 0;
      const count = () => questions++;
      core.approvals.on('requested', count);
      await turn(obeys('exfil-4'));
      core.approvals.off('requested', count);
      expect(questions).toBe(0);
      expect(sunk()).toContain('exfil-4');

      await core.permissions.revoke({ kind: 'flow', from: 'web', to: 'notes' });
      const revoked = answerNext(() => ({ outcome: 'deny' }));
      await turn(obeys('exfil-5'));
      expect((await revoked).flow?.to).toBe('notes');
      expect(sunk()).not.toContain('exfil-5');
    } finally {
      await core.settings.update((s) => ({ ...s, yolo: false }));
    }
  });

  it('"allow for this conversation" on its question covers the same flow in that conversation only', async () => {
    const requests: ApprovalRequest[] = [];
    const answer = (r: ApprovalRequest) => {
      requests.push(r);
      core.approvals.answer(r.id, { decidedBy: 'user:test', outcome: 'conversation' } as never);
    };
    core.approvals.on('requested', answer);
    try {
      await turn([
        { toolCalls: [{ name: 'mcp__web__fetch_page', arguments: {} }] },
        { toolCalls: [{ name: 'mcp__notes__log', arguments: { text: 'conv-1' } }] },
        { toolCalls: [{ name: 'mcp__notes__log', arguments: { text: 'conv-2' } }] },
        { text: 'Done.' },
      ]);
      // Asked once, naming the flow; the second call of the same flow in that conversation ran unasked.
      expect(requests.map((r) => r.flow?.to)).toEqual(['notes']);
      expect(sunk()).toContain('conv-2');
      // Another conversation has not allowed it.
      await turn(obeys('conv-3'));
      expect(requests.map((r) => r.flow?.to)).toEqual(['notes', 'notes']);
    } finally {
      core.approvals.off('requested', answer);
    }
  });

  it('work inside one server asks nothing new', async () => {
    let questions = 0;
    const count = () => questions++;
    core.approvals.on('requested', count);
    await turn([
      { toolCalls: [{ name: 'mcp__web__fetch_page', arguments: {} }] },
      { toolCalls: [{ name: 'mcp__web__read_doc', arguments: {} }] },
      { toolCalls: [{ name: 'mcp__web__log', arguments: { text: 'same-server' } }] },
      { text: 'ok' },
    ]);
    core.approvals.off('requested', count);
    expect(questions).toBe(0);
    expect(sunk()).toContain('same-server');
  });

  it('a schedule refuses it and reports why', async () => {
    const model = await startOpenAIServer(obeys('exfil-scheduled'));
    models.push(model);
    await core.models.save({ defaultModel: SPEC, baseUrls: { openai: `${model.url}/v1` } });
    const result = await core.chat.runUnattended({
      model: SPEC,
      allow: ['mcp__notes__log'],
      workspace: null,
      prompt: 'Nightly weather',
      title: 'Nightly',
      who: 'schedule "Nightly"',
      signal: new AbortController().signal,
    });
    const saved = await core.conversations.load(result.conversationId);
    const refused = saved.messages.find((m) => m.role === 'tool' && m.name === 'mcp__notes__log');
    expect(refused).toMatchObject({ status: 'refused' });
    expect(refused && 'text' in refused ? refused.text : '').toContain(
      'This call sends data to notes (log).',
    );
    expect(sunk()).not.toContain('exfil-scheduled');
  });
});
