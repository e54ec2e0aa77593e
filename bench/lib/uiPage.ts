// The UI suites' browser (README, "Performance"): Debian's Chromium through playwright-core against a real
// `mooring web` child, as the e2e tests run it, and what a page records while it is measured: every
// animation frame, every long task (over 50 ms), every slow input event (Event Timing), and, when asked, the
// chat's streamed text appended to a `<pre>` straight from the page's one event stream (the floor a
// streaming view is compared with: a page of the same origin and stream without the app, openPreFloor). Times cross to Node as epoch milliseconds.
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/chromium';
import { startMooringWeb, type RunningWeb } from '../../e2e/harness';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // Playwright gives the browser a fresh profile of its own.
    args: CHROMIUM_ARGS,
  });
}

/** What the page holds after `instrument` (window.__bench). */
interface BenchProbe {
  frames: number[];
  longTasks: { start: number; duration: number }[];
  inputs: { name: string; start: number; duration: number }[];
  /** Resolves (epoch ms) in the first animation frame in which `selector`'s last match holds `mark`. */
  watch(selector: string, mark: string): Promise<number>;
  /** When each watch given to `instrument` was first seen (epoch ms), by key: set from the page's start. */
  seen: Record<string, number>;
}

/** A watch set up before the page's own scripts run (for what shows at start). */
export interface EarlyWatch {
  key: string;
  selector: string;
  mark: string;
}

/**
 * The little of the DOM the page functions below use. The bench is checked as Node code (tsconfig.node.json:
 * no DOM types), so each function that runs in the page reads `globalThis` through this (the cast is erased
 * when Playwright serialises the function).
 */
interface PageNode {
  id: string;
  textContent: string | null;
  style: { cssText: string };
  append(...nodes: (string | PageNode)[]): void;
  remove(): void;
}
interface PageWindow {
  __bench: BenchProbe;
  document: {
    body: PageNode;
    querySelectorAll(selector: string): ArrayLike<PageNode>;
    createElement(tag: string): PageNode;
  };
  requestAnimationFrame(cb: (t: number) => void): number;
  PerformanceObserver: new (
    cb: (list: { getEntries(): { name: string; startTime: number; duration: number }[] }) => void,
  ) => { observe(opts: object): void };
  EventSource: new (
    url: string | URL,
    init?: object,
  ) => { addEventListener(type: string, f: (ev: { data: string }) => void): void };
}

/** Runs in the page before its own scripts (addInitScript): the probe above. */
function probe(early: EarlyWatch[]) {
  const w = globalThis as unknown as PageWindow;
  const b: BenchProbe = {
    frames: [],
    longTasks: [],
    inputs: [],
    seen: {},
    watch: (selector, mark) =>
      new Promise((resolve) => {
        watchers.push({ selector, mark, resolve });
      }),
  };
  const watchers: { selector: string; mark: string; resolve: (at: number) => void }[] = [];
  w.__bench = b;
  for (const e of early)
    watchers.push({ selector: e.selector, mark: e.mark, resolve: (at) => (b.seen[e.key] = at) });
  new w.PerformanceObserver((l) =>
    l.getEntries().forEach((e) => b.longTasks.push({ start: e.startTime, duration: e.duration })),
  ).observe({ type: 'longtask', buffered: true });
  new w.PerformanceObserver((l) =>
    l.getEntries().forEach((e) => b.inputs.push({ name: e.name, start: e.startTime, duration: e.duration })),
  ).observe({ type: 'event', durationThreshold: 16, buffered: true });
  const frame = (t: number) => {
    b.frames.push(t);
    for (let i = watchers.length - 1; i >= 0; i--) {
      const watcher = watchers[i]!;
      const all = w.document.querySelectorAll(watcher.selector);
      if (all[all.length - 1]?.textContent?.includes(watcher.mark)) {
        watchers.splice(i, 1);
        watcher.resolve(performance.timeOrigin + performance.now());
      }
    }
    w.requestAnimationFrame(frame);
  };
  w.requestAnimationFrame(frame);
}

export async function instrument(page: Page, early: EarlyWatch[] = []): Promise<CDPSession> {
  // tsx (which runs the bench) names functions through an `__name` helper that the page lacks.
  await page.addInitScript({ content: 'globalThis.__name ??= (f) => f;' });
  await page.addInitScript(probe, early);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  return cdp;
}

/** Seconds of main-thread work the renderer did so far (Chromium's TaskDuration). */
export async function rendererTaskSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'TaskDuration')?.value ?? Number.NaN;
}

/**
 * The floor: a page of the app's origin (the same CSP, the same event stream) whose own scripts are not
 * loaded, with a `<pre>` that takes the chat's text deltas from its own subscription to the stream. Opens
 * `url` (the one-time token's, or the origin once the context holds the cookie); resolves once subscribed.
 */
export async function openPreFloor(page: Page, url: string): Promise<void> {
  await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
  await page.goto(url);
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const w = globalThis as unknown as PageWindow;
        const pre = w.document.createElement('pre');
        pre.id = 'bench-pre';
        pre.style.cssText = 'white-space:pre-wrap;margin:0';
        w.document.body.append(pre);
        const es = new w.EventSource('/trpc/events');
        es.addEventListener('open', () => resolve());
        es.addEventListener('error', () => reject(new Error('the event stream refused the floor page')));
        es.addEventListener('message', (ev) => {
          const msg = JSON.parse(ev.data) as { type?: string; event?: { type?: string; text?: string } };
          if (msg.type === 'chat' && msg.event?.type === 'text-delta') pre.append(msg.event.text ?? '');
        });
      }),
  );
}

export interface WindowFigures {
  /** Frames whose gap to the previous one exceeded 50 ms. */
  framesOver50: number;
  /** The longest gap between two frames. */
  longestFrameMs: number;
  longestTaskMs: number;
  /** The slowest key or click (Event Timing: from the input to the next paint after its handlers). */
  slowestInputMs: number;
}

/** What the page recorded between two epoch times. */
export async function figuresBetween(page: Page, fromEpoch: number, toEpoch: number): Promise<WindowFigures> {
  return page.evaluate(
    ({ fromEpoch, toEpoch }) => {
      const from = fromEpoch - performance.timeOrigin;
      const to = toEpoch - performance.timeOrigin;
      const b = (globalThis as unknown as PageWindow).__bench;
      const frames = b.frames.filter((t) => t >= from && t <= to + 100);
      let over = 0;
      let longest = 0;
      for (let i = 1; i < frames.length; i++) {
        const gap = frames[i]! - frames[i - 1]!;
        if (gap > 50) over++;
        longest = Math.max(longest, gap);
      }
      const tasks = b.longTasks.filter((t) => t.start + t.duration >= from && t.start <= to);
      const inputs = b.inputs.filter((t) => t.start >= from && t.start <= to);
      return {
        framesOver50: over,
        longestFrameMs: Math.round(longest),
        longestTaskMs: Math.round(Math.max(0, ...tasks.map((t) => t.duration))),
        slowestInputMs: Math.round(Math.max(0, ...inputs.map((t) => t.duration))),
      };
    },
    { fromEpoch, toEpoch },
  );
}

/** When the early watch `key` (given to `instrument`) was first seen, epoch ms; waits for it. */
export async function firstSeen(page: Page, key: string, timeout = 60_000): Promise<number> {
  const handle = await page.waitForFunction(
    (k) => (globalThis as unknown as PageWindow).__bench?.seen[k],
    key,
    { timeout },
  );
  return (await handle.jsonValue()) as number;
}

/**
 * Resolves (epoch ms) with the first animation frame in which the last element matching `selector` holds
 * `mark`. Call it before the text can arrive: the watch is registered in the page when this is called.
 */
export function watchFor(page: Page, selector: string, mark: string): Promise<number> {
  return page.evaluate(
    ({ selector, mark }) => (globalThis as unknown as PageWindow).__bench.watch(selector, mark),
    { selector, mark },
  );
}

/** `mooring web` on `home` and a 1280×800 page on it, instrumented; `close` ends both. */
export async function openApp(
  browser: Browser,
  home: string,
  env: Record<string, string> = {},
): Promise<{ web: RunningWeb; page: Page; cdp: CDPSession; close: () => Promise<void> }> {
  const web = await startMooringWeb(home, { env });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const cdp = await instrument(page);
  await page.goto(web.url);
  return {
    web,
    page,
    cdp,
    close: async () => {
      await context.close();
      await web.stop();
    },
  };
}
