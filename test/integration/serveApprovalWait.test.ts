// An external client hears Mooring's answer before it gives up on a call that waits for approval
// (serve/approvalWait.ts): real processes, `mooring web` (the app) and two `mooring serve --stdio` on one
// MOORING_HOME, each launched by the SDK's own client. A client that asks for progress hears the wait and
// keeps waiting past its own timeout until the user approves in the app; a client that does not gets the
// refusal, with what to do, before the 60 s it waits by default — not "Request timed out".
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiEvent } from '../../shared/wire';
import { tempDir } from '../helpers/servers';
import { appApproval, fsHome, startServe, startWeb, text, type Web } from './relayHelpers';

interface ProgressSeen {
  progress: number;
  total?: number;
  message?: string;
}

describe('mooring serve --stdio answers before its client gives up (real processes)', () => {
  let fsRoot: string;
  let home: string;
  let web: Web;
  let patient: Awaited<ReturnType<typeof startServe>>;
  let plain: Awaited<ReturnType<typeof startServe>>;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    fsRoot = tempDir('mooring-wait-fs-');
    home = fsHome(fsRoot);
    web = await startWeb(home);
    children.push(web.child);
    // An 8 s approval wait: a waiting client hears progress every 2 s (a quarter of the wait).
    patient = await startServe(home, 'patient-client', 8);
    // Five minutes: only the under-60-s rule can end a progress-less wait within the test.
    plain = await startServe(home, 'plain-client', 300);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([patient?.client.close(), plain?.client.close()]);
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  });

  it('a client that asked for progress hears the wait and outlasts its own 4 s timeout', async () => {
    const target = join(fsRoot, 'patient.txt');
    const seen: ProgressSeen[] = [];
    let onProgress = () => {};
    const fourBeats = new Promise<void>((resolve) => (onProgress = () => seen.length >= 4 && resolve()));
    const call = patient.client.callTool(
      { name: 'mcp__files__write_file', arguments: { path: target, content: 'worth the wait' } },
      {
        timeout: 4_000,
        resetTimeoutOnProgress: true,
        onprogress: (p) => {
          seen.push(p);
          onProgress();
        },
      },
    );
    const req = await appApproval(web, 'write_file', 'patient-client');
    // Four notifications are six seconds of waiting: without them the client would have given up at 4 s.
    await fourBeats;
    await web.trpc.approvals.answer.mutate({ id: req.id, outcome: 'approve' });
    const r = await call;
    expect(r.isError, text(r)).toBeFalsy();
    expect(readFileSync(target, 'utf8')).toBe('worth the wait');
    expect(seen[0]!.message).toMatch(
      /^Waiting for the user to approve "mcp__files__write_file" in Mooring \(up to \d+ s more\)\.$/,
    );
    // Progress only ever increases (MCP spec, "Progress").
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
  });

  it('a client without progress gets the refusal and the hint before its 60 s timeout', async () => {
    const target = join(fsRoot, 'plain.txt');
    // The SDK's default request timeout (60 s) applies: a refusal after it would be "Request timed out".
    const r = await plain.client.callTool({
      name: 'mcp__files__write_file',
      arguments: { path: target, content: 'nobody approves' },
    });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(
      /Nobody approved "mcp__files__write_file" within 50 s, so Mooring refused the call before your MCP client gives up on it/,
    );
    expect(text(r)).toMatch(
      /a client that sends a progressToken with the call hears progress while it waits/,
    );
    expect(existsSync(target)).toBe(false);
    // The app's dialog drops it (the serving side's cancel travels on the relay socket).
    const fromPlain = (all: UiEvent[]) =>
      all.flatMap((e) => (e.type === 'approval' && e.request.client?.startsWith('plain-client') ? [e] : []));
    await web.events.until((all) => {
      const asked = fromPlain(all);
      const dropped = new Set(all.flatMap((e) => (e.type === 'approvalResolved' ? [e.id] : [])));
      return asked.length > 0 && asked.every((a) => dropped.has(a.request.id));
    }, "the app to drop the plain client's question");
    const left = (await web.trpc.approvals.pending.query()).filter((p) =>
      p.client?.startsWith('plain-client'),
    );
    expect(left).toEqual([]);
  });
});
