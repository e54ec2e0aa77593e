// The one tool-call lifecycle stream on a real core (ARCHITECTURE.md, "The path of one tool call"): no
// listener per call, one name resolution and one catalog read per call in the catalog of the
// conversation's provider, and a UI that (re)connects starting from each call's current state.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UiEvent } from '@shared/wire';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../fixtures/providers/scriptedServer';
import { FILESYSTEM, RUN_TS, fixturePath, tempDir } from '../helpers/servers';
import { uiEvents } from '../../src-main/core/api/eventStream';
import { ToolCatalog } from '../../src-main/core/catalog/catalog';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';

let core: MooringCore;
let root: string;
let model: FakeProviderServer | undefined;

beforeAll(async () => {
  const home = tempDir('mooring-stream-');
  root = tempDir('mooring-stream-files-');
  writeFileSync(join(root, 'alpha.txt'), 'first file');
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({
      servers: [
        { name: 'fs', command: 'node', args: [FILESYSTEM, root] },
        { name: 'engine', command: 'node', args: [RUN_TS, fixturePath('engineServer.ts')] },
      ],
    }),
  );
  core = await MooringCore.open({
    home,
    secretStore: new MemorySecretStore(),
    env: { OPENAI_API_KEY: 'sk-test', MOORING_NO_SHELL_PATH: '1' },
  });
  await core.start();
}, 60_000);

afterAll(async () => {
  await model?.close();
  await core?.close();
});

/** A UI's stream: every event it got, and a way to wait for one. */
function openUi() {
  const ac = new AbortController();
  const events: UiEvent[] = [];
  let wake: (() => void) | undefined;
  const done = (async () => {
    for await (const e of uiEvents(core, ac.signal)) {
      events.push(e);
      wake?.();
    }
  })();
  const until = async (pred: (all: UiEvent[]) => boolean) => {
    while (!pred(events)) await new Promise<void>((r) => (wake = r));
  };
  return { events, until, close: () => (ac.abort(), wake?.(), done) };
}

describe('the tool-call lifecycle stream', () => {
  it('nine calls in parallel with a UI open add no listener to the core and warn of none', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    const ui = openUi();
    await ui.until((all) => all.some((e) => e.type === 'connected'));
    const listeners = () => core.tools.listenerCount('toolCall');
    const before = listeners();
    model = await startOpenAIServer([
      {
        toolCalls: Array.from({ length: 9 }, (_, i) => ({
          id: `call_hang_${i}`,
          name: 'mcp__engine__hang',
          arguments: {},
        })),
      },
    ]);
    await core.models.save({ defaultModel: 'openai:gpt-4o', baseUrls: { openai: `${model.url}/v1` } });
    const { conversationId } = await core.chat.send({ text: 'Nine at once' });
    const running = (all: UiEvent[]) =>
      new Set(
        all.flatMap((e) =>
          e.type === 'toolCall' && e.event.id.startsWith('call_hang_') && e.event.phase === 'running'
            ? [e.event.id]
            : [],
        ),
      ).size;
    await ui.until((all) => running(all) === 9);
    // All nine are in flight now (the tool never answers): not one listener more than before.
    expect(listeners()).toBe(before);
    core.chat.cancel(conversationId);
    await ui.until((all) =>
      all.some((e) => e.type === 'turn' && e.turn.conversationId === conversationId && !e.turn.running),
    );
    expect(listeners()).toBe(before);
    await ui.close();
    process.off('warning', onWarning);
    expect(warnings.filter((w) => w.includes('MaxListeners'))).toEqual([]);
  });

  it("resolves a call's name once and reads the catalog once, the conversation provider's", async () => {
    const runtime = core.chat.toolRuntime({ provider: 'openai', vision: false, interactive: false });
    runtime.tools('c1'); // the conversation's tools, as the loop reads them before its first request
    const catalogs = vi.spyOn(core.tools, 'catalog');
    const get = vi.spyOn(ToolCatalog.prototype, 'get');
    const resolve = vi.spyOn(ToolCatalog.prototype, 'tryResolve');
    try {
      for (const name of ['mcp__fs__list_directory', 'list_directory']) {
        catalogs.mockClear();
        get.mockClear();
        resolve.mockClear();
        const outcome = await runtime.execute(
          { id: `call_${name}`, name, arguments: { path: root } },
          { conversationId: 'c1', signal: new AbortController().signal },
        );
        expect(outcome).toMatchObject({ status: 'done', text: expect.stringContaining('alpha.txt') });
        expect(get.mock.calls.length + resolve.mock.calls.length, `resolutions of ${name}`).toBe(1);
        expect(catalogs.mock.calls.map(([q]) => q?.provider)).toEqual(['openai']);
      }
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('a UI that connects while a call waits for approval starts from its state', async () => {
    const file = join(root, 'waits.txt');
    const call = core.tools.call(
      'mcp__fs__write_file',
      { path: file, content: 'x' },
      { client: 'test', id: 'waiting-call' },
    );
    const [request] = await new Promise<Parameters<typeof core.approvals.answer>[0][]>((resolve) => {
      const ids = core.approvals.pending().map((r) => r.id);
      if (ids.length) resolve(ids);
      else core.approvals.once('requested', (r) => resolve([r.id]));
    });
    const ui = openUi();
    await ui.until((all) => all.some((e) => e.type === 'toolCall' && e.event.id === 'waiting-call'));
    const replayed = ui.events.find((e) => e.type === 'toolCall' && e.event.id === 'waiting-call');
    expect(replayed).toMatchObject({
      type: 'toolCall',
      event: {
        phase: 'awaiting-approval',
        approvalId: request,
        arguments: { path: file, content: 'x' },
        seq: expect.any(Number),
      },
    });
    core.approvals.answer(request!, { outcome: 'approve', decidedBy: 'user:test' });
    await call;
    await ui.until((all) =>
      all.some((e) => e.type === 'toolCall' && e.event.id === 'waiting-call' && e.event.phase === 'done'),
    );
    const seqs = ui.events.flatMap((e) =>
      e.type === 'toolCall' && e.event.id === 'waiting-call' ? [e.event.seq] : [],
    );
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    await ui.close();
  });
});
