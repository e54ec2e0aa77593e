// "Off" hides a tool from models only (ARCHITECTURE.md, "The path of one tool call"): a call the person
// makes themselves — an MCP App view's button, the Playground — goes through the approval gate and asks,
// where it used to be refused as "listed in excludeTools"; the model is still never offered the tool.
// (`mooring mcp call … --yes` on such a tool: test/integration/cliHints.test.ts.)
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { appViewFrame, chatHome, closeChatApp, shot, startWebWithOpenAI } from './chatHarness';
import { APPS_SERVER, type RunningWeb } from './harness';
import { runTool } from './uiFlows';

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let page: Page;
let model: FakeProviderServer;
const pageErrors: string[] = [];

test.beforeAll(async ({ browser }) => {
  const { home } = chatHome('off-for-models', () => [{ ...APPS_SERVER, excludeTools: ['reset_counter'] }]);
  model = await startOpenAIServer([
    { text: 'Here is a counter.', toolCalls: [{ name: 'mcp__apps__show_counter', arguments: { start: 3 } }] },
    { text: 'The counter is on screen.' },
  ]);
  web = await startWebWithOpenAI(home, model.url);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);
  await expect(page.getByTestId('server-apps').getByTestId('server-state')).toHaveText('ready');
});

test.afterAll(() => closeChatApp({ page, model, web, pageErrors }));

const viewFrame = () => appViewFrame(page);

test("a view's destructive button on a tool that is off asks the person, and runs when allowed", async () => {
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByLabel('Model (provider:model)').fill('openai:gpt-4o');
  await page.getByLabel('Message').fill('Show me a counter');
  await page.getByLabel('Message').press('Enter');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('The counter is on screen.');
  // The model was never offered the tool that is off.
  for (const r of model.requests.filter((q) => q.method === 'POST'))
    expect(JSON.stringify(r.body.tools ?? [])).not.toContain('reset_counter');

  const inner = await viewFrame();
  await expect(inner.getByTestId('count')).toHaveText('3');
  await inner.getByRole('button', { name: 'Reset (destructive)' }).click();
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('this call comes from you');
  await shot(page, 'off-for-models-01-view-asks');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(inner.getByTestId('status')).toHaveText('reset');
  await expect(inner.getByTestId('count')).toHaveText('0');
});

test('the Playground lists the tool as off for models, and a call of it asks', async () => {
  await runTool(page, 'apps / reset_counter (off for models)', {});
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('this call comes from you');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'done');
  await expect(page.getByTestId('call-card').first()).toContainText('Every counter was reset.');
  await shot(page, 'off-for-models-02-playground');
});
