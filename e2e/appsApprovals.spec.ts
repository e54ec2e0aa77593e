// A view's calls waiting for approval hold no connection (docs/mcp-apps.md, "MCP Apps", Act;
// src-main/core/apps/viewCallTickets.ts): a real `mooring web` child with the apps fixture's poller view
// (test/fixtures/servers/appsServer.ts), which sends eight calls at once of a tool with no annotations, so
// each asks. A browser has six HTTP/1.1 connections to the host: with more questions than that pending, the
// dialog's Allow and Escape still reach the host, the view hears each answer, and a reload still loads.
// A view's calls of its own tool for views only ask once per view, and the Playground keeps one card for
// the view, not one per call. A view's link questions hold no connection either.
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { appViewFrame, chatHome, closeChatApp, shot, startWebWithOpenAI } from './chatHarness';
import { APPS_SERVER, type RunningWeb } from './harness';

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let page: Page;
let model: FakeProviderServer;
const pageErrors: string[] = [];

test.beforeAll(async ({ browser }) => {
  const { home } = chatHome('apps-approvals', () => [APPS_SERVER]);
  model = await startOpenAIServer([
    { toolCalls: [{ name: 'mcp__apps__show_poller', arguments: {} }] },
    { text: 'The poller is on screen.' },
    { toolCalls: [{ name: 'mcp__apps__show_poller', arguments: {} }] },
    { text: 'The poller is on screen.' },
  ]);
  web = await startWebWithOpenAI(home, model.url);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);
  await expect(page.getByTestId('server-apps').getByTestId('server-state')).toHaveText('ready');
});

test.afterAll(() => closeChatApp({ page, model, web, pageErrors }));

/** A new conversation whose model shows the poller view; its own frame. */
async function showPoller() {
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByLabel('Model (provider:model)').fill('openai:gpt-4o');
  await page.getByLabel('Message').fill('Show me the load');
  await page.getByLabel('Message').press('Enter');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('The poller is on screen.');
  return appViewFrame(page);
}

test('eight questions from a polling view leave Allow, Escape and reload working', async () => {
  const inner = await showPoller();
  await inner.getByRole('button', { name: 'Poll eight times' }).click();

  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toContainText('7 more waiting');
  // A view asked: the denial goes to the view, not to the model.
  await expect(dialog).toContainText('Refuse this call; the app’s view gets an error saying you refused.');
  await shot(page, 'apps-eight-pending');
  // Eight calls wait, more than the browser's six connections: the answer still gets through.
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(inner.getByTestId('answered')).toHaveText('1');
  await expect(inner.getByTestId('last')).toContainText('ok: load sample');
  await expect(dialog).toContainText('6 more waiting');
  await page.keyboard.press('Escape');
  await expect(inner.getByTestId('answered')).toHaveText('2');
  await expect(inner.getByTestId('last')).toContainText('refused');
  await expect(dialog).toContainText('5 more waiting');

  await page.reload();
  await expect(page.getByTestId('approval-dialog')).toContainText('5 more waiting');
  // The six left, each denied with Escape: the count falls by one each time, then the dialog closes.
  for (let more = 4; more >= 0; more--) {
    await expect(page.getByTestId('approval-deny')).toBeFocused();
    await page.keyboard.press('Escape');
    if (more > 0) await expect(page.getByTestId('approval-dialog')).toContainText(`${more} more waiting`);
    else await expect(page.getByTestId('approval-dialog')).not.toContainText('more waiting');
  }
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('approval-dialog')).toBeHidden();
});

test("a view's tool for views only asks once per view, and the Playground keeps one card", async () => {
  await page.getByRole('button', { name: 'Playground', exact: true }).click();
  await page.getByLabel('Tool', { exact: true }).selectOption({ label: 'apps / show_poller' });
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByTestId('app-view')).toHaveCount(1);
  const inner = await appViewFrame(page);
  await inner.getByRole('button', { name: 'Poll for views only' }).click();
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toContainText('poll_stats');
  // Three calls, one question: the others wait for its answer.
  await expect(dialog).not.toContainText('more waiting');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(inner.getByTestId('answered')).toHaveText('3');
  await expect(inner.getByTestId('last')).toHaveText('ok: stats: 0.42');
  // Later polls of the same view run unasked.
  await inner.getByRole('button', { name: 'Poll for views only' }).click();
  await expect(inner.getByTestId('answered')).toHaveText('6');
  await expect(dialog).toBeHidden();
  // The run of show_poller has its card; the view's own calls are not cards of their own.
  const cards = page.getByRole('region', { name: 'Tool calls' }).getByTestId('call-card');
  await expect(cards.filter({ hasText: 'show_poller' }).first()).toBeVisible();
  await expect(cards.filter({ hasText: 'poll_stats' })).toHaveCount(0);
  await shot(page, 'apps-playground-one-card');
});

test('eight link questions from a view leave every answer working', async () => {
  const inner = await showPoller();
  await inner.getByRole('button', { name: 'Ask to open eight links' }).click();
  // Eight consents wait, more than the browser's six connections: each answer still gets through.
  const links = page.getByTestId('interaction-elicitation-url');
  await expect(links).toContainText('7 more waiting');
  for (let answered = 1; answered <= 8; answered++) {
    await links.getByRole('button', { name: 'Decline' }).click();
    await expect(inner.getByTestId('answered')).toHaveText(String(answered));
  }
  await expect(inner.getByTestId('last')).toHaveText('link not opened');
  await expect(links).toBeHidden();
});
