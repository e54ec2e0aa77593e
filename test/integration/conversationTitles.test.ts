// Conversation titles from the conversation's own model (src-main/core/agent/conversationTitles.ts) on a
// real core, through the chat the app uses: each provider's real SDK against a local server speaking its
// wire format (test/fixtures/providers), which answers title requests from their own script.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AssistantChatMessage, ChatEvent } from '@shared/chat';
import type { LogLine } from '@shared/session';
import type { TurnState } from '@shared/wire';
import { ConversationTitles } from '../../src-main/core/agent/conversationTitles';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { startAnthropicServer } from '../fixtures/providers/anthropicServer';
import { startOllamaServer } from '../fixtures/providers/ollamaServer';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer, ScriptOptions, ScriptedReply } from '../fixtures/providers/scriptedServer';
import { tempDir } from '../helpers/servers';

let core: MooringCore;
let fake: FakeProviderServer | undefined;
const chat: ChatEvent[] = [];
const turns: TurnState[] = [];
const logs: LogLine[] = [];
let wake: (() => void)[] = [];

const WIRES = {
  openai: { start: startOpenAIServer, model: 'openai:gpt-4o', path: '/v1' },
  anthropic: { start: startAnthropicServer, model: 'anthropic:claude-sonnet-4-5', path: '' },
  ollama: { start: startOllamaServer, model: 'ollama:llama3.2', path: '' },
} as const;
type Wire = keyof typeof WIRES;

/** A fake model of this wire format, made the default model. */
async function model(wire: Wire, script: ScriptedReply[], opts: ScriptOptions = {}) {
  fake = await WIRES[wire].start(script, opts);
  await core.models.save({
    defaultModel: WIRES[wire].model,
    baseUrls: { [wire]: `${fake.url}${WIRES[wire].path}` },
  });
  return fake;
}

/** Held until the test lets it go (Promise.withResolvers needs Node 22). */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Resolves when a turn of `cid` ended after the `from`th turn event. */
const turnEnded = (cid: string, from = 0) =>
  new Promise<void>((resolve) => {
    const check = () =>
      turns.slice(from).some((t) => t.conversationId === cid && !t.running)
        ? resolve()
        : void wake.push(check);
    check();
  });

/** A turn through the app's path; resolves when it ended and every title job has too. */
async function turn(text: string, conversationId?: string): Promise<string> {
  const from = turns.length;
  const { conversationId: cid } = await core.chat.send({
    text,
    ...(conversationId ? { conversationId } : {}),
  });
  await turnEnded(cid, from);
  await core.titles.settled();
  return cid;
}

const titleEvents = (cid: string) =>
  chat
    .filter((e) => e.type === 'title' && e.conversationId === cid)
    .map((e) => (e as { title: string }).title);

beforeAll(async () => {
  core = await MooringCore.open({
    home: tempDir('mooring-titles-home-'),
    secretStore: new MemorySecretStore(),
    env: { OPENAI_API_KEY: 'test-key', ANTHROPIC_API_KEY: 'test-key' },
  });
  core.chat.on('chat', (e) => chat.push(e));
  core.chat.on('turn', (t) => {
    turns.push(t);
    const w = wake;
    wake = [];
    w.forEach((f) => f());
  });
  core.on('log', (l) => logs.push(l));
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(async () => core?.close());

describe('a conversation named by its model', () => {
  it.each(Object.keys(WIRES) as Wire[])(
    '%s: after the first answer, one request without tools; its answer made safe is the title, once',
    async (wire) => {
      const f = await model(wire, [{ text: 'It will be sunny in Paris.' }, { text: 'And warm.' }], {
        titles: [{ text: '**"Weather in\u202e Paris."**\nI chose it because you asked.' }],
      });
      const cid = await turn('what is the weather in Paris tomorrow?');
      expect(f.titleRequests).toHaveLength(1);
      const asked = JSON.stringify(f.titleRequests[0]!.body);
      expect(asked).toContain('a title of at most 6 words');
      expect(asked).toContain('what is the weather in Paris tomorrow?');
      expect(asked).toContain('It will be sunny in Paris.');
      expect(f.titleRequests[0]!.body.tools ?? []).toEqual([]);
      const loaded = await core.conversations.load(cid);
      expect([loaded.summary.title, loaded.titleSource]).toEqual(['Weather in Paris', 'model']);
      expect(titleEvents(cid)).toEqual(['Weather in Paris']);
      expect((await core.chat.conversations.list()).find((c) => c.id === cid)?.title).toBe(
        'Weather in Paris',
      );
      // The turn is as it was: the person's message and the answer, nothing else.
      expect(loaded.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
      // Later turns do not ask again.
      await turn('and the day after?', cid);
      expect(f.titleRequests).toHaveLength(1);
      expect(f.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
    },
  );

  it('a failing provider leaves the first words and the turn untouched, with one line in the log', async () => {
    await model('openai', [{ text: 'Here is the plan.' }], {
      titles: [{ status: 500, errorMessage: 'the title service is overloaded' }],
    });
    const before = logs.length;
    const cid = await turn('plan a  trip\nto Lisbon in May');
    const loaded = await core.conversations.load(cid);
    expect([loaded.summary.title, loaded.titleSource]).toEqual([
      'plan a trip to Lisbon in May',
      'first-words',
    ]);
    expect(loaded.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(chat.some((e) => e.conversationId === cid && (e.type === 'error' || e.type === 'note'))).toBe(
      false,
    );
    const lines = logs.slice(before).filter((l) => l.text.startsWith('conversation title:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ server: 'mooring', source: 'host', level: 'warning' });
    expect(lines[0]!.text).toContain(cid);
    expect(lines[0]!.text).toContain('keeps its first words');
  });

  it('an answer with nothing usable in it leaves the first words', async () => {
    await model('anthropic', [{ text: 'Sure.' }], { titles: [{ text: '""\n**\n' }] });
    const before = logs.length;
    const cid = await turn('hello there');
    expect((await core.conversations.load(cid)).summary.title).toBe('hello there');
    expect(titleEvents(cid)).toEqual([]);
    expect(
      logs
        .slice(before)
        .map((l) => l.text)
        .join('\n'),
    ).toContain('no usable title');
  });

  it('a model that does not answer in time leaves the first words', async () => {
    // The core's own limit is 15 s; here a titler with a short one, on the same store and provider.
    const hold = gate();
    await core.settings.update((s) => ({ ...s, titlesFromModel: false }));
    const f = await model('openai', [{ text: 'Noted.' }], {
      titles: [{ text: 'Too late', gate: hold.promise }],
    });
    try {
      const cid = await turn('remember the milk');
      const lines: LogLine[] = [];
      const titles = new ConversationTitles({
        store: core.conversations,
        enabled: () => true,
        log: (l) => lines.push(l),
        timeoutMs: 300,
      });
      const { provider, model: name } = await core.providers.providerFor('openai:gpt-4o');
      const { messages } = await core.conversations.load(cid);
      titles.afterTurn({
        conversationId: cid,
        provider,
        model: name,
        result: { conversationId: cid, message: messages[1] as AssistantChatMessage, steps: messages },
      });
      await titles.settled();
      expect(f.titleRequests).toHaveLength(1);
      expect(lines.map((l) => l.text).join('\n')).toContain('no answer within 300 ms');
      expect((await core.conversations.load(cid)).summary.title).toBe('remember the milk');
    } finally {
      hold.open();
      await core.settings.update((s) => ({ ...s, titlesFromModel: true }));
    }
  });

  it('with the setting off, no title request is made', async () => {
    await core.settings.update((s) => ({ ...s, titlesFromModel: false }));
    try {
      const f = await model('ollama', [{ text: 'Four.' }], { titles: [{ text: 'Simple sums' }] });
      const cid = await turn('what is two plus two?');
      expect(f.titleRequests).toHaveLength(0);
      expect((await core.conversations.load(cid)).summary.title).toBe('what is two plus two?');
    } finally {
      await core.settings.update((s) => ({ ...s, titlesFromModel: true }));
    }
  });
});

describe('a title the person chose', () => {
  it('renamed while the first answer is on its way: the model is not asked', async () => {
    const answer = gate();
    const f = await model('openai', [{ text: 'The answer.', gate: answer.promise }], {
      titles: [{ text: 'Model title' }],
    });
    const { conversationId: cid } = await core.chat.send({ text: 'a question' });
    await core.chat.conversations.rename(cid, 'My own title');
    answer.open();
    await turnEnded(cid);
    await core.titles.settled();
    expect(f.titleRequests).toHaveLength(0);
    expect((await core.conversations.load(cid)).summary.title).toBe('My own title');
  });

  it('renamed while the model thinks of a title: the person’s title stays', async () => {
    const title = gate();
    const f = await model('openai', [{ text: 'The answer.' }], {
      titles: [{ text: 'Model title', gate: title.promise }],
    });
    const { conversationId: cid } = await core.chat.send({ text: 'another question' });
    await f.titleRequestsSeen(1);
    await core.chat.conversations.rename(cid, 'Chosen by me');
    title.open();
    await core.titles.settled();
    const loaded = await core.conversations.load(cid);
    expect([loaded.summary.title, loaded.titleSource]).toEqual(['Chosen by me', 'user']);
    expect(titleEvents(cid)).toEqual([]);
  });
});
