// Helpers of the chat e2e: the web child with extra environment (a provider key), and a long
// conversation file written the way the store writes one (append-only JSONL, meta line first).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMooringWeb, type RunningWeb } from './harness';

/** `mooring web` with `env` added; the test process's own environment is restored at once. */
export async function startWebWithEnv(home: string, env: Record<string, string>): Promise<RunningWeb> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    // spawn copies the environment synchronously, before the first await inside.
    return await startMooringWeb(home);
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

export function longConversation(home: string, id: string, pairs: number): void {
  const dir = join(home, 'conversations');
  mkdirSync(dir, { recursive: true });
  const t0 = Date.now() - pairs * 2000;
  const lines = [
    JSON.stringify({ kind: 'meta', id, title: 'A long conversation', createdAt: t0, workspace: null }),
  ];
  for (let i = 0; i < pairs; i++) {
    lines.push(
      JSON.stringify({
        kind: 'message',
        message: {
          id: `u${i}`,
          at: t0 + i * 2000,
          role: 'user',
          content: [{ type: 'text', text: `Question number ${i}` }],
        },
      }),
      JSON.stringify({
        kind: 'message',
        message: {
          id: `a${i}`,
          at: t0 + i * 2000 + 1,
          role: 'assistant',
          text: `Answer number ${i}`,
          toolCalls: [],
        },
      }),
    );
  }
  writeFileSync(join(dir, `${id}.jsonl`), lines.join('\n') + '\n');
}
