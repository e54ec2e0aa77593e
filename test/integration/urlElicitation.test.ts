// URL elicitation's error path through the whole core (MCP 2025-11-25 "Elicitation"): a tool that fails
// with -32042 starts the same consent as a request-path link (the dialog's request, https only, opened
// only after a yes), the call waits with the flow on its lifecycle, and `notifications/elicitation/complete`
// from the server runs it again; a notice for an id nobody asked about is ignored; a decline or a person who
// stops waiting ends the call with why.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Interaction } from '@shared/interactions';
import type { ToolCallEvent } from '@shared/toolCall';
import { resultText } from '@shared/toolResult';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { fixtureStdio, tempDir, waitFor } from '../helpers/servers';

const cores: MooringCore[] = [];
afterEach(async () => void (await Promise.all(cores.splice(0).map((c) => c.close()))));

async function coreWithConsentServer(env: Record<string, string> = {}) {
  const home = tempDir('mooring-url-');
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({ servers: [fixtureStdio('urlConsentServer.ts', 'accounts', env)] }),
  );
  const opened: string[] = [];
  const core = await MooringCore.open({
    home,
    secretStore: new MemorySecretStore(),
    env: { ...process.env, MOORING_NO_SHELL_PATH: '1' },
    openExternal: async (url) => void opened.push(url),
  });
  cores.push(core);
  await core.start();
  await waitFor(() => core.tools.list('accounts').length === 3, 'the fixture tools');
  return { core, opened };
}

const nextInteraction = (core: MooringCore) =>
  new Promise<Interaction>((resolve) => core.interactions.once('requested', resolve));
const waitingEvent = (core: MooringCore) =>
  new Promise<ToolCallEvent>((resolve) => {
    const on = (e: ToolCallEvent) => {
      if (!e.waitingFor) return;
      core.tools.off('toolCall', on);
      resolve(e);
    };
    core.tools.on('toolCall', on);
  });

describe('-32042 URL elicitation required', () => {
  it('asks consent, opens the link, waits, and runs the call again when the server says the flow is complete', async () => {
    const { core, opened } = await coreWithConsentServer();
    const asked = nextInteraction(core);
    const waiting = waitingEvent(core);
    const call = core.tools.call('mcp__accounts__connect_account', { account: 'acme' });
    const req = await asked;
    expect(req).toMatchObject({ kind: 'elicitation-url', server: 'accounts', host: 'accounts.example.test' });
    expect(opened).toEqual([]); // nothing opens before the yes
    core.interactions.answer(req.id, { kind: 'elicitation-url', action: 'accept' });
    const w = await waiting;
    expect(w.phase).toBe('running');
    expect(w.waitingFor).toEqual([
      expect.objectContaining({ host: 'accounts.example.test', message: 'Sign in to connect acme.' }),
    ]);
    expect(opened).toEqual([w.waitingFor![0]!.url]);
    // The "browser" finishes: the server sends the completion notice (and one for an unknown id).
    await core.tools.call('mcp__accounts__finish_browser_flow', {});
    const out = await call;
    expect(resultText(out.result)).toBe('connected acme (call 2)');
    expect(core.urlElicitations.waiting()).toEqual([]);
    expect(core.urlElicitations.complete('accounts', 'never-asked', 'server')).toBe(false);
  });

  it('a declined link ends the call as refused and the server is not asked again', async () => {
    const { core, opened } = await coreWithConsentServer();
    const asked = nextInteraction(core);
    const call = core.tools.call('mcp__accounts__connect_account', { account: 'acme' });
    core.interactions.answer((await asked).id, { kind: 'elicitation-url', action: 'decline' });
    await expect(call).rejects.toMatchObject({
      code: 'refused',
      message: expect.stringMatching(/not opened/),
    });
    expect(opened).toEqual([]);
    const pending = await core.tools.call('mcp__accounts__pending', {});
    expect(resultText(pending.result)).toBe('1');
  });

  it('an http link is never offered: the call is refused without a dialog', async () => {
    const { core } = await coreWithConsentServer({ CONSENT_URL: 'http://accounts.example.test/connect' });
    let dialogs = 0;
    core.interactions.on('requested', () => dialogs++);
    await expect(
      core.tools.call('mcp__accounts__connect_account', { account: 'acme' }),
    ).rejects.toMatchObject({
      code: 'refused',
    });
    expect(dialogs).toBe(0);
  });

  it('the person can stop waiting: the call ends as cancelled', async () => {
    const { core } = await coreWithConsentServer();
    const asked = nextInteraction(core);
    const waiting = waitingEvent(core);
    const call = core.tools.call('mcp__accounts__connect_account', { account: 'acme' });
    core.interactions.answer((await asked).id, { kind: 'elicitation-url', action: 'accept' });
    const w = await waiting;
    expect(core.urlElicitations.abandon('accounts', w.waitingFor![0]!.elicitationId)).toBe(true);
    await expect(call).rejects.toMatchObject({ code: 'cancelled' });
  });
});
