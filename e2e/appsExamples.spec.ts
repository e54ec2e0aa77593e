// The extension's own example MCP Apps, from npm, with default settings (docs/mcp-apps.md, "MCP Apps"):
// system-monitor, budget-allocator, basic-react and pdf, each started once with `--stdio` from node_modules,
// in one `mooring web` child with a scripted OpenAI-format model. Each works in a chat and in the
// Playground: live numbers (the app-only poll asked about once per view), a slider that moves a total, the
// server's time, a local PDF's first page painted. A view is as tall as its content (no 60 px frame with a
// scrollbar inside), also after fullscreen and back; a closed view stays closed when its card mounts again
// and polls no more.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Frame, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { expectAccessible } from './a11y';
import { SHOTS as HARNESS_SHOTS, chatHome, closeChatApp, startWebWithOpenAI } from './chatHarness';
import { ROOT, type RunningWeb } from './harness';
import { onePagePdf } from './onePagePdf';

test.describe.configure({ mode: 'serial' });

const example = (name: string) =>
  join(ROOT, `node_modules/@modelcontextprotocol/server-${name}/dist/index.js`);
/** Screenshots at both sizes: test-results/screenshots, or the folder MOORING_SHOTS names. */
const SHOTS = process.env.MOORING_SHOTS ?? HARNESS_SHOTS;
/** axe checks Mooring's screen around the views; each view's page inside its frame is the server's own. */
const VIEW_PAGES = ['[data-testid="app-view-frame"]'];

let web: RunningWeb;
let page: Page;
let model: FakeProviderServer;
let home: string;
let pdfPath: string;
const pageErrors: string[] = [];

test.beforeAll(async ({ browser }) => {
  const dirs = chatHome('apps-examples', ({ root }) => [
    { name: 'monitor', command: 'node', args: [example('system-monitor'), '--stdio'] },
    { name: 'budget', command: 'node', args: [example('budget-allocator'), '--stdio'] },
    { name: 'clock', command: 'node', args: [example('basic-react'), '--stdio'] },
    { name: 'pdf', command: 'node', args: [example('pdf'), '--stdio', join(root, 'page.pdf')] },
  ]);
  home = dirs.home;
  pdfPath = join(dirs.root, 'page.pdf');
  writeFileSync(pdfPath, onePagePdf('Mooring test page'));
  model = await startOpenAIServer([
    { toolCalls: [{ name: 'mcp__monitor__get-system-info', arguments: {} }] },
    { text: 'The monitor is on screen.' },
    { text: 'Closed, fine.' },
    { toolCalls: [{ name: 'mcp__budget__get-budget-data', arguments: {} }] },
    { text: 'The budget is on screen.' },
    { toolCalls: [{ name: 'mcp__clock__get-time', arguments: {} }] },
    { text: 'The time is on screen.' },
    { toolCalls: [{ name: 'mcp__pdf__display_pdf', arguments: { url: pdfPath } }] },
    { text: 'The PDF is on screen.' },
  ]);
  // Default settings: only the scripted model is set (settings.json), nothing about tools or limits.
  web = await startWebWithOpenAI(home, model.url);
  // A context of its own: axe (e2e/a11y.ts) needs one.
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);
  for (const name of ['monitor', 'budget', 'clock', 'pdf'])
    await expect(page.getByTestId(`server-${name}`).getByTestId('server-state')).toHaveText('ready');
});

test.afterAll(() => closeChatApp({ page, model, web, pageErrors }));

/** A fresh conversation with `text` sent; the model's call of an unannotated tool is allowed once. */
async function askInChat(text: string, answer: string): Promise<void> {
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByLabel('Model (provider:model)').fill('openai:gpt-4o');
  await page.getByLabel('Message').fill(text);
  await page.getByLabel('Message').press('Enter');
  await allowOnce('asked by the conversation');
  await expect(page.getByTestId('msg-assistant').last()).toContainText(answer);
}

/** Answers the approval dialog now showing (it names who asked) with Allow once. */
async function allowOnce(askedBy: string): Promise<void> {
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toContainText(askedBy);
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(dialog).toBeHidden();
}

/**
 * A view's own frame (the inner one, inside the sandbox page), and its frame's height on the page: the
 * chat's newest view is its last, the Playground's its first (newest on top).
 */
async function lastView(
  which: 'first' | 'last' = 'last',
): Promise<{ inner: Frame; frameHeight: () => Promise<number> }> {
  const frame = page.getByTestId('app-view-frame')[which]();
  await frame.scrollIntoViewIfNeeded();
  const proxy = await (await frame.elementHandle())!.contentFrame();
  await expect.poll(() => proxy!.childFrames().length).toBeGreaterThan(0);
  return {
    inner: proxy!.childFrames()[0]!,
    frameHeight: async () => (await frame.boundingBox())!.height,
  };
}

/** The height the view's document asks for (what the extension's App measures: its max-content height). */
const contentHeight = (inner: Frame) =>
  inner.evaluate(() => {
    const html = document.documentElement;
    const was = html.style.height;
    html.style.height = 'max-content';
    const h = Math.ceil(html.getBoundingClientRect().height);
    html.style.height = was;
    return h;
  });

/**
 * The frame fits the view: taller than the collapsed 60 px, and no scrollbar inside. An app that sizes
 * itself by hand may ask for a little more or less than its document measures: pdf's viewer adds its own
 * 10 px and refits its page only when its width grows, so a chat pane whose scrollbar came and went while
 * it drew leaves its page's height at the other width's scale (17 px off, once, on a loaded machine).
 */
async function expectSizedToContent(name: string): Promise<number> {
  const { inner, frameHeight } = await lastView();
  const slack = name.startsWith('pdf') ? 32 : 10;
  await expect
    .poll(async () => Math.abs((await frameHeight()) - (await contentHeight(inner))), name)
    .toBeLessThan(slack);
  const h = await frameHeight();
  expect(h, name).toBeGreaterThan(120);
  return h;
}

/**
 * The view keeps fitting its content when the window narrows and widens again, and when the chat is left
 * for another screen and shown again.
 */
async function expectStaysSized(name: string): Promise<void> {
  await page.setViewportSize({ width: 900, height: 700 });
  await expectSizedToContent(`${name} at 900×700`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await expectSizedToContent(`${name} at 1280×800 again`);
  await page.getByRole('button', { name: 'Servers', exact: true }).click();
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await expectSizedToContent(`${name} after another screen`);
}

/** Both sizes the lead looks at, light. */
async function shots(name: string): Promise<void> {
  await page.getByTestId('app-view').last().scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, `${name}-1280x800.png`) });
  await page.setViewportSize({ width: 900, height: 700 });
  await page.getByTestId('app-view').last().scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, `${name}-900x700.png`) });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Lines of the audit log naming `tool` (every call, allowed or not, is audited before it is sent). */
const audited = (tool: string) =>
  readFileSync(join(home, 'logs', 'audit.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.includes(`"${tool}"`)).length;

test('system-monitor: live numbers after one question for its poll; a closed view stays closed and polls no more', async () => {
  await askInChat('Show the system monitor', 'The monitor is on screen.');
  const { inner } = await lastView();
  // The view polls its app-only tool: asked once for this view, labelled as the app's.
  await allowOnce('asked by the monitor app');
  const status = inner.locator('#status-text');
  await expect(status).toHaveText(/\d{1,2}:\d{2}:\d{2}/);
  const first = await status.textContent();
  await expect(status).not.toHaveText(first!);
  const second = await status.textContent();
  await expect(status).not.toHaveText(second!);
  await expect(inner.locator('#memory-percent')).toHaveText(/\d+%/);
  await expect(page.getByTestId('approval-dialog')).toBeHidden();
  await expectSizedToContent('system-monitor');
  await expectStaysSized('system-monitor');
  await shots('system-monitor');

  // Closed, the view goes; shown again by another screen and back, it stays closed and polls no more.
  await page.getByTestId('app-view-close').last().click();
  await expect(page.getByTestId('app-view-reopen')).toBeVisible();
  const polls = audited('poll-system-stats');
  await page.getByRole('button', { name: 'Servers', exact: true }).click();
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await expect(page.getByTestId('app-view-reopen')).toBeVisible();
  await expect(page.getByTestId('app-view')).toHaveCount(0);
  // A turn of the model (its round trip outlasts the view's 2 s poll interval) and no poll arrived.
  await page.getByLabel('Message').fill('I closed it');
  await page.getByLabel('Message').press('Enter');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Closed, fine.');
  expect(audited('poll-system-stats')).toBe(polls);
});

test('budget-allocator: a slider moves its share and the total allocated', async () => {
  await askInChat('Show the budget', 'The budget is on screen.');
  const { inner } = await lastView();
  const slider = inner.locator('input[type="range"]').first();
  await expect(slider).toBeVisible();
  const row = inner.locator('.slider-row').first();
  const total = inner.locator('#status-bar');
  await expect(total).toContainText('$100,000');
  const [rowBefore, totalBefore] = [await row.textContent(), await total.textContent()];
  await slider.focus();
  for (let i = 0; i < 5; i++) await slider.press('ArrowRight');
  // The category's share moved, and the total allocated with it: now over the budget.
  await expect(row).not.toHaveText(rowBefore!);
  await expect(total).not.toHaveText(totalBefore!);
  await expect(total).toContainText('Over');
  await expectSizedToContent('budget-allocator');
  await expectStaysSized('budget-allocator');
  await shots('budget-allocator');
});

test("basic-react: the server's time", async () => {
  await askInChat('What time is it on the server?', 'The time is on screen.');
  const { inner } = await lastView();
  await expect(inner.getByText(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/)).toBeVisible();
  const height = await expectSizedToContent('basic-react');
  // Fullscreen and back: the frame is the view's height again, not collapsed.
  const view = page.getByTestId('app-view').last();
  await view.getByRole('button', { name: 'Fullscreen', exact: true }).click();
  await expect(view).toHaveAttribute('data-mode', 'fullscreen');
  await view.getByRole('button', { name: 'Exit fullscreen', exact: true }).click();
  await expect(view).toHaveAttribute('data-mode', 'inline');
  await expect.poll(async () => Math.abs((await (await lastView()).frameHeight()) - height)).toBeLessThan(10);
  await expectStaysSized('basic-react');
  await shots('basic-react');
});

test("pdf: a local PDF's first page is painted (PDF.js's worker starts under the view's CSP)", async () => {
  await askInChat('Show me the PDF', 'The PDF is on screen.');
  const { inner } = await lastView();
  // The viewer reads the file's bytes through its app-only tool: asked once for this view.
  await allowOnce('asked by the pdf app');
  const canvas = inner.locator('canvas').first();
  await expect(canvas).toBeVisible();
  // Pixels that are neither white nor transparent: the page's dark square was painted.
  await expect
    .poll(() =>
      canvas.evaluate((c: HTMLCanvasElement) => {
        const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let dark = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i + 3]! > 0 && data[i]! < 100) dark++;
        return dark;
      }),
    )
    .toBeGreaterThan(1000);
  await expectSizedToContent('pdf');
  await expectStaysSized('pdf');
  await shots('pdf');
  await expectAccessible(page, 'the pdf view in a chat, light', VIEW_PAGES);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(SHOTS, 'pdf-dark-1280x800.png') });
  await expectAccessible(page, 'the pdf view in a chat, dark', VIEW_PAGES);
  await page.emulateMedia({ colorScheme: 'light' });
});

test('the Playground shows each view of a tool it ran', async () => {
  await page.getByRole('button', { name: 'Playground', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Playground', exact: true })).toBeVisible();
  // The Playground's own views: the chat's may still be on the page for a moment after the switch. Hidden
  // ones count too: a view that asks for its own tool at once opens the approval dialog, which hides the
  // page behind it from the accessibility tree before the count is taken.
  const frames = page
    .getByRole('region', { name: 'Tool calls', includeHidden: true })
    .getByTestId('app-view-frame');
  const run = async (label: string, args = '{}') => {
    // The run's card (and its view) comes once the call is allowed: wait for it, then take the newest.
    const views = await frames.count();
    await page.getByLabel('Tool', { exact: true }).selectOption({ label });
    await page.getByLabel('Arguments', { exact: true }).fill(args);
    await page.getByRole('button', { name: 'Run' }).click();
    await allowOnce(label);
    await expect(frames).toHaveCount(views + 1);
    return (await lastView('first')).inner;
  };
  const clock = await run('clock / get-time');
  await expect(clock.getByText(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/)).toBeVisible();
  const budget = await run('budget / get-budget-data');
  await expect(budget.locator('input[type="range"]').first()).toBeVisible();
  const pdf = await run('pdf / display_pdf', JSON.stringify({ url: pdfPath }));
  await allowOnce('asked by the pdf app');
  await expect(pdf.locator('canvas').first()).toBeVisible();
  const monitor = await run('monitor / get-system-info');
  await allowOnce('asked by the monitor app');
  const status = monitor.locator('#status-text');
  await expect(status).toHaveText(/\d{1,2}:\d{2}:\d{2}/);
  await expect(status).not.toHaveText((await status.textContent())!);
  // One card per run; the views' own polls are not cards.
  const cards = page.getByRole('region', { name: 'Tool calls' }).getByTestId('call-card');
  await expect(cards.filter({ hasText: 'poll-system-stats' })).toHaveCount(0);
  await expect(cards.filter({ hasText: 'read_pdf_bytes' })).toHaveCount(0);
  await page.screenshot({ path: join(SHOTS, 'playground-1280x800.png') });
  await expectAccessible(page, 'the Playground with the example views, light', VIEW_PAGES);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectAccessible(page, 'the Playground with the example views, dark', VIEW_PAGES);
  await page.emulateMedia({ colorScheme: 'light' });
});
