// The rest of MCP on the client side against the real server-everything over stdio: sampling,
// elicitation (form and URL), roots, progress, prompts, resources, completions, subscriptions and logging,
// with the test answering through the interaction broker as the UI would.
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Interaction } from '../../shared/interactions';
import type { LogLine } from '../../shared/session';
import type { LogLevel } from '../../shared/settings';
import { createClientFeatures, type ClientFeatures } from '../../src-main/core/clientFeatures/clientFeatures';
import { getPrompt, listPrompts, slashCommands } from '../../src-main/core/clientFeatures/prompts';
import {
  completeArgument,
  listResources,
  listResourceTemplates,
  readResource,
} from '../../src-main/core/clientFeatures/resources';
import type { SamplingParams } from '../../src-main/core/clientFeatures/sampling';
import { MooringError } from '../../src-main/core/errors';
import { SessionActor } from '../../src-main/core/mcp/sessionActor';
import type { Progress } from '../../src-main/core/mcp/types';
import { everythingStdio, tempDir, waitFor } from '../helpers/servers';

const text = (r: { content?: unknown }) =>
  ((r.content as Array<{ type: string; text?: string }>) ?? []).map((c) => c.text ?? '').join('\n');

/** The next request the UI would see, as a promise. */
const nextRequest = (f: ClientFeatures) =>
  new Promise<Interaction>((resolve) => {
    const on = (r: Interaction) => {
      f.broker.off('requested', on);
      resolve(r);
    };
    f.broker.on('requested', on);
  });

let features: ClientFeatures;
let actor: SessionActor;
const hostLogs: LogLine[] = [];
const opened: string[] = [];
const sampled: SamplingParams[] = [];
let logLevel: LogLevel = 'error';

beforeAll(async () => {
  features = createClientFeatures({
    // Deterministic "model": echoes the last user text.
    complete: async (req) => {
      sampled.push(req);
      const last = req.messages.at(-1)!.content as { text: string };
      return {
        model: 'scripted-model',
        role: 'assistant',
        content: { type: 'text', text: `ECHO[${last.text}]` },
        stopReason: 'endTurn',
      };
    },
    openExternal: async (url) => void opened.push(url),
    log: (l) => hostLogs.push(l),
    logLevel: () => logLevel,
    samplingBudget: { tokensPerHour: 5000 },
  });
  actor = new SessionActor({
    config: everythingStdio(),
    capabilities: features.capabilities,
    clientHandlers: features.clientHandlers,
  });
  await actor.start();
  await features.onSessionReady(actor);
  // server-everything registers its capability-dependent tools after initialisation (list_changed).
  await waitFor(
    () => actor.tool('trigger-sampling-request') && actor.tool('get-roots-list'),
    'conditional tools',
  );
}, 60_000);

afterAll(async () => {
  features?.dispose();
  await actor?.close();
});

describe('client features on server-everything', () => {
  it('sampling: the user sees the request, edits it, approves; the injected model answers; it is logged', async () => {
    const seen = nextRequest(features);
    const call = actor.tool('trigger-sampling-request')!.call({ prompt: 'tell me a joke', maxTokens: 64 });
    const req = await seen;
    expect(req).toMatchObject({
      kind: 'sampling',
      server: 'everything',
      request: { maxTokens: 64, systemPrompt: 'You are a helpful test server.' },
    });
    expect(JSON.stringify(req.kind === 'sampling' && req.request.messages)).toContain('tell me a joke');
    features.broker.answer(req.id, {
      kind: 'sampling',
      outcome: 'approve',
      edited: {
        messages: [{ role: 'user', content: { type: 'text', text: 'a gentler joke' } }],
        maxTokens: 32,
      },
    });
    const out = text(await call);
    expect(out).toContain('scripted-model');
    expect(out).toContain('ECHO[a gentler joke]');
    expect(sampled.at(-1)).toMatchObject({ maxTokens: 32, temperature: 0.7 });
    expect(features.sampling.stats('everything')).toMatchObject({ requests: 1, approved: 1 });
    expect(features.sampling.stats('everything').tokensLastHour).toBeGreaterThan(0);
    expect(hostLogs.filter((l) => l.server === 'everything').map((l) => l.text)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/sampling request #1/),
        expect.stringMatching(/#1 approved by user:ui \(edited\)/),
      ]),
    );
  });

  it('sampling: a decline reaches the server as an error and runs no model', async () => {
    const before = sampled.length;
    const seen = nextRequest(features);
    const call = actor.tool('trigger-sampling-request')!.call({ prompt: 'no thanks' });
    features.broker.answer((await seen).id, { kind: 'sampling', outcome: 'decline' });
    const res = await call;
    expect(res.isError).toBe(true);
    expect(text(res)).toMatch(/declined the sampling request/);
    expect(sampled.length).toBe(before);
  });

  it('sampling: a request past the hourly budget is refused without asking', async () => {
    let asked = false;
    const on = () => (asked = true);
    features.broker.on('requested', on);
    const res = await actor.tool('trigger-sampling-request')!.call({ prompt: 'huge', maxTokens: 100_000 });
    features.broker.off('requested', on);
    expect(asked).toBe(false);
    expect(res.isError).toBe(true);
    expect(text(res)).toMatch(/sampling tokens this hour/);
  });

  it('elicitation (form): an invalid answer is rejected, then the accepted form comes back with defaults (SEP-1034)', async () => {
    const seen = nextRequest(features);
    const call = actor.tool('trigger-elicitation-request')!.call({});
    const req = await seen;
    expect(req.kind).toBe('elicitation-form');
    if (req.kind !== 'elicitation-form') return;
    expect(req.requestedSchema.required).toEqual(['name']);
    const bad = (() => {
      try {
        features.broker.answer(req.id, {
          kind: 'elicitation-form',
          action: 'accept',
          content: { name: 'Ada', integer: 500, email: 'nope' },
        });
      } catch (e) {
        return e as MooringError;
      }
    })();
    expect(bad?.code).toBe('usage');
    expect(bad?.message).toMatch(/integer/);
    expect(bad?.message).toMatch(/email/);
    features.broker.answer(req.id, {
      kind: 'elicitation-form',
      action: 'accept',
      content: { name: 'Ada Lovelace', check: true },
    });
    const out = text(await call);
    expect(out).toContain('- Name: Ada Lovelace');
    const raw = JSON.parse(out.slice(out.indexOf('Raw result:') + 'Raw result:'.length)) as {
      action: string;
      content: Record<string, unknown>;
    };
    expect(raw.action).toBe('accept');
    expect(raw.content).toMatchObject({
      name: 'Ada Lovelace',
      check: true,
      firstLine: 'It was a dark and stormy night.',
      integer: 42,
      number: 3.14,
      untitledSingleSelectEnum: 'Monica',
      untitledMultipleSelectEnum: ['Guitar'],
      titledSingleSelectEnum: 'hero-1',
      legacyTitledEnum: 'pet-1',
    });
  });

  it('elicitation (URL): opens an https link only after consent; a non-https link is declined unseen', async () => {
    const seen = nextRequest(features);
    const call = actor.tool('trigger-url-elicitation')!.call({ url: 'https://example.com/authorize?x=1' });
    const req = await seen;
    expect(req).toMatchObject({
      kind: 'elicitation-url',
      url: 'https://example.com/authorize?x=1',
      host: 'example.com',
    });
    expect(opened).toEqual([]);
    features.broker.answer(req.id, { kind: 'elicitation-url', action: 'accept' });
    await call;
    expect(opened).toEqual(['https://example.com/authorize?x=1']);

    let asked = false;
    const on = () => (asked = true);
    features.broker.on('requested', on);
    const res = await actor.tool('trigger-url-elicitation')!.call({ url: 'http://example.com/plain' });
    features.broker.off('requested', on);
    expect(asked).toBe(false);
    expect(opened).toEqual(['https://example.com/authorize?x=1']);
    expect(text(res)).toMatch(/decline/);
  });

  it('roots: answers with the conversation folder as a file:// URI and announces a change', async () => {
    const a = realpathSync(tempDir('mooring-roots-a-'));
    const b = realpathSync(tempDir('mooring-roots-b-'));
    await features.roots.setFolder('conv-1', a);
    await features.roots.activate('conv-1');
    const uriA = pathToFileURL(a).href;
    expect(features.roots.list()).toEqual([{ uri: uriA, name: expect.stringMatching(/^mooring-roots-a-/) }]);
    await waitFor(
      async () => text(await actor.tool('get-roots-list')!.call({})).includes(uriA),
      'root A on the server',
    );
    // The server re-reads roots/list only because list_changed told it to.
    await features.roots.setFolder('conv-1', b);
    const uriB = pathToFileURL(b).href;
    await waitFor(
      async () => text(await actor.tool('get-roots-list')!.call({})).includes(uriB),
      'root B on the server',
    );
    await expect(features.roots.setFolder('conv-1', 'relative/path')).rejects.toMatchObject({
      code: 'usage',
    });
  });

  it('progress: notifications of a long-running operation reach the onProgress callback', async () => {
    const seen: Progress[] = [];
    const res = await actor
      .tool('trigger-long-running-operation')!
      .call({ duration: 1, steps: 5 }, { onProgress: (p) => seen.push(p) });
    expect(text(res)).toMatch(/Long running operation completed/);
    // Steps 1-4 always arrive. The SDK (2.4) dispatches notifications a microtask after responses, so the
    // 5th, written just before the result, can land after the call settled and is then dropped.
    expect(seen.length).toBeGreaterThanOrEqual(4);
    expect(seen.map((p) => [p.progress, p.total])).toEqual(
      [1, 2, 3, 4, 5].slice(0, seen.length).map((i) => [i, 5]),
    );
  });

  it('prompts: listed as slash commands, fetched with arguments, a missing argument named', async () => {
    const prompts = await listPrompts(actor);
    expect(prompts.map((p) => p.name)).toEqual(
      expect.arrayContaining(['simple-prompt', 'args-prompt', 'completable-prompt']),
    );
    const commands = await slashCommands([actor]);
    expect(commands.find((c) => c.command === 'args-prompt')?.server).toBe('everything');
    const got = await getPrompt(actor, 'args-prompt', { city: 'Paris', state: 'Texas' });
    expect(got.messages[0]?.content).toMatchObject({ type: 'text', text: "What's weather in Paris, Texas?" });
    await expect(getPrompt(actor, 'args-prompt', {})).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringMatching(/"city"/),
    });
    await expect(getPrompt(actor, 'no-such-prompt')).rejects.toMatchObject({ code: 'not_found' });
    const done = await completeArgument(actor, {
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { department: 'Sales' },
    });
    expect(done.values).toEqual(['David', 'Eve', 'Frank']);
  });

  it('resources: list, read, templates with completion, and a subscription whose updates arrive as events', async () => {
    const resources = await listResources(actor);
    expect(resources.length).toBeGreaterThan(0);
    const first = await readResource(actor, resources[0]!.uri);
    expect(first.contents[0]?.uri).toBe(resources[0]!.uri);
    const templates = await listResourceTemplates(actor);
    expect(templates.map((t) => t.uriTemplate)).toContain('demo://resource/dynamic/text/{resourceId}');
    const dyn = await readResource(actor, 'demo://resource/dynamic/text/7');
    expect((dyn.contents[0] as { text: string }).text).toMatch(/^Resource 7: This is a plaintext resource/);
    const ids = await completeArgument(actor, {
      ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
      argument: { name: 'resourceId', value: '12' },
    });
    expect(ids.values).toEqual(['12']);

    const uri = 'demo://resource/dynamic/text/1';
    const updated = new Promise<string>((res) =>
      features.resources.once('updated', (u) => res(`${u.server} ${u.uri}`)),
    );
    await features.resources.subscribe(actor, uri);
    expect(features.resources.subscriptions('everything')).toEqual([uri]);
    await actor.tool('toggle-subscriber-updates')!.call({});
    expect(await updated).toBe(`everything ${uri}`);
    await actor.tool('toggle-subscriber-updates')!.call({});
    await features.resources.unsubscribe(actor, uri);
    expect(features.resources.subscriptions('everything')).toEqual([]);
  });

  it('logging: the server is told the level the user picked and filters below it', async () => {
    // Since beforeAll the level is "error": the server's info-level acknowledgement of a subscribe is dropped.
    const serverLines: string[] = [];
    const onLog = (l: LogLine) => l.source === 'server' && serverLines.push(l.text);
    actor.on('log', onLog);
    await features.resources.subscribe(actor, 'demo://resource/dynamic/text/101');
    logLevel = 'debug';
    await features.setLogLevel(logLevel, [actor]);
    await features.resources.subscribe(actor, 'demo://resource/dynamic/text/102');
    await waitFor(() => serverLines.some((t) => t.includes('dynamic/text/102')), 'the info line for 102');
    actor.off('log', onLog);
    // Same stream, in order: had the first line been sent, it would have arrived before the second.
    expect(serverLines.some((t) => t.includes('dynamic/text/101'))).toBe(false);
  });
});
