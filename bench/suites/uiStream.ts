// A streamed answer in the chat (README, "Performance"): `mooring web` in Chromium, a scripted
// OpenAI-compatible model streaming a Markdown answer (tables, code in six languages, math, lists) in
// 4-character deltas at 300 a second (test/fixtures/providers/pacedOpenAI.ts), measured in the page
// (bench/lib/uiPage.ts): how long after the model wrote its last delta the page showed it, frames over
// 50 ms and the longest task while it streamed, the renderer's main-thread time, and the slowest key typed
// in the composer meanwhile. The floor is the same stream appended to a `<pre>` in a page of the same origin
// and CSP subscribed to the same event stream, without the app's scripts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startMooringWeb, type RunningWeb } from '../../e2e/harness';
import { END_MARK, markdownAnswer } from '../../test/fixtures/markdownAnswer';
import { startPacedOpenAIServer, type StreamTiming } from '../../test/fixtures/providers/pacedOpenAI';
import { mooringBin } from '../lib/compiled';
import type { Row, SuiteContext, SuiteResult } from '../lib/report';
import {
  figuresBetween,
  instrument,
  launchChromium,
  rendererTaskSeconds,
  openPreFloor,
  watchFor,
  type WindowFigures,
} from '../lib/uiPage';

const SIZES_KB = { full: [10, 40, 100], quick: [3] };
/** How long after the stream ended a page that has not shown the end is given up on. */
const GIVE_UP_S = { full: 60, quick: 30 };
const DELTA_CHARS = 4;
const DELTAS_PER_SECOND = 300;
const ANSWER = '[data-testid="msg-assistant"]';

interface StreamRun extends WindowFigures {
  /** From the model's last delta to the first frame showing it; NaN when given up on. */
  lagMs: number;
  /** Seconds of renderer main-thread work from the send to the end shown. */
  cpuS: number;
  /** Keys typed into the composer while it streamed, and whether they all arrived. */
  keys: number;
  keysArrived: boolean;
  timing: StreamTiming;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function deadline<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ms))),
  ]).finally(() => clearTimeout(timer));
}

async function measureRun(
  page: Page,
  cdp: Awaited<ReturnType<typeof instrument>>,
  o: {
    send: () => Promise<void>;
    selector: string;
    ended: Promise<StreamTiming>;
    giveUpS: number;
    type: boolean;
  },
): Promise<StreamRun> {
  const cpu0 = await rendererTaskSeconds(cdp);
  const shown = watchFor(page, o.selector, END_MARK);
  await o.send();
  let streaming = true;
  let keys = 0;
  // A person typing the next question while the answer streams: a key every 250 ms.
  const typing = (async () => {
    if (!o.type) return;
    // Once the question shows, so the composer was emptied after the send and holds only these keys.
    await page.getByTestId('msg-user').last().waitFor({ timeout: 0 });
    while (streaming) {
      await page.getByLabel('Message').press('k');
      keys++;
      await sleep(250);
    }
  })().catch(() => undefined); // a page given up on is closed under it
  const timing = await o.ended;
  const shownAt = await deadline(shown, o.giveUpS * 1000);
  streaming = false;
  await deadline(typing, o.giveUpS * 1000);
  const until = shownAt ?? timing.lastDeltaAt + o.giveUpS * 1000;
  const cpu1 = await deadline(rendererTaskSeconds(cdp), 5_000);
  const figures = await deadline(figuresBetween(page, timing.firstDeltaAt, until), 5_000);
  const typed = o.type
    ? await deadline(page.getByLabel('Message').inputValue({ timeout: 5_000 }), 6_000).catch(() => undefined)
    : '';
  return {
    lagMs: shownAt === undefined ? Number.NaN : Math.round(shownAt - timing.lastDeltaAt),
    cpuS: cpu1 === undefined || shownAt === undefined ? Number.NaN : Math.round((cpu1 - cpu0) * 100) / 100,
    keys,
    keysArrived: typed === 'k'.repeat(keys),
    timing,
    ...(figures ?? {
      framesOver50: Number.NaN,
      longestFrameMs: Number.NaN,
      longestTaskMs: Number.NaN,
      slowestInputMs: Number.NaN,
    }),
  };
}

async function streamOnce(
  browser: Browser,
  sizeKb: number,
  giveUpS: number,
  log: (t: string) => void,
): Promise<{ app: StreamRun; floor: StreamRun }> {
  const text = markdownAnswer(sizeKb * 1024);
  const pace = { deltaChars: DELTA_CHARS, deltasPerSecond: DELTAS_PER_SECOND };
  const model = await startPacedOpenAIServer([
    { text, ...pace },
    { text, ...pace },
  ]);
  const home = mkdtempSync(join(tmpdir(), 'mooring-bench-stream-'));
  writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers: [] }));
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({ providers: { default: 'openai', openai: { baseUrl: `${model.url}/v1` } } }),
  );
  let web: RunningWeb | undefined;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    web = await startMooringWeb(home, { env: { OPENAI_API_KEY: 'sk-bench' } });
    // The floor first, in a page of its own (the app's scripts not loaded), on the one-time token's URL.
    const floorPage = await context.newPage();
    const floorCdp = await instrument(floorPage);
    await openPreFloor(floorPage, web.url);
    const floor = await measureRun(floorPage, floorCdp, {
      selector: '#bench-pre',
      ended: model.streamEnded(),
      giveUpS,
      type: false,
      send: () =>
        floorPage.evaluate(async () => {
          const r = await fetch('/trpc/chat.send', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ text: 'Write the plan (floor).' }),
          });
          if (!r.ok) throw new Error(`chat.send answered ${r.status}`);
        }),
    });
    await floorPage.close();
    log(`${sizeKb} KB floor: lag ${floor.lagMs} ms`);
    const page = await context.newPage();
    const cdp = await instrument(page);
    await page.goto(new URL(web.url).origin);
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
    await page.getByLabel('Message').waitFor();
    const app = await measureRun(page, cdp, {
      selector: ANSWER,
      ended: model.streamEnded(),
      giveUpS,
      type: true,
      send: async () => {
        await page.getByLabel('Message').fill('Write the plan.');
        await page.getByLabel('Message').press('Enter');
      },
    });
    log(
      `${sizeKb} KB app: lag ${app.lagMs} ms, ${app.framesOver50} frames over 50 ms, longest task ${app.longestTaskMs} ms`,
    );
    return { app, floor };
  } finally {
    await context.close();
    await web?.stop();
    await model.close();
    rmSync(home, { recursive: true, force: true });
  }
}

export async function uiStreamSuite(ctx: SuiteContext): Promise<SuiteResult> {
  await mooringBin();
  const sizes = ctx.quick ? SIZES_KB.quick : SIZES_KB.full;
  const giveUpS = ctx.quick ? GIVE_UP_S.quick : GIVE_UP_S.full;
  const browser = await launchChromium();
  const runs: { kb: number; app: StreamRun; floor: StreamRun }[] = [];
  try {
    for (const kb of sizes) runs.push({ kb, ...(await streamOnce(browser, kb, giveUpS, ctx.log)) });
  } finally {
    await browser.close();
  }
  const rows: Row[] = [];
  const stuck = `not shown ${giveUpS} s after the stream ended (the page was stuck); the figure is that bound`;
  for (const { kb, app, floor } of runs) {
    const suite = `streamed answer, ${kb} KB`;
    const seconds = Math.round((app.timing.lastDeltaAt - app.timing.firstDeltaAt) / 100) / 10;
    const lag = Number.isNaN(app.lagMs) ? giveUpS * 1000 : app.lagMs;
    rows.push(
      {
        suite,
        metric: `last delta shown after (${app.timing.deltas} deltas in ${seconds} s)`,
        value: lag,
        unit: 'ms',
        baselineName: '<pre> append',
        baseline: floor.lagMs,
        ratio: Math.round((lag / Math.max(1, floor.lagMs)) * 100) / 100,
        target: '≤ 100 ms',
        met: !Number.isNaN(app.lagMs) && app.lagMs <= 100,
        ...(Number.isNaN(app.lagMs) ? { note: stuck } : {}),
      },
      {
        suite,
        metric: 'frames over 50 ms while streaming',
        value: app.framesOver50,
        unit: 'frames',
        baselineName: '<pre> append',
        baseline: floor.framesOver50,
        ratio: Number.NaN,
        target: '0',
        met: app.framesOver50 === 0,
      },
      {
        suite,
        metric: 'longest task while streaming',
        value: app.longestTaskMs,
        unit: 'ms',
        baselineName: '<pre> append',
        baseline: floor.longestTaskMs,
        ratio: Number.NaN,
      },
      {
        suite,
        metric: `slowest of ${app.keys} keys typed meanwhile (key to paint)${app.keysArrived ? '' : ', some lost'}`,
        value: app.slowestInputMs,
        unit: 'ms',
        baselineName: 'frame',
        baseline: 50,
        ratio: Math.round((app.slowestInputMs / 50) * 100) / 100,
        target: '≤ 50 ms',
        met: app.keys > 0 && app.keysArrived && app.slowestInputMs <= 50,
        ...(app.keys === 0
          ? {
              note: 'no key could be typed while it streamed: the page showed the question only after the answer',
            }
          : {}),
      },
      {
        suite,
        metric: 'renderer main-thread time per KB',
        value: Math.round((app.cpuS * 1000) / kb),
        unit: 'ms/KB',
        baselineName: '<pre> append',
        baseline: Math.round((floor.cpuS * 1000) / kb),
        ratio: Math.round((app.cpuS / Math.max(0.001, floor.cpuS)) * 100) / 100,
      },
    );
  }
  const at = (kb: number) => runs.find((r) => r.kb === kb)?.app;
  const mid = at(40);
  const big = at(100);
  if (mid && big && !Number.isNaN(mid.cpuS) && !Number.isNaN(big.cpuS)) {
    const r = Math.round((big.cpuS / 100 / (mid.cpuS / 40)) * 100) / 100;
    rows.push({
      suite: 'streamed answer',
      metric: 'renderer time per KB, 100 KB vs 40 KB',
      value: Math.round((big.cpuS * 1000) / 100),
      unit: 'ms/KB',
      baselineName: '40 KB',
      baseline: Math.round((mid.cpuS * 1000) / 40),
      ratio: r,
      target: '≤ 2.00× (linear)',
      met: r <= 2,
    });
  }
  return {
    rows,
    raw: {
      pace: `${DELTA_CHARS}-character deltas, ${DELTAS_PER_SECOND}/s`,
      runs: runs.map(({ kb, app, floor }) => ({ kb, app: { ...app }, floor: { ...floor } })),
    },
  };
}
