// What Mooring declares and how the pieces without a server behave: capabilities follow what the host can
// really do, links must be https, roots need a real folder, the scripted host answers forms with defaults.
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { acceptElicitationsWithDefaults, createClientFeatures } from './clientFeatures';
import { isOpenableUrl } from './elicitation';
import { ElicitationService } from './elicitation';
import { InteractionBroker } from './interactionBroker';
import { RootsRegistry } from './roots';

describe('createClientFeatures', () => {
  it('declares sampling (with tools) only with a model and URL elicitation only with an opener', () => {
    expect(createClientFeatures().capabilities).toEqual({
      elicitation: { form: {} },
      roots: { listChanged: true },
    });
    expect(
      createClientFeatures({
        complete: async () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: '' } }),
        openExternal: async () => undefined,
        offerViews: true,
      }).capabilities,
    ).toEqual({
      elicitation: { form: {}, url: {} },
      roots: { listChanged: true },
      sampling: { tools: {} },
      // MCP Apps (extension io.modelcontextprotocol/ui), offered by a host that renders views.
      extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
    });
    expect(acceptElicitationsWithDefaults().capabilities).toEqual({ elicitation: { form: {} } });
  });
});

describe('URL elicitation', () => {
  it('opens only https URLs with a host', () => {
    expect(isOpenableUrl('https://example.com/a?b=c')).toBe(true);
    for (const bad of [
      'http://example.com',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'https://',
      'not a url',
    ])
      expect(isOpenableUrl(bad), bad).toBe(false);
  });

  it('declines a non-https link without asking and never opens it', async () => {
    const broker = new InteractionBroker();
    const opened: string[] = [];
    const svc = new ElicitationService({
      broker,
      openExternal: async (u) => void opened.push(u),
      log: () => undefined,
    });
    const res = await svc.handle(
      's',
      { mode: 'url', message: 'go', url: 'http://example.com/x', elicitationId: 'e1' },
      new AbortController().signal,
    );
    expect(res).toEqual({ action: 'decline' });
    expect(broker.pending()).toEqual([]);
    expect(opened).toEqual([]);
  });
});

describe('RootsRegistry', () => {
  it('lists the active conversation folder as a file URI and refuses paths that are not folders', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'roots unit ')));
    const file = join(dir, 'f.txt');
    writeFileSync(file, 'x');
    const r = new RootsRegistry();
    await r.setFolder('c1', dir);
    expect(r.list()).toEqual([]); // nothing active yet
    await r.activate('c1');
    expect(r.list()).toEqual([
      { uri: `file://${dir.replaceAll(' ', '%20')}`, name: expect.stringMatching(/^roots unit /) },
    ]);
    await r.activate('c2');
    expect(r.list()).toEqual([]);
    await expect(r.setFolder('c2', file)).rejects.toMatchObject({ code: 'not_found' });
    await expect(r.setFolder('c2', 'rel')).rejects.toMatchObject({ code: 'usage' });
  });
});

/** A session that is connected: the notice goes out (and `then` runs, as the server would react). */
const told = async (then?: () => void) => (then?.(), true);

describe('RootsRegistry: a change waits for the servers that read roots', () => {
  it('goes on once a reading server has read the new roots; a server that does not re-read is waited for once', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'roots reread ')));
    const r = new RootsRegistry(200);
    let reread: (() => void) | undefined;
    // "fs" reads roots again when told, but only when the test lets it; "stale" never reads again.
    r.track({ notifyRootsChanged: () => told(() => (reread = () => r.list('fs'))) }, 'fs');
    r.track({ notifyRootsChanged: () => told() }, 'stale');
    r.track({ notifyRootsChanged: () => told() }, 'never');
    r.list('fs');
    r.list('stale'); // both read at start-up; "never" does not use roots
    await r.setFolder('c1', dir);
    let activated = false;
    const activation = r.activate('c1').then(() => (activated = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(activated).toBe(false); // waits for fs's read
    reread!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(activated).toBe(false); // and for stale's, until the bound
    await activation;
    // stale did not read again: the next change waits for fs only.
    reread = undefined;
    let switched = false;
    const next = r.activate('c2').then(() => (switched = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(switched).toBe(false);
    reread!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(switched).toBe(true);
    await next;
    expect(r.list('fs')).toEqual([]);
  });

  it('a server that read roots and is not connected any more (removed) is not told, and not waited for', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'roots gone ')));
    const r = new RootsRegistry(60_000);
    let reread: (() => void) | undefined;
    r.track({ notifyRootsChanged: () => told(() => (reread = () => r.list('fs'))) }, 'fs');
    r.track({ notifyRootsChanged: async () => false }, 'gone');
    r.list('fs');
    r.list('gone');
    await r.setFolder('c1', dir);
    let activated = false;
    const activation = r.activate('c1').then(() => (activated = true));
    await new Promise((resolve) => setImmediate(resolve));
    reread!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(activated).toBe(true);
    await activation;
  });
});

describe('RootsRegistry: a conversation opened to be read does not wait', () => {
  it('shows at once; the turn started after it waits for the re-read its opening began', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'roots open ')));
    const r = new RootsRegistry(60_000);
    let reread: (() => void) | undefined;
    r.track({ notifyRootsChanged: () => told(() => (reread = () => r.list('fs'))) }, 'fs');
    r.list('fs');
    await r.setFolder('c1', dir, { wait: false });
    let opened = false;
    const opening = r.activate('c1', { wait: false }).then(() => (opened = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(opened).toBe(true); // returned although fs has not read the new roots yet
    await opening;
    expect(reread).toBeDefined();
    let settled = false;
    const reads = r.settled().then(() => (settled = true));
    let started = false;
    const turn = r.activate('c1').then(() => (started = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toBe(false); // no change of its own, yet it waits for fs
    // A folder set for another conversation changes no roots, and does not wait for fs either.
    await r.setFolder('c2', dir);
    expect(settled).toBe(false);
    reread!();
    await turn;
    await reads;
    expect(r.list('fs')).toEqual([{ uri: pathToFileURL(dir).href, name: basename(dir) }]);
  });

  it('a session that throws as it is told fails no turn, then or later', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'roots throw ')));
    const r = new RootsRegistry(60_000);
    r.track(
      {
        notifyRootsChanged: () => {
          throw new Error('the transport is gone');
        },
      },
      'broken',
    );
    await r.setFolder('c1', dir);
    await r.activate('c1', { wait: false });
    await expect(r.activate('c1')).resolves.toBeUndefined();
    await expect(r.settled()).resolves.toBeUndefined();
  });
});

describe('acceptElicitationsWithDefaults', () => {
  it('accepts with defaults, and declines a form whose required field has no default', async () => {
    const { clientHandlers } = acceptElicitationsWithDefaults();
    const handlers = clientHandlers('srv', {} as never);
    // Of the requests a server may send, only elicitation is answered (no sampling, no roots).
    expect(['sampling', 'elicitation', 'roots'].filter((k) => k in handlers)).toEqual(['elicitation']);
    const signal = new AbortController().signal;
    const ask = (schema: object) =>
      handlers.elicitation!({ message: 'm', requestedSchema: schema } as never, signal);
    await expect(
      ask({ type: 'object', properties: { n: { type: 'integer', default: 3 }, s: { type: 'string' } } }),
    ).resolves.toEqual({ action: 'accept', content: { n: 3 } });
    await expect(
      ask({ type: 'object', properties: { s: { type: 'string' } }, required: ['s'] }),
    ).resolves.toEqual({ action: 'decline' });
  });
});
