// A tool that requires task augmentation (MCP 2025-11-25 "Tasks"), end to end in the app: server-everything's
// `simulate-research-query` over Streamable HTTP (a real process that outlives Mooring), called by a scripted
// model in a real `mooring web` child. Its card shows the task's status and the server's words while it
// works, and the report when it completes; a task still working when `mooring web` stops is followed again
// by the next `mooring web` and its report delivered into its conversation.
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { startEverythingHttp } from '../test/helpers/servers';
import { chatHome, shot, startWebWithEnv } from './chatHarness';
import type { RunningWeb } from './harness';

test.describe.configure({ mode: 'serial' });

const TOOL = 'mcp__everything__simulate-research-query';
const KEY = { OPENAI_API_KEY: 'sk-e2e' };
let everything: Awaited<ReturnType<typeof startEverythingHttp>>;
let model: FakeProviderServer;
let web: RunningWeb;
let home: string;
let page: Page;
const pageErrors: string[] = [];

async function open(browser: import('@playwright/test').Browser) {
  web = await startWebWithEnv(home, KEY);
  page = await browser.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);
  await expect(page.getByTestId('server-everything').getByTestId('server-state')).toHaveText('ready');
}

test.beforeAll(async ({ browser }) => {
  everything = await startEverythingHttp('streamableHttp');
  model = await startOpenAIServer([
    { toolCalls: [{ name: TOOL, arguments: { topic: 'lighthouses' } }] },
    { text: 'The lighthouse report is in.' },
    { toolCalls: [{ name: TOOL, arguments: { topic: 'harbours' } }] },
    // The turn the delivered report starts after the restart.
    { text: 'The harbour report arrived after the restart.' },
  ]);
  ({ home } = chatHome(
    'tasks',
    () => [{ name: 'everything', transport: 'http', url: everything.url, policy: 'trust-all' }],
    {
      deferredToolThreshold: { tools: 500, tokens: 1_000_000 },
      providers: { default: 'openai', openai: { baseUrl: `${model.url}/v1` } },
    },
  ));
  await open(browser);
});

test.afterAll(async () => {
  await page?.close();
  expect(pageErrors).toEqual([]);
  await model?.close();
  if (web) expect(await web.stop(), web.stderr()).toBe(0);
  await everything?.stop();
});

const ask = async (text: string) => {
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByLabel('Model (provider:model)').fill('openai:gpt-4o');
  await page.getByLabel('Message').fill(text);
  await page.getByLabel('Message').press('Enter');
};

test("a task-required tool runs as a task: its status and the server's words on the card, then the report", async () => {
  await ask('Research lighthouses');
  const card = page.getByTestId('chat-tool').last();
  const task = card.getByTestId('call-task');
  await expect(task).toHaveAttribute('data-status', 'working');
  await expect(task).toContainText('task working');
  // The server's statusMessage as it moves through its stages.
  await expect(task).not.toHaveText('task working');
  await expect(task.getByRole('button', { name: 'Cancel task' })).toBeVisible();
  await shot(page, 'tasks-1-working');
  await expect(card).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await expect(card).toContainText('Research Report: lighthouses');
  await expect(page.getByText('The lighthouse report is in.', { exact: true })).toBeVisible();
});

test('a task still working when mooring web stops is followed again by the next one, and its report delivered', async ({
  browser,
}) => {
  await ask('Research harbours');
  const task = page.getByTestId('chat-tool').last().getByTestId('call-task');
  await expect(task).toHaveAttribute('data-status', 'working');
  await page.close();
  expect(await web.stop(), web.stderr()).toBe(0);

  await open(browser);
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: 'Research harbours', exact: true }).click();
  await expect(page.getByText('# Research Report: harbours', { exact: false }).first()).toBeVisible({
    timeout: 60_000,
  });
  await expect(
    page.getByText('The harbour report arrived after the restart.', { exact: true }),
  ).toBeVisible();
  await shot(page, 'tasks-2-delivered-after-restart');
  // Closing did not take the suspended call's "Mooring closed" as an answer and ask the model again: four
  // requests in all, none of them ending on that result, the last one the delivered report's.
  const sent = model.requests
    .filter((r) => r.method === 'POST')
    .map((r) => (r.body as { messages: unknown[] }).messages);
  expect(sent.filter((m) => JSON.stringify(m.at(-1)).includes('Mooring closed while the task'))).toEqual([]);
  expect(sent).toHaveLength(4);
  expect(JSON.stringify(sent[3]!.at(-1))).toContain('Research Report: harbours');
});
