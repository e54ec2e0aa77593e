// Crash safety: kill -9 during a streaming turn, 20 times in a row; every conversation file
// loads and nothing earlier than the step in flight is lost. The child acknowledges each step only
// after the store appended and fsync'd it, so every acknowledged step must survive the kill.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startOpenAIServer } from '../../../test/fixtures/providers/openaiServer';
import type { FakeProviderServer, ScriptedReply } from '../../../test/fixtures/providers/scriptedServer';
import { ConversationStore } from './conversationStore';
import { RUN_TS } from '../../../test/helpers/servers';

const CHILD = fileURLToPath(new URL('../../../test/helpers/crashChild.ts', import.meta.url));
const RUNS = 20;

let home: string;
let server: FakeProviderServer;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'mooring-crash-'));
  // Far more replies than 20 killed turns can use: every reply asks for another tool call.
  const script: ScriptedReply[] = Array.from({ length: 2000 }, (_, i) => ({
    text: `Step ${i}: calling echo with a few words of streamed text.`,
    toolCalls: [{ name: 'echo', arguments: { n: i, pad: 'x'.repeat(200) } }],
  }));
  server = await startOpenAIServer(script);
});
afterAll(async () => {
  await server?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** Runs the child until it acknowledged `killAfter` steps (then SIGKILL), and returns the acks. */
function runAndKill(conversationId: string, killAfter: number, extraDelayMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [RUN_TS, CHILD, home, conversationId, `${server.url}/v1`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acks: string[] = [];
    let buffered = '';
    let stderr = '';
    let killing = false;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) if (line.startsWith('ACK ')) acks.push(line.slice(4));
      if (!killing && acks.length >= killAfter) {
        killing = true;
        // Land the kill somewhere inside the next step: streaming, running the tool, or writing.
        setTimeout(() => child.kill('SIGKILL'), extraDelayMs);
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`child exited ${code} before the kill: ${stderr}`));
      else resolve([...acks]);
    });
  });
}

it('keeps every acknowledged step across 20 kill -9s mid-turn', { timeout: 240_000 }, async () => {
  const store = ConversationStore.forHome(home);
  const { id } = await store.create({ title: 'crash test' });
  const acknowledged: string[] = [];
  for (let run = 0; run < RUNS; run++) {
    const acks = await runAndKill(id, 2 + (run % 5), (run * 7) % 23);
    acknowledged.push(...acks);
    // Every file in the folder loads, and the acknowledged steps are all there, in order.
    for (const c of await store.list()) await store.load(c.id);
    const loaded = await store.load(id);
    const ids = loaded.messages.map((m) => m.id);
    let from = 0;
    for (const ack of acknowledged) {
      const at = ids.indexOf(ack, from);
      expect(at, `step ${ack} acknowledged in run ${run} is missing`).toBeGreaterThanOrEqual(from);
      from = at + 1;
    }
    // At most the one step in flight is beyond the acks.
    expect(ids.length - acknowledged.length).toBeLessThanOrEqual(run + 1);
  }
  const final = await store.load(id);
  expect(final.summary.title).toBe('crash test');
  expect(final.messages.filter((m) => m.role === 'user')).toHaveLength(RUNS);
});
