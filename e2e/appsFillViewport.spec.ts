// A view laid out to fill its viewport (html and body `height: 100%`) that draws its content a moment after
// its tool result, sized by ext-apps' own auto-resize (test/fixtures/servers/fillViewportApp.ts). The App
// measures the empty page first and reports 0, and the rows drawn later change no box it observes, so it
// never reports again (docs/mcp-apps.md, "Sizing"). The frame keeps its starting height for a report of 0
// (it collapsed to the 60 px floor before); growing to what the view drew is not done yet (fixme below).
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { appViewFrame, chatHome, closeChatApp, shot, startWebWithOpenAI } from './chatHarness';
import { ROOT, type RunningWeb } from './harness';

let web: RunningWeb | undefined;
let model: FakeProviderServer | undefined;
let page: Page | undefined;
const pageErrors: string[] = [];

test.afterEach(() => closeChatApp({ page, model, web, pageErrors }));

/** The rows view of one chat answer, drawn; its frame and the height of what it drew. */
async function openRowsView(browser: Browser) {
  const { home } = chatHome('fill-viewport', () => [
    {
      name: 'rows',
      command: 'node',
      args: [join(ROOT, 'test/fixtures/runTs.mjs'), join(ROOT, 'test/fixtures/servers/fillViewportApp.ts')],
    },
  ]);
  model = await startOpenAIServer([
    { toolCalls: [{ name: 'mcp__rows__show_rows', arguments: {} }] },
    { text: 'The rows are on screen.' },
  ]);
  web = await startWebWithOpenAI(home, model.url);
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);
  await expect(page.getByTestId('server-rows').getByTestId('server-state')).toHaveText('ready');
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByLabel('Model (provider:model)').fill('openai:gpt-4o');
  await page.getByLabel('Message').fill('Show the rows');
  await page.getByLabel('Message').press('Enter');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('The rows are on screen.');

  const view = await appViewFrame(page);
  await expect(view.getByTestId('rows')).toHaveAttribute('data-drawn', 'yes');
  // What the view drew, whole: its rows' box, not its document (which is as tall as the frame).
  const drawn = await view.getByTestId('rows').evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
  return { view, drawn, frame: page.getByTestId('app-view-frame').last() };
}

test('a view that fills its viewport and reports its empty page keeps the starting height, its rows scrolling', async ({
  browser,
}) => {
  const { view, frame } = await openRowsView(browser);
  // The App reported 0 for its empty page once connected, before the rows; the frame stays as it started
  // (160 px), and what does not fit scrolls inside it. It collapsed to the 60 px floor before.
  await expect.poll(async () => (await frame.boundingBox())!.height).toBeGreaterThanOrEqual(160);
  await view.getByText('Row 20').scrollIntoViewIfNeeded();
  await expect(view.getByText('Row 20')).toBeInViewport();
  await shot(page!, 'app-fill-viewport');
});

test.fixme('a view that fills its viewport and draws after its result is as tall as what it drew', async ({
  browser,
}) => {
  const { drawn, frame } = await openRowsView(browser);
  await expect.poll(async () => (await frame.boundingBox())!.height).toBeGreaterThanOrEqual(drawn);
});
