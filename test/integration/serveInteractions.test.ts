// Sampling and elicitation from a server behind `mooring serve` with no app to ask (the relay,
// serve/approvalRelayClient.ts): real processes — the SDK's client launches `mooring serve --stdio`, whose
// home has server-everything, and calls its sampling and elicitation triggers. With no Mooring app running,
// the elicitation is declined and the sampling request refused at once, each with a line on serve's stderr
// saying why; before, both waited unseen until server-everything's own timeout (10 minutes for the form).
// Answered in a running app: e2e/serveRelay.spec.ts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, tempDir } from '../helpers/servers';
import { startServe, text } from './relayHelpers';

describe('mooring serve --stdio with no app: sampling and elicitation are declined at once', () => {
  let serve: Awaited<ReturnType<typeof startServe>>;

  beforeAll(async () => {
    const home = tempDir('mooring-interactions-');
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({
        // trust-all: the triggers are not read-only, and this test is about their requests, not approvals.
        servers: [{ name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'], policy: 'trust-all' }],
      }),
    );
    serve = await startServe(home, 'no-app-client', 120);
  }, 90_000);
  afterAll(() => serve?.client.close());

  it('an elicitation is answered "decline", and serve says why', async () => {
    const r = await serve.client.callTool({
      name: 'mcp__everything__trigger-elicitation-request',
      arguments: {},
    });
    expect(text(r)).toMatch(/User declined to provide the requested information/);
    expect(serve.stderr()).toMatch(
      /no Mooring app is running for this home, so nobody can answer the elicitation-form request from "everything"; it was declined/,
    );
  });

  it('a sampling request is refused with the reason and what to do', async () => {
    const r = await serve.client.callTool({
      name: 'mcp__everything__trigger-sampling-request',
      arguments: { prompt: 'Write a haiku', maxTokens: 50 },
    });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(
      /Mooring declined the sampling request from "everything": no Mooring app is running for this home, so nobody can approve it/,
    );
    expect(serve.stderr()).toMatch(
      /nobody can answer the sampling request from "everything"; it was declined/,
    );
  });
});
