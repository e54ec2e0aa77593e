// Both protocol eras from the client side (docs/decisions/006-protocol-eras.md): a fixture built on the v2
// server SDK that speaks only 2026-07-28 and one that speaks only 2025-11-25, over stdio and Streamable
// HTTP. The session negotiates each, lists and calls its tools, answers an input_required form through the
// same interaction broker as an elicitation request (a URL one too), answers its roots request with the
// project folder, stops a server that keeps asking, follows tool changes and a subscribed resource's
// updates (the 2026 listen stream, the 2025 unsolicited notification, and a list's ttlMs), and reaches a
// 2025 server that exits on the probe, ignores it or refuses it, down to revision 2024-11-05.
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { LogLine } from '../../shared/session';
import { createClientFeatures, type ClientFeatures } from '../../src-main/core/clientFeatures/clientFeatures';
import { readResource } from '../../src-main/core/clientFeatures/resources';
import { MAX_INPUT_ROUNDS, STDIO_PROBE_TIMEOUT_MS } from '../../src-main/core/mcp/protocolEra';
import { SessionActor } from '../../src-main/core/mcp/sessionActor';
import { ERA_VERSION, eraStdio, startEraHttp, type Era } from '../helpers/eraServers';
import { cfg, fixturePath, tempDir } from '../helpers/servers';

const text = (r: { content?: unknown }) =>
  ((r.content as Array<{ type: string; text?: string }>) ?? []).map((c) => c.text ?? '').join('\n');

const actors: SessionActor[] = [];
const stops: Array<() => Promise<void>> = [];
afterEach(async () => void (await Promise.all(actors.splice(0).map((a) => a.close()))));
afterAll(async () => void (await Promise.all(stops.map((s) => s()))));

/** The features a session gets in the app, with every form answered by "Ada" as a person would. */
function answeringFeatures(): { features: ClientFeatures; asked: string[] } {
  const asked: string[] = [];
  const features = createClientFeatures({ offerRoots: false });
  features.broker.on('requested', (r) => {
    if (r.kind !== 'elicitation-form') return;
    asked.push(r.message);
    features.broker.answer(r.id, {
      kind: 'elicitation-form',
      action: 'accept',
      content: r.message.startsWith('Round') ? { ok: true } : { name: 'Ada' },
      decidedBy: 'user',
    });
  });
  return { features, asked };
}

async function session(era: Era, transport: 'stdio' | 'http', extra: { env?: Record<string, string> } = {}) {
  const { features, asked } = answeringFeatures();
  let config = eraStdio(era, `${era}-stdio`, extra.env);
  if (transport === 'http') {
    const srv = await startEraHttp(era, extra.env);
    stops.push(srv.stop);
    config = srv.config();
  }
  const logs: LogLine[] = [];
  const actor = new SessionActor({
    config,
    capabilities: features.capabilities,
    clientHandlers: features.clientHandlers,
  });
  actor.on('log', (l) => logs.push(l));
  actors.push(actor);
  await actor.start();
  return { actor, asked, logs };
}

describe.each([
  ['modern', 'stdio'],
  ['modern', 'http'],
  ['legacy', 'stdio'],
  ['legacy', 'http'],
] as const)('a %s-only server over %s', (era, transport) => {
  it('is negotiated, listed and called, and its input_required form reaches the dialog', async () => {
    const { actor, asked, logs } = await session(era, transport);
    expect(actor.status().protocolVersion).toBe(ERA_VERSION[era]);
    expect(actor.protocolEra()).toBe(era);
    const how = era === 'modern' ? 'server/discover' : 'initialize handshake';
    expect(logs.some((l) => l.text.endsWith(`protocol ${ERA_VERSION[era]} (${how})`))).toBe(true);
    expect(actor.tools().map((t) => t.name)).toEqual(
      expect.arrayContaining(['echo', 'ask', 'ask_forever', 'sample', 'bump']),
    );
    expect(text(await actor.tool('echo')!.call({ text: 'hi' }))).toBe(`${era}: hi`);
    // 2026: the server answers input_required; 2025: the SDK's legacy shim sends elicitation/create.
    expect(text(await actor.tool('ask')!.call({}))).toBe('hello Ada');
    expect(asked).toEqual(['What is your name?']);
  });

  it('follows a change of the tool list', async () => {
    const { actor } = await session(era, transport);
    const changed = new Promise((resolve) =>
      actor.on('tools', (c) => c.added.includes('extra_1') && resolve(c)),
    );
    await actor.tool('bump')!.call({});
    await changed;
    expect(text(await actor.tool('extra_1')!.call({}))).toBe('extra_1');
  });
});

describe('input_required rounds', () => {
  it(`end with a clear error after ${MAX_INPUT_ROUNDS} rounds`, async () => {
    const { actor, asked } = await session('modern', 'stdio');
    const err = await actor
      .tool('ask_forever')!
      .call({})
      .then(
        () => undefined,
        (e: Error) => e,
      );
    expect(err?.message).toContain(`after ${MAX_INPUT_ROUNDS} rounds`);
    expect(asked.length).toBe(MAX_INPUT_ROUNDS);
  });
});

describe('a URL-mode request', () => {
  it.each(['modern', 'legacy'] as const)(
    'from a %s-only server opens its link after consent, under an id the dialog can answer',
    async (era) => {
      // MCP 2026-07-28 dropped the URL request's elicitationId (the round ties the answer to the call); the
      // dialog and the relay to the app still key the request by one.
      const opened: string[] = [];
      const ids: string[] = [];
      const features = createClientFeatures({
        offerRoots: false,
        openExternal: async (url) => void opened.push(url),
      });
      features.broker.on('requested', (r) => {
        if (r.kind !== 'elicitation-url') return;
        ids.push(r.elicitationId);
        features.broker.answer(r.id, { kind: 'elicitation-url', action: 'accept', decidedBy: 'user' });
      });
      const actor = new SessionActor({
        config: eraStdio(era, `${era}-link`),
        capabilities: features.capabilities,
        clientHandlers: features.clientHandlers,
      });
      actors.push(actor);
      await actor.start();
      expect(text(await actor.tool('open_link')!.call({}))).toBe('link accept');
      expect(opened).toEqual(['https://example.com/consent']);
      expect(ids).toHaveLength(1);
      expect(ids[0]).toMatch(/\S/);
    },
  );
});

describe('a roots request', () => {
  it.each(['modern', 'legacy'] as const)(
    "from a %s-only server is answered with the conversation's project folder",
    async (era) => {
      const features = createClientFeatures();
      const folder = tempDir('mooring-roots-');
      await features.roots.setFolder('conv-1', folder);
      await features.roots.activate('conv-1');
      const actor = new SessionActor({
        config: eraStdio(era, `${era}-roots`),
        capabilities: features.capabilities,
        clientHandlers: features.clientHandlers,
      });
      actors.push(actor);
      await actor.start();
      expect(text(await actor.tool('list_roots')!.call({}))).toBe(`roots: ${pathToFileURL(folder).href}`);
    },
  );
});

describe('a resource subscription', () => {
  it.each(['modern', 'legacy'] as const)(
    'on a %s-only server delivers its updates (2026: on the listen stream)',
    async (era) => {
      const features = createClientFeatures({ offerRoots: false });
      const actor = new SessionActor({
        config: eraStdio(era, `${era}-sub`),
        capabilities: features.capabilities,
        clientHandlers: features.clientHandlers,
      });
      actors.push(actor);
      await actor.start();
      const updated = new Promise<string>((res) =>
        features.resources.once('updated', (u) => res(`${u.server} ${u.uri}`)),
      );
      await features.resources.subscribe(actor, 'note://today');
      expect(text(await actor.tool('touch')!.call({}))).toBe('note 2');
      expect(await updated).toBe(`${era}-sub note://today`);
      const read = await readResource(actor, 'note://today');
      expect((read.contents[0] as { text: string }).text).toBe('note 2');
    },
  );
});

describe('a list with a ttlMs', () => {
  it('is listed again when it goes stale, with no notification', async () => {
    // SILENT_BUMP: the server announces nothing, so only the TTL refresh can show the new tool.
    const { actor } = await session('modern', 'http', { env: { TTL_MS: '1500', SILENT_BUMP: '1' } });
    const changed = new Promise((resolve) =>
      actor.on('tools', (c) => c.added.includes('extra_1') && resolve(c)),
    );
    await actor.tool('bump')!.call({});
    expect(actor.tool('extra_1')).toBeUndefined();
    await changed;
  });
});

describe('a 2025 server that takes no request before initialize', () => {
  const strict = (probe: 'exit' | 'ignore' | 'refuse', version?: string) => {
    const logs: LogLine[] = [];
    const actor = new SessionActor({
      config: cfg({
        name: `strict-${probe}`,
        command: 'node',
        args: [fixturePath('strictHandshake.mjs')],
        env: { PROBE: probe, ...(version ? { VERSION: version } : {}) },
      }),
    });
    actor.on('log', (l) => logs.push(l));
    actors.push(actor);
    return { actor, logs };
  };

  it('is started again with the 2025 handshake when it exits on the probe', async () => {
    const { actor, logs } = strict('exit');
    await actor.start();
    expect(actor.status().protocolVersion).toBe('2025-11-25');
    expect(text(await actor.tool('ping')!.call({}))).toBe('pong');
    expect(logs.map((l) => l.text).join('\n')).toContain('exited on the protocol probe');
  });

  it.each(['2025-06-18', '2025-03-26', '2024-11-05'])(
    'speaks %s with a server that refuses the probe and answers the handshake with that revision',
    async (version) => {
      const { actor, logs } = strict('refuse', version);
      await actor.start();
      expect(actor.status().protocolVersion).toBe(version);
      expect(actor.protocolEra()).toBe('legacy');
      expect(text(await actor.tool('ping')!.call({}))).toBe('pong');
      expect(logs.some((l) => l.text.endsWith(`protocol ${version} (initialize handshake)`))).toBe(true);
    },
  );

  it(`gets the 2025 handshake after ${STDIO_PROBE_TIMEOUT_MS / 1000} s when it ignores the probe`, async () => {
    // A stdio probe that times out means "a 2025 server" only when the SDK sees a stdio transport: Mooring's
    // own has the `stderr` property the SDK looks for, else the timeout would fail the connect as on HTTP.
    const { actor } = strict('ignore');
    await actor.start();
    expect(actor.status().protocolVersion).toBe('2025-11-25');
    expect(text(await actor.tool('ping')!.call({}))).toBe('pong');
  });
});
