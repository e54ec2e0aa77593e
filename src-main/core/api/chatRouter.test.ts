// The chat, models and interactions routers on a real core: a real server-filesystem, the real OpenAI
// SDK against a local server speaking its wire format, the key from the (in-memory) keychain, and every
// event read from the one merged `events` stream the UI subscribes to.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachedResources, typedText, type ChatEvent } from '@shared/chat';
import { startOpenAIServer } from '../../../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../../../test/fixtures/providers/scriptedServer';
import { everythingStdio, filesystemStdio, tempDir } from '../../../test/helpers/servers';
import { MooringCore } from '../mooringCore';
import { MemorySecretStore } from '../secrets/secretStore';
import type { UiEvent } from '@shared/wire';
import { appRouter, createApiContext } from './router';
import { createCallerFactory } from './trpc';

describe('the chat over the router', () => {
  let core: MooringCore;
  let api: ReturnType<typeof createApiContext>;
  const makeCaller = createCallerFactory(appRouter);
  let caller: ReturnType<typeof makeCaller>;
  let provider: FakeProviderServer;
  let root: string;
  const home = tempDir();
  const secrets = new MemorySecretStore();
  const events: UiEvent[] = [];
  const stop = new AbortController();
  let waiters: (() => void)[] = [];

  /** Resolves when the stream has carried an event matching `pred` (already or later). */
  const seen = (pred: (e: UiEvent) => boolean) =>
    new Promise<UiEvent>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('event not seen in 30 s')), 30_000);
      const check = () => {
        const hit = events.find(pred);
        if (!hit) return false;
        clearTimeout(timer);
        resolve(hit);
        return true;
      };
      const wait = () => {
        if (!check()) waiters.push(wait);
      };
      wait();
    });
  const chatEvents = (cid: string) =>
    events.flatMap((e) => (e.type === 'chat' && e.event.conversationId === cid ? [e.event] : []));
  const turnEnded = (cid: string) =>
    seen((e) => e.type === 'turn' && e.turn.conversationId === cid && !e.turn.running);

  beforeAll(async () => {
    root = tempDir('mooring-chat-root-');
    writeFileSync(join(root, 'alpha.txt'), 'first file');
    core = await MooringCore.open({ home, secretStore: secrets, env: {} });
    await core.servers.add(filesystemStdio(root, 'fs'), { start: false });
    await core.servers.add(everythingStdio('everything'), { start: false });
    await core.start();
    api = createApiContext(core);
    caller = makeCaller({ core: api.core, history: api.history }, { signal: stop.signal });
    void (async () => {
      for await (const e of await caller.events()) {
        events.push(e as UiEvent);
        const w = waiters;
        waiters = [];
        w.forEach((f) => f());
      }
    })();
    await seen((e) => e.type === 'connected');
  }, 60_000);

  afterAll(async () => {
    stop.abort();
    await provider?.close();
    api?.dispose();
    await core?.close();
  });

  it('saves the model settings: base URL in settings.json, the key in the keychain only', async () => {
    provider = await startOpenAIServer([]);
    await caller.models.save({ defaultModel: 'openai:gpt-4o', baseUrls: { openai: `${provider.url}/v1` } });
    await caller.models.setApiKey({ provider: 'openai', apiKey: 'sk-from-keychain' });
    const view = await caller.models.get();
    expect(view.defaultModel).toBe('openai:gpt-4o');
    expect(view.providers.find((p) => p.id === 'openai')).toMatchObject({
      baseUrl: `${provider.url}/v1`,
      keyStored: true,
    });
    expect(await secrets.get('provider/openai/apiKey')).toBe('sk-from-keychain');
    const files = readdirSync(home).map((f) => f.toString());
    for (const f of files.filter((n) => n.endsWith('.json')))
      expect(readFileText(join(home, f))).not.toContain('sk-from-keychain');
    expect(await caller.models.check({ provider: 'openai' })).toEqual({ ok: true, models: ['gpt-4o'] });
    // The picker: the configured providers' own lists, each model with what it takes; Anthropic has no
    // key and no URL here, so it is not offered.
    const listed = await caller.models.list();
    expect(listed.map((p) => p.provider).sort()).toEqual(['ollama', 'openai']);
    expect(listed.find((p) => p.provider === 'openai')).toEqual({
      provider: 'openai',
      models: [{ spec: 'openai:gpt-4o', model: 'gpt-4o', tools: true, vision: true }],
    });
    await provider.close();
  });

  it('a bad base URL is refused with the field named, nothing written', async () => {
    await expect(
      caller.models.save({ defaultModel: 'openai:gpt-4o', baseUrls: { openai: 'not a url' } }),
    ).rejects.toThrow(/openai\.baseUrl|URL/);
    expect(core.settings.current().providers.openai.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1/);
  });

  it('a turn lists a directory through server-filesystem and streams the answer on `events`', async () => {
    const tools = await caller.tools.list({ server: 'fs' });
    const list = tools.find((t) => t.tool === 'list_directory')!;
    provider = await startOpenAIServer([
      { toolCalls: [{ id: 'call_ls', name: list.modelName, arguments: { path: root } }] },
      { text: 'The folder holds alpha.txt.' },
    ]);
    await caller.models.save({ defaultModel: 'openai:gpt-4o', baseUrls: { openai: `${provider.url}/v1` } });
    const { conversationId: cid, model } = await caller.chat.send({ text: 'What is in my folder?' });
    expect(model).toBe('openai:gpt-4o');
    await turnEnded(cid);
    const chat = chatEvents(cid);
    const deltas = chat.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
    expect(deltas).toBe('The folder holds alpha.txt.');
    // The call's lifecycle is on the one tool-call stream, tagged with the conversation.
    const phases = events.flatMap((e) =>
      e.type === 'toolCall' && e.event.conversationId === cid ? [e.event.phase] : [],
    );
    expect(phases).toEqual(['requested', 'running', 'done']);
    expect(chat.some((e) => e.type === 'message-complete' && e.message.role === 'tool')).toBe(true);
    // The keychain's key reached the provider.
    expect(provider.requests.at(-1)!.headers.authorization).toBe('Bearer sk-from-keychain');
    const loaded = await caller.chat.load({ id: cid });
    expect(loaded.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(loaded.messages[2]).toMatchObject({ role: 'tool', status: 'done' });
    expect((loaded.messages[2] as { text: string }).text).toContain('alpha.txt');
    expect(loaded.running).toBe(false);
    await provider.close();
  });

  it("a resource attached to a message (the composer's @) reaches the model under a line that names it", async () => {
    const uri = 'demo://resource/static/document/architecture.md';
    provider = await startOpenAIServer([{ text: 'It is about the architecture.' }, { text: 'Again.' }]);
    await caller.models.save({ defaultModel: 'openai:gpt-4o', baseUrls: { openai: `${provider.url}/v1` } });
    const { conversationId: cid } = await caller.chat.send({
      text: 'What is this about?',
      attachments: [{ server: 'everything', uri, name: 'architecture.md' }],
    });
    await turnEnded(cid);
    const [user] = (await caller.chat.load({ id: cid })).messages;
    const content = user?.role === 'user' ? user.content : [];
    const text = content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
    expect(text).toContain('What is this about?');
    expect(text).toContain(uri);
    expect(text).toContain('Architecture');
    // The resource's parts are marked as the resource's, apart from what was typed (the transcript's chips).
    expect(typedText(content)).toBe('What is this about?');
    expect(attachedResources(content)).toEqual([{ server: 'everything', uri, name: 'architecture.md' }]);
    // What the model was sent is what was saved.
    expect(JSON.stringify(provider.requests.at(-1)!.body)).toContain('Everything Server');

    // Regenerate reads the resource again and sends the typed text once, not the resource as typed text.
    await caller.chat.regenerate({ conversationId: cid });
    await seen(
      (e) =>
        e.type === 'chat' &&
        e.event.conversationId === cid &&
        e.event.type === 'message-complete' &&
        e.event.message.role === 'assistant' &&
        e.event.message.text === 'Again.',
    );
    await turnEnded(cid);
    const [again] = (await caller.chat.load({ id: cid })).messages;
    const againContent = again?.role === 'user' ? again.content : [];
    expect(typedText(againContent)).toBe('What is this about?');
    expect(attachedResources(againContent)).toEqual([{ server: 'everything', uri, name: 'architecture.md' }]);
    const sent = JSON.stringify(provider.requests.at(-1)!.body);
    expect(sent.split('What is this about?').length - 1).toBe(1);
    expect(sent.split('Everything Server').length).toBe(
      JSON.stringify(provider.requests.filter((r) => r.method === 'POST').at(-2)!.body).split(
        'Everything Server',
      ).length,
    );

    // A resource that cannot be read fails the send, naming it; nothing is sent to the model.
    const before = provider.requests.length;
    await expect(
      caller.chat.send({
        text: 'And this?',
        attachments: [{ server: 'everything', uri: 'demo://nothing/here' }],
      }),
    ).rejects.toThrow(/Could not attach demo:\/\/nothing\/here from "everything"/);
    expect(provider.requests.length).toBe(before);
    await provider.close();
  });

  it('rename, search and delete conversations', async () => {
    const [first] = await caller.chat.conversations();
    await caller.chat.rename({ id: first!.id, title: 'Folder listing' });
    expect((await caller.chat.search({ query: 'listing' })).map((c) => c.id)).toEqual([first!.id]);
    expect(await caller.chat.search({ query: 'nothing like it' })).toEqual([]);
    await expect(caller.chat.rename({ id: first!.id, title: '  ' })).rejects.toThrow(/cannot be empty/);
    await caller.chat.delete({ id: first!.id });
    await expect(caller.chat.load({ id: first!.id })).rejects.toThrow(/No conversation/);
  });

  it('cancel stops a hanging reply: the stream closes and the turn ends with a note', async () => {
    provider = await startOpenAIServer([{ text: 'Thinking very slowly', hang: true }]);
    await caller.models.save({ defaultModel: 'openai:gpt-4o', baseUrls: { openai: `${provider.url}/v1` } });
    const aborted = provider.nextClientAbort();
    const { conversationId: cid } = await caller.chat.send({ text: 'Take your time' });
    await seen((e) => e.type === 'chat' && e.event.type === 'text-delta' && e.event.conversationId === cid);
    expect((await caller.chat.conversations()).find((c) => c.id === cid)?.running).toBe(true);
    expect(await caller.chat.cancel({ conversationId: cid })).toEqual({ cancelled: true });
    await aborted;
    await turnEnded(cid);
    const loaded = await caller.chat.load({ id: cid });
    expect(loaded.messages.at(-1)).toMatchObject({ role: 'note', text: 'Cancelled.' });
    expect(loaded.messages.find((m) => m.role === 'assistant')).toMatchObject({ cancelled: true });
    await provider.close();
  });

  it('an unreachable model fails the turn with an error event that has a hint', async () => {
    await caller.models.save({
      defaultModel: 'openai:gpt-4o',
      baseUrls: { openai: 'http://127.0.0.1:9/v1' },
    });
    const check = await caller.models.check({ provider: 'openai' });
    expect(check.ok).toBe(false);
    // Check tries what the form holds, unsaved: a URL and a key typed but not stored; nothing is written.
    const draft = await startOpenAIServer([]);
    try {
      expect(
        await caller.models.check({ provider: 'openai', baseUrl: `${draft.url}/v1`, apiKey: 'sk-typed' }),
      ).toEqual({ ok: true, models: ['gpt-4o'] });
      expect(draft.requests.at(-1)?.headers.authorization).toBe('Bearer sk-typed');
      expect((await caller.models.get()).providers.find((p) => p.id === 'openai')?.baseUrl).toBe(
        'http://127.0.0.1:9/v1',
      );
      expect(await secrets.get('provider/openai/apiKey')).toBe('sk-from-keychain');
    } finally {
      await draft.close();
    }
    const { conversationId: cid } = await caller.chat.send({ text: 'Hello?' });
    await turnEnded(cid);
    const error = chatEvents(cid).find((e): e is Extract<ChatEvent, { type: 'error' }> => e.type === 'error');
    expect(error?.error.hint).toBeTruthy();
  });

  it('a server form elicitation waits in interactions.pending and the answer reaches the server', async () => {
    const tools = await caller.tools.list({ server: 'everything' });
    const trigger = tools.find((t) => t.tool === 'trigger-elicitation-request')!;
    await caller.servers.setToolEnabled({ server: 'everything', tool: trigger.tool, enabled: true });
    const run = caller.tools.run({ name: trigger.modelName, arguments: {} });
    const approval = await seen((e) => e.type === 'approval');
    if (approval.type === 'approval')
      await caller.approvals.answer({ id: approval.request.id, outcome: 'approve' });
    const asked = await seen((e) => e.type === 'interaction');
    const [pending] = await caller.interactions.pending();
    expect(pending?.kind).toBe('elicitation-form');
    expect(asked.type === 'interaction' && asked.request.id).toBe(pending!.id);
    // Missing required fields: refused with a usage error, the request stays open.
    await expect(
      caller.interactions.answer({
        id: pending!.id,
        answer: { kind: 'elicitation-form', action: 'accept', content: { email: 'x' } },
      }),
    ).rejects.toThrow();
    expect((await caller.interactions.pending()).length).toBe(1);
    await caller.interactions.answer({
      id: pending!.id,
      answer: { kind: 'elicitation-form', action: 'decline' },
    });
    await seen((e) => e.type === 'interactionResolved');
    const outcome = await run;
    expect(JSON.stringify(outcome.result.parts)).toMatch(/decline/i);
  });
});

const readFileText = (file: string) => readFileSync(file, 'utf8');
