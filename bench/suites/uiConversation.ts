// A long conversation in the chat (README, "Performance"): 300 turns, each a question, a tool call with its
// card (echo, done) and a short Markdown answer, written as the conversation store writes them. Measured
// in the page (bench/lib/uiPage.ts): from the click on the conversation to its last answer shown, then a
// scroll from top to bottom a screenful a frame: frames over 50 ms and the longest task.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { epochNow } from '../../test/fixtures/providers/pacedOpenAI';
import { mooringBin } from '../lib/compiled';
import type { SuiteContext, SuiteResult } from '../lib/report';
import { summarize } from '../lib/stats';
import { figuresBetween, launchChromium, openApp, watchFor } from '../lib/uiPage';

const TURNS = { full: 300, quick: 60 };

/** `turns` turns of question, echo call, result and answer, as conversations/<id>.jsonl. */
export function writeLongConversation(home: string, id: string, turns: number): string {
  const dir = join(home, 'conversations');
  mkdirSync(dir, { recursive: true });
  const t0 = Date.now() - turns * 4000;
  const line = (message: object) => JSON.stringify({ kind: 'message', message });
  const lines = [
    JSON.stringify({ kind: 'meta', id, title: 'A long conversation', createdAt: t0, workspace: null }),
  ];
  for (let i = 0; i < turns; i++) {
    const at = t0 + i * 4000;
    const call = { id: `call_${i}`, name: 'mcp__everything__echo', arguments: { message: `note ${i}` } };
    lines.push(
      line({
        id: `u${i}`,
        at,
        role: 'user',
        content: [{ type: 'text', text: `Question number ${i}: echo a note` }],
      }),
      line({
        id: `a${i}`,
        at: at + 1,
        role: 'assistant',
        text: '',
        toolCalls: [call],
        model: 'openai:gpt-4o',
      }),
      line({
        id: `t${i}`,
        at: at + 2,
        role: 'tool',
        toolCallId: call.id,
        name: call.name,
        status: 'done',
        text: `Echo: note ${i}`,
        target: { server: 'everything', tool: 'echo', friendlyName: 'echo' },
      }),
      line({
        id: `b${i}`,
        at: at + 3,
        role: 'assistant',
        text: `Answer number ${i}: the tool said **note ${i}**.\n\n- it ran once\n- it took \`echo\`\n\nTotal: $${i}^2 = ${i * i}$.`,
        toolCalls: [],
        model: 'openai:gpt-4o',
      }),
    );
  }
  writeFileSync(join(dir, `${id}.jsonl`), lines.join('\n') + '\n');
  return `Answer number ${turns - 1}:`;
}

interface PageWindowScroll {
  document: {
    querySelector(s: string): { scrollTop: number; scrollHeight: number; clientHeight: number } | null;
  };
  requestAnimationFrame(cb: () => void): number;
}

export async function uiConversationSuite(ctx: SuiteContext): Promise<SuiteResult> {
  await mooringBin();
  const turns = ctx.quick ? TURNS.quick : TURNS.full;
  const rounds = ctx.quick ? 1 : 3;
  const home = mkdtempSync(join(tmpdir(), 'mooring-bench-conversation-'));
  writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers: [] }));
  const lastMark = writeLongConversation(home, 'long-conversation', turns);
  const browser = await launchChromium();
  const openMs: number[] = [];
  const openTask: number[] = [];
  const scrollOver50: number[] = [];
  const scrollTask: number[] = [];
  try {
    for (let r = 0; r < rounds; r++) {
      const app = await openApp(browser, home);
      try {
        const { page } = app;
        await page.getByRole('button', { name: 'Chat', exact: true }).click();
        await page.getByLabel('Message').waitFor();
        const shown = watchFor(page, '[data-testid="msg-assistant"]', lastMark);
        const clickAt = epochNow();
        await page.getByTestId('conversation').first().getByRole('button').first().click();
        const shownAt = await shown;
        openMs.push(shownAt - clickAt);
        openTask.push((await figuresBetween(page, clickAt, shownAt)).longestTaskMs);
        // Top first (Virtuoso renders what it reaches), then down a screenful a frame.
        await page.evaluate(async () => {
          const w = globalThis as unknown as PageWindowScroll;
          const frame = () => new Promise<void>((res) => w.requestAnimationFrame(() => res()));
          const list = w.document.querySelector('.chat-messages [data-virtuoso-scroller], .chat-messages')!;
          for (let i = 0; i < 20 && list.scrollTop > 0; i++) {
            list.scrollTop = 0;
            await frame();
          }
        });
        const scrollFrom = epochNow();
        await page.evaluate(async () => {
          const w = globalThis as unknown as PageWindowScroll;
          const frame = () => new Promise<void>((res) => w.requestAnimationFrame(() => res()));
          const list = w.document.querySelector('.chat-messages [data-virtuoso-scroller], .chat-messages')!;
          for (let guard = 0; guard < 5000; guard++) {
            if (list.scrollTop + list.clientHeight >= list.scrollHeight - 2) break;
            list.scrollTop += list.clientHeight;
            await frame();
          }
        });
        const f = await figuresBetween(page, scrollFrom, epochNow());
        scrollOver50.push(f.framesOver50);
        scrollTask.push(f.longestTaskMs);
        ctx.log(
          `conversation round ${r + 1}/${rounds}: open ${Math.round(shownAt - clickAt)} ms, scroll ${f.framesOver50} frames over 50 ms`,
        );
      } finally {
        await app.close();
      }
    }
  } finally {
    await browser.close();
    rmSync(home, { recursive: true, force: true });
  }
  const open = summarize(openMs);
  const suite = `conversation, ${turns} turns with tool cards`;
  const worst = Math.max(...scrollOver50);
  return {
    rows: [
      {
        suite,
        metric: 'click → last answer shown (p50)',
        value: Math.round(open.p50),
        unit: 'ms',
        baselineName: 'target',
        baseline: 1000,
        ratio: Math.round((open.p50 / 1000) * 100) / 100,
        target: '≤ 1000 ms',
        met: open.p50 <= 1000,
      },
      {
        suite,
        metric: 'longest task while it opens (p50)',
        value: Math.round(summarize(openTask).p50),
        unit: 'ms',
        baselineName: 'frame',
        baseline: 50,
        ratio: Math.round((summarize(openTask).p50 / 50) * 100) / 100,
      },
      {
        suite,
        metric: 'scroll top to bottom: frames over 50 ms (worst round)',
        value: worst,
        unit: 'frames',
        baselineName: 'target',
        baseline: 0,
        ratio: Number.NaN,
        target: '0',
        met: worst === 0,
      },
      {
        suite,
        metric: 'scroll top to bottom: longest task (worst round)',
        value: Math.max(...scrollTask),
        unit: 'ms',
        baselineName: 'frame',
        baseline: 50,
        ratio: Math.round((Math.max(...scrollTask) / 50) * 100) / 100,
      },
    ],
    raw: { turns, rounds, openMs, openTask, scrollOver50, scrollTask },
  };
}
