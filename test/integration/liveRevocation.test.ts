// A revoked "always allow" stops working in every process at once (ARCHITECTURE.md, "Data on disk":
// approvals.json is checked with one stat before each lookup). Real processes on one MOORING_HOME:
// `mooring web` (the app, driven through its router as the Permissions screen is) and `mooring serve
// --stdio` (launched by the SDK's own client). The serving process remembers "always" for write_file,
// then the app revokes it: serve's very next call of write_file asks the app again.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appApproval, text, webAndServe, type startServe, type Web } from './relayHelpers';

describe('a revoke in the app reaches a running mooring serve at its next call (real processes)', () => {
  let fsRoot: string;
  let web: Web;
  let serve: Awaited<ReturnType<typeof startServe>>;
  let close = async () => {};

  beforeAll(async () => {
    ({ fsRoot, web, serve, close } = await webAndServe({
      prefix: 'revoke',
      client: 'revoke-client',
      approvalTimeoutSeconds: 30,
    }));
  }, 90_000);

  afterAll(() => close());

  const write = (file: string, content: string) =>
    serve.client.callTool({
      name: 'mcp__files__write_file',
      arguments: { path: join(fsRoot, file), content },
    });

  it('always-allow works, then after the revoke the same tool asks again', async () => {
    // 1. The first call asks; the app answers "always" (remembered by the serving process's gate).
    const first = write('one.txt', 'first');
    const asked = await appApproval(web, 'write_file', 'revoke-client');
    await web.trpc.approvals.answer.mutate({ id: asked.id, outcome: 'always' });
    expect((await first).isError, text(await first)).toBeFalsy();
    expect((await web.trpc.permissions.list.query()).tools).toMatchObject([
      { server: 'files', tool: 'write_file' },
    ]);

    // 2. Remembered: the next call runs without asking (its call plan now holds an "auto" verdict).
    const second = await write('two.txt', 'second');
    expect(second.isError, text(second)).toBeFalsy();
    expect(readFileSync(join(fsRoot, 'two.txt'), 'utf8')).toBe('second');
    expect(await web.trpc.approvals.pending.query()).toEqual([]);

    // 3. The Permissions screen takes it back, in the app's process.
    expect(
      await web.trpc.permissions.revoke.mutate({ kind: 'tool', server: 'files', tool: 'write_file' }),
    ).toEqual({ revoked: 1 });

    // 4. serve has written nothing since: its very next call of the tool asks the app again.
    const third = write('three.txt', 'third');
    const again = await appApproval(web, 'write_file', 'revoke-client');
    await web.trpc.approvals.answer.mutate({ id: again.id, outcome: 'deny' });
    const denied = await third;
    expect(denied.isError).toBe(true);
    expect(existsSync(join(fsRoot, 'three.txt'))).toBe(false);
  });
});
