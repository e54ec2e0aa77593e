// The local relay (docs/sharing.md, "`mooring serve` and the running app"): `mooring serve` forwards what
// needs a person to the running app over <home>/run/approvals.sock. First the socket itself (permissions,
// the token check, a stale or live socket), then both ends in process with two real brokers of each kind
// (the app's answer, timeouts and cancellation both ways, no app: refused or declined at once), then real
// processes: `mooring web` and `mooring serve --stdio` on one home, an SDK client calling write_file,
// answered through the web app's router.
import { once } from 'node:events';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequestInput } from '../../shared/approval';
import { InteractionBroker } from '../../src-main/core/clientFeatures/interactionBroker';
import { ApprovalBroker, type ApprovalResolved } from '../../src-main/core/safety/approvalBroker';
import { relayApprovalsToApp, type ApprovalRelayClient } from '../../src-main/core/serve/approvalRelayClient';
import {
  startApprovalRelayListener,
  type ApprovalRelayListener,
} from '../../src-main/core/serve/approvalRelayListener';
import { approvalRelayPaths } from '../../src-main/core/serve/approvalRelayProtocol';
import { askAppStatus } from '../../src-main/core/serve/appStatusQuery';
import { tempDir } from '../helpers/servers';
import { appApproval, startServe, text, webAndServe, type Web } from './relayHelpers';

const mode = (p: string) => statSync(p).mode & 0o777;

const input = (client: string, args: Record<string, unknown> = { path: '/tmp/x' }): ApprovalRequestInput => ({
  server: 'files',
  tool: 'write_file',
  friendlyName: 'Write file',
  annotations: { destructiveHint: true },
  arguments: args,
  fingerprint: 'fp-1',
  reason: 'the tool may be destructive',
  client,
});

/** Sends raw lines on the socket and collects every line the app sends back until it closes the connection. */
async function rawExchange(endpoint: string, lines: string[]): Promise<unknown[]> {
  const socket = connect(endpoint);
  await once(socket, 'connect');
  for (const l of lines) socket.write(`${l}\n`);
  const got: unknown[] = [];
  for await (const line of createInterface({ input: socket })) got.push(JSON.parse(line));
  return got;
}

describe("the servers' live status over the relay (mooring mcp list)", () => {
  it('answers from whichever app listens; none, a stale token, a wrong token and an app without statuses each say so', async () => {
    const home = tempDir('mooring-relay-status-');
    expect(await askAppStatus(home, { via: 'test' })).toEqual({ kind: 'none' });
    const app = new ApprovalBroker();
    const failed = { code: 'connect_failed', message: 'Could not connect: refused' };
    let listener = await startApprovalRelayListener({
      broker: app,
      home,
      app: 'the desktop app',
      statuses: () => [
        { name: 'files', state: 'ready' },
        { name: 'far', state: 'failed', attempt: 5, maxAttempts: 5, error: failed },
      ],
    });
    try {
      expect(await askAppStatus(home, { via: 'test' })).toEqual({
        kind: 'app',
        app: 'the desktop app',
        pid: process.pid,
        servers: [
          { name: 'files', state: 'ready' },
          { name: 'far', state: 'failed', attempt: 5, maxAttempts: 5, error: failed },
        ],
      });
      // A token from an older start of the app: refused, and said.
      writeFileSync(listener.tokenFile, `${'x'.repeat(43)}\n`);
      expect(await askAppStatus(home, { via: 'test' })).toEqual({
        kind: 'unreachable',
        error: 'The approval relay token is wrong.',
      });
    } finally {
      await listener.close();
    }
    // An app that does not tell statuses refuses the question instead of hanging.
    listener = await startApprovalRelayListener({ broker: app, home });
    try {
      expect(await askAppStatus(home, { via: 'test' })).toMatchObject({
        kind: 'unreachable',
        error: expect.stringMatching(/does not tell its servers/),
      });
    } finally {
      await listener.close();
    }
    // Statuses that cannot be read fail this question only; the app and its relay keep running.
    listener = await startApprovalRelayListener({
      broker: app,
      home,
      statuses: () => {
        throw new Error('the sessions are closing');
      },
    });
    try {
      expect(await askAppStatus(home, { via: 'test' })).toMatchObject({
        kind: 'unreachable',
        error: expect.stringMatching(/the sessions are closing/),
      });
      expect(await askAppStatus(home, { via: 'test' })).toMatchObject({ kind: 'unreachable' });
    } finally {
      await listener.close();
    }
    // A token left behind by an app that crashed: nothing listens, so no app runs.
    writeFileSync(approvalRelayPaths(home).tokenFile, `${'y'.repeat(43)}\n`);
    expect(await askAppStatus(home, { via: 'test' })).toEqual({ kind: 'none' });
    app.dispose();
  });
});

describe('the app side: socket, token, permissions', () => {
  let home: string;
  let app: ApprovalBroker;
  let listener: ApprovalRelayListener;
  beforeEach(async () => {
    home = tempDir('mooring-relay-');
    app = new ApprovalBroker();
    listener = await startApprovalRelayListener({ broker: app, home, helloTimeoutMs: 1_000 });
  });
  afterEach(async () => {
    await listener.close();
    app.dispose();
  });

  it('keeps the run dir 0700 and the socket and the token 0600', () => {
    const paths = approvalRelayPaths(home);
    expect(listener.endpoint).toBe(paths.endpoint);
    expect(mode(paths.dir)).toBe(0o700);
    expect(statSync(paths.endpoint).isSocket()).toBe(true);
    expect(mode(paths.endpoint)).toBe(0o600);
    expect(mode(paths.tokenFile)).toBe(0o600);
    expect(readFileSync(paths.tokenFile, 'utf8').trim()).toMatch(/^[\w-]{43}$/);
  });

  it('rejects a wrong token, a request before hello, and a silent peer; parks nothing', async () => {
    const request = JSON.stringify({
      type: 'request',
      id: 'r1',
      input: input('intruder'),
      timeoutMs: 60_000,
    });
    const wrong = await rawExchange(listener.endpoint, [
      JSON.stringify({ type: 'hello', token: 'x'.repeat(43) }),
      request,
    ]);
    expect(wrong).toEqual([
      {
        type: 'rejected',
        error: expect.objectContaining({ code: 'refused', message: 'The approval relay token is wrong.' }),
      },
    ]);
    expect(await rawExchange(listener.endpoint, [request])).toEqual([
      { type: 'rejected', error: expect.objectContaining({ code: 'refused' }) },
    ]);
    expect(await rawExchange(listener.endpoint, ['not json'])).toEqual([
      { type: 'rejected', error: expect.objectContaining({ message: expect.stringMatching(/not JSON/) }) },
    ]);
    expect(await rawExchange(listener.endpoint, [])).toEqual([
      { type: 'rejected', error: expect.objectContaining({ message: 'No hello in time.' }) },
    ]);
    expect(app.pending()).toEqual([]);
  });

  it('accepts the token from the file and parks the request on the app broker', async () => {
    const token = readFileSync(listener.tokenFile, 'utf8').trim();
    const socket = connect(listener.endpoint);
    const lines = createInterface({ input: socket })[Symbol.asyncIterator]();
    socket.write(`${JSON.stringify({ type: 'hello', token, via: 'raw test' })}\n`);
    expect(JSON.parse((await lines.next()).value as string)).toEqual({ type: 'welcome' });
    socket.write(
      `${JSON.stringify({ type: 'request', id: 'r1', input: input('raw-client'), timeoutMs: 60_000 })}\n`,
    );
    const [req] = (await once(app, 'requested')) as [{ id: string; client: string }];
    expect(req.client).toBe('raw-client (via raw test)');
    app.answer(req.id, { outcome: 'deny', decidedBy: 'user:ui' });
    expect(JSON.parse((await lines.next()).value as string)).toEqual({
      type: 'decision',
      id: 'r1',
      decision: { outcome: 'deny', decidedBy: 'user:ui' },
    });
    socket.destroy();
  });

  it('refuses a second app on a live socket, replaces a stale one, and cleans up on close', async () => {
    await expect(startApprovalRelayListener({ broker: app, home })).rejects.toMatchObject({ code: 'usage' });
    await listener.close();
    const { endpoint, tokenFile } = approvalRelayPaths(home);
    expect(existsSync(endpoint)).toBe(false);
    expect(existsSync(tokenFile)).toBe(false);
    // A socket file nobody listens on (the app crashed): a plain file stands in for it.
    writeFileSync(endpoint, '');
    listener = await startApprovalRelayListener({ broker: app, home });
    expect(statSync(endpoint).isSocket()).toBe(true);
  });
});

describe('the relay with a named pipe (Windows), simulated', () => {
  it("a second app that loses the pipe to a live one leaves that one's token in place", async () => {
    // A pipe's name is machine-wide, with no file to check first: on Linux it is a socket file in the
    // working directory, so the test runs in a directory of its own.
    const home = tempDir('mooring-relay-pipe-');
    const cwd = process.cwd();
    process.chdir(tempDir('mooring-relay-pipe-cwd-'));
    const app = new ApprovalBroker();
    try {
      const first = await startApprovalRelayListener({ broker: app, home, platform: 'win32' });
      const token = readFileSync(first.tokenFile, 'utf8');
      await expect(
        startApprovalRelayListener({ broker: app, home, platform: 'win32' }),
      ).rejects.toMatchObject({ code: 'usage', message: expect.stringMatching(/Another Mooring app/) });
      expect(readFileSync(first.tokenFile, 'utf8')).toBe(token);
      await first.close();
      expect(existsSync(first.tokenFile)).toBe(false);
    } finally {
      process.chdir(cwd);
      app.dispose();
    }
  });
});

describe('serving broker → app broker (in process)', () => {
  let home: string;
  let app: ApprovalBroker;
  let serving: ApprovalBroker;
  let listener: ApprovalRelayListener | undefined;
  let relay: ApprovalRelayClient;
  let notices: string[];
  beforeEach(async () => {
    home = tempDir('mooring-relay-');
    app = new ApprovalBroker();
    serving = new ApprovalBroker();
    notices = [];
    listener = await startApprovalRelayListener({ broker: app, home });
    relay = relayApprovalsToApp({
      broker: serving,
      home,
      via: 'test serve',
      onNotice: (n) => notices.push(n),
    });
  });
  afterEach(async () => {
    relay.stop();
    await listener?.close();
    app.dispose();
    serving.dispose();
  });

  it("answers the serving request with the app's decision, edited arguments included", async () => {
    const waiting = serving.request(input('stdio-client'), { timeoutMs: 60_000 });
    const [req] = (await once(app, 'requested')) as [{ id: string; client: string; arguments: unknown }];
    expect(req).toMatchObject({ client: 'stdio-client (via test serve)', arguments: { path: '/tmp/x' } });
    expect(relay.connected()).toBe(true);
    app.answer(req.id, { outcome: 'approve', decidedBy: 'user:ui', arguments: { path: '/tmp/y' } });
    await expect(waiting).resolves.toEqual({
      outcome: 'approve',
      decidedBy: 'user:ui',
      arguments: { path: '/tmp/y' },
    });
    expect(serving.pending()).toEqual([]);
  });

  it('forwards a request parked before the relay started', async () => {
    relay.stop();
    const waiting = serving.request(input('quick-client'), { timeoutMs: 60_000 });
    const asked = once(app, 'requested');
    relay = relayApprovalsToApp({ broker: serving, home, via: 'test serve' });
    const [req] = (await asked) as [{ id: string; client: string }];
    expect(req.client).toBe('quick-client (via test serve)');
    app.answer(req.id, { outcome: 'deny', decidedBy: 'user:ui' });
    await expect(waiting).resolves.toMatchObject({ outcome: 'deny' });
  });

  it("the serving side's timeout or abort cancels the app's copy", async () => {
    // The assertions are attached at once: the rejection may come while the test awaits the app's events.
    const refused = expect(serving.request(input('slow-user'), { timeoutMs: 2_000 })).rejects.toMatchObject({
      code: 'refused',
    });
    await once(app, 'requested');
    const [ended] = (await once(app, 'resolved')) as [ApprovalResolved];
    expect(ended.error?.code).toBe('cancelled');
    await refused;
    expect(app.pending()).toEqual([]);

    const abort = new AbortController();
    const cancelled = expect(
      serving.request(input('gone-client'), { signal: abort.signal, timeoutMs: 60_000 }),
    ).rejects.toMatchObject({ code: 'cancelled' });
    await once(app, 'requested');
    const appEnded = once(app, 'resolved');
    abort.abort(new Error('the client cancelled'));
    await cancelled;
    const [dropped] = (await appEnded) as [ApprovalResolved];
    expect(dropped.error?.message).toMatch(/the client cancelled/);
  });

  it('when the app closes before answering, the request is refused at once, and says so', async () => {
    const waiting = serving.request(input('orphan'), { timeoutMs: 60_000 });
    const refused = expect(waiting).rejects.toMatchObject({
      code: 'cancelled',
      message: expect.stringMatching(/the Mooring app closed before answering, so Mooring refused the call/),
      hint: expect.stringMatching(/Open Mooring on this computer/),
    });
    await once(app, 'requested');
    await listener!.close();
    listener = undefined;
    await refused;
    expect(notices.join('\n')).toMatch(/the Mooring app closed before answering, so nobody can approve/);
  });

  it('with no app running, the request is refused at once, saying to open Mooring', async () => {
    await listener!.close();
    listener = undefined;
    // A wait of a minute: only the relay's own refusal can end it within the test.
    const waiting = serving.request(input('lonely'), { timeoutMs: 60_000 });
    await expect(waiting).rejects.toMatchObject({
      code: 'cancelled',
      message:
        'Nobody can approve "Write file" (files/write_file) for lonely: no Mooring app is running for this home, so Mooring refused the call.',
      hint: expect.stringMatching(
        /Open Mooring on this computer \(the desktop app, or `mooring web`\).*read-only scope/,
      ),
    });
    expect(notices.join('\n')).toMatch(
      /no Mooring app is running for this home, so nobody can approve "Write file" for lonely; it was refused/,
    );
    expect(relay.connected()).toBe(false);
  });
});

describe('serving interaction broker → app interaction broker (in process)', () => {
  let home: string;
  let app: InteractionBroker;
  let serving: InteractionBroker;
  let listener: ApprovalRelayListener | undefined;
  let relay: ApprovalRelayClient;
  let notices: string[];
  const form = {
    kind: 'elicitation-form' as const,
    server: 'everything',
    message: 'Who are you?',
    requestedSchema: {
      type: 'object' as const,
      properties: {
        name: { type: 'string' as const, title: 'Name' },
        city: { type: 'string' as const, title: 'City', default: 'Lisbon' },
      },
      required: ['name'],
    },
  };
  const sampling = {
    kind: 'sampling' as const,
    server: 'everything',
    request: {
      messages: [{ role: 'user' as const, content: { type: 'text', text: 'A haiku' } }],
      maxTokens: 100,
    },
    budget: { usedTokens: 0, limitTokens: 20_000, windowMs: 3_600_000 },
  };
  beforeEach(async () => {
    home = tempDir('mooring-relay-');
    app = new InteractionBroker();
    serving = new InteractionBroker();
    notices = [];
    listener = await startApprovalRelayListener({ broker: new ApprovalBroker(), interactions: app, home });
    relay = relayApprovalsToApp({
      broker: new ApprovalBroker(),
      interactions: serving,
      home,
      via: 'test serve',
      onNotice: (n) => notices.push(n),
    });
  });
  afterEach(async () => {
    relay.stop();
    await listener?.close();
    app.dispose();
    serving.dispose();
  });

  it("answers a form in the app: the server's request gets the app's answer, defaults applied", async () => {
    const waiting = serving.request(form, { timeoutMs: 60_000 });
    const [req] = (await once(app, 'requested')) as [{ id: string; server: string; kind: string }];
    expect(req).toMatchObject({ kind: 'elicitation-form', server: 'everything (via test serve)' });
    app.answer(req.id, {
      kind: 'elicitation-form',
      action: 'accept',
      content: { name: 'Ada' },
      decidedBy: 'user:ui',
    });
    await expect(waiting).resolves.toEqual({
      kind: 'elicitation-form',
      action: 'accept',
      content: { name: 'Ada', city: 'Lisbon' },
      decidedBy: 'user:ui',
    });
    expect(serving.pending()).toEqual([]);
  });

  it('answers a sampling request in the app, edit included; a serving-side abort drops the app copy', async () => {
    const waiting = serving.request(sampling, { timeoutMs: 60_000 });
    const [req] = (await once(app, 'requested')) as [{ id: string }];
    app.answer(req.id, {
      kind: 'sampling',
      outcome: 'approve',
      edited: { maxTokens: 50 },
      decidedBy: 'user:ui',
    });
    await expect(waiting).resolves.toMatchObject({ outcome: 'approve', edited: { maxTokens: 50 } });

    const abort = new AbortController();
    const cancelled = expect(serving.request(sampling, { signal: abort.signal })).rejects.toMatchObject({
      code: 'cancelled',
    });
    await once(app, 'requested');
    const dropped = once(app, 'resolved');
    abort.abort(new Error('the server gave up'));
    await cancelled;
    const [ended] = (await dropped) as [{ error?: { message: string } }];
    expect(ended.error?.message).toMatch(/the server gave up/);
  });

  it('with no app running, a form is declined and a sampling request refused at once', async () => {
    await listener!.close();
    listener = undefined;
    await expect(serving.request(form, { timeoutMs: 60_000 })).resolves.toMatchObject({
      kind: 'elicitation-form',
      action: 'decline',
      decidedBy: 'test serve: no Mooring app is running for this home',
    });
    await expect(serving.request(sampling, { timeoutMs: 60_000 })).rejects.toMatchObject({
      code: 'refused',
      message:
        'Mooring declined the sampling request from "everything": no Mooring app is running for this home, so nobody can approve it.',
      hint: expect.stringMatching(/Open Mooring on this computer/),
    });
    expect(notices.join('\n')).toMatch(/nobody can answer the elicitation-form request from "everything"/);
  });

  it('an app without an interaction broker says so at once', async () => {
    await listener!.close();
    listener = await startApprovalRelayListener({ broker: new ApprovalBroker(), home });
    await expect(serving.request(form, { timeoutMs: 60_000 })).rejects.toMatchObject({
      message: expect.stringMatching(/does not answer relayed sampling or elicitation requests/),
    });
  });
});

// ---- Real processes: `mooring web` (the app) and `mooring serve --stdio` on one MOORING_HOME ----

describe('mooring serve --stdio relays approvals to a running mooring web (real processes)', () => {
  let fsRoot: string;
  let home: string;
  let web: Web;
  let serve: Awaited<ReturnType<typeof startServe>>;
  let close = async () => {};

  beforeAll(async () => {
    ({ fsRoot, home, web, serve, close } = await webAndServe({
      prefix: 'relay',
      client: 'relay-acceptance-client',
      approvalTimeoutSeconds: 60,
    }));
  }, 90_000);

  afterAll(() => close());

  it('shows the call in the app with the client name; approve writes the file', async () => {
    const target = join(fsRoot, 'approved.txt');
    const call = serve.client.callTool({
      name: 'mcp__files__write_file',
      arguments: { path: target, content: 'approved in the app' },
    });
    const req = await appApproval(web);
    expect(req).toMatchObject({
      server: 'files',
      tool: 'write_file',
      client: 'relay-acceptance-client (via mooring serve --stdio)',
      arguments: { path: target, content: 'approved in the app' },
    });
    await web.trpc.approvals.answer.mutate({ id: req.id, outcome: 'approve' });
    const r = await call;
    expect(r.isError, text(r)).toBeFalsy();
    expect(readFileSync(target, 'utf8')).toBe('approved in the app');
    expect(await web.trpc.approvals.pending.query()).toEqual([]);
    // The serving process's audit log records who decided, for which client.
    const audit = readFileSync(join(home, 'logs', 'audit.jsonl'), 'utf8');
    expect(audit).toMatch(/"client":"relay-acceptance-client"/);
    expect(audit).toMatch(/"decidedBy":"user:ui"/);
  });

  it('deny in the app refuses the call and writes nothing', async () => {
    const target = join(fsRoot, 'denied.txt');
    const call = serve.client.callTool({
      name: 'mcp__files__write_file',
      arguments: { path: target, content: 'no' },
    });
    const req = await appApproval(web);
    await web.trpc.approvals.answer.mutate({ id: req.id, outcome: 'deny' });
    const r = await call;
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/You denied the call/);
    expect(existsSync(target)).toBe(false);
  });

  it('with no app running, the call is refused at once with what to do', async () => {
    web.child.kill('SIGTERM');
    await once(web.child, 'exit');
    const { endpoint, tokenFile } = approvalRelayPaths(home);
    expect(existsSync(endpoint) || existsSync(tokenFile)).toBe(false);
    const target = join(fsRoot, 'unanswered.txt');
    // A wait of five minutes: the call returns long before, with the relay's refusal.
    const lonely = await startServe(home, 'lonely-client', 300);
    try {
      const r = await lonely.client.callTool({
        name: 'mcp__files__write_file',
        arguments: { path: target, content: 'nobody approves' },
      });
      expect(r.isError).toBe(true);
      expect(text(r)).toMatch(
        /Nobody can approve "Write File" \(files\/write_file\) for lonely-client: no Mooring app is running for this home, so Mooring refused the call/,
      );
      expect(text(r)).toMatch(/Open Mooring on this computer/);
      expect(text(r)).toMatch(/read-only scope/);
      expect(existsSync(target)).toBe(false);
      expect(lonely.stderr()).toMatch(/no Mooring app is running for this home, so nobody can approve/);
    } finally {
      await lonely.client.close();
    }
  });
});
