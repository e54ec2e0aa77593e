// A server that speaks only MCP 2026-07-28 in the app (docs/decisions/006-protocol-eras.md), in browser mode
// on Chromium: its row shows the revision and its icon (a checked data: URI), and when a tool answers
// `input_required` for a form, the person gets the same elicitation dialog a 2025 server's request opens;
// the answer goes back in the retried call. The server is the v2-SDK fixture test/fixtures/servers/eraServer.ts.
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { chatHome, closeChatApp, shot, startWebWithEnv } from './chatHarness';
import { ROOT, type RunningWeb } from './harness';

test.describe.configure({ mode: 'serial' });

const TSX = join(ROOT, 'test/fixtures/runTs.mjs');
const FIXTURE = join(ROOT, 'test/fixtures/servers/eraServer.ts');

let web: RunningWeb;
let page: Page;
let model: FakeProviderServer;
const pageErrors: string[] = [];

test.beforeAll(async ({ browser }) => {
  model = await startOpenAIServer([
    { toolCalls: [{ name: 'mcp__modern__ask', arguments: {} }] },
    { text: 'Nice to meet you, Ada.' },
  ]);
  const { home } = chatHome(
    'eras',
    () => [{ name: 'modern', command: 'node', args: [TSX, FIXTURE], env: { ERA: 'modern' } }],
    {
      providers: { default: 'openai', openai: { baseUrl: `${model.url}/v1` } },
      deferredToolThreshold: { tools: 500, tokens: 1_000_000 },
    },
  );
  web = await startWebWithEnv(home, { OPENAI_API_KEY: 'sk-e2e' });
  page = await browser.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);
});

test.afterAll(() => closeChatApp({ page, model, web, pageErrors }));

test('the server row shows the negotiated revision and the server icon', async () => {
  const row = page.getByTestId('server-modern');
  await expect(row.getByTestId('server-state')).toHaveText('ready');
  await expect(row).toContainText('MCP 2026-07-28');
  await expect(row.locator('img.mcp-icon')).toHaveAttribute('src', /^data:image\/png;base64,/);
  await shot(page, 'eras-01-server-row');
});

test("a 2026 tool's input_required form opens the elicitation dialog; the answer reaches the tool", async () => {
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByLabel('Model (provider:model)').fill('openai:gpt-4o');
  await page.getByLabel('Message').fill('Greet me');
  await page.getByLabel('Message').press('Enter');
  const dialog = page.getByTestId('interaction-elicitation-form');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('What is your name?');
  await shot(page, 'eras-02-input-required-form');
  await dialog.getByLabel('name *').fill('Ada');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog).toBeHidden();
  const tool = page.getByTestId('chat-tool').last();
  await expect(tool).toHaveAttribute('data-state', 'done');
  await expect(tool.getByTestId('tool-result')).toContainText('hello Ada');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Nice to meet you, Ada.');
});
