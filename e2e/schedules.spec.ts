// The Schedules screen end to end (docs/schedules.md, "Schedules"): a schedule made in the app of a real
// `mooring web` child runs in that process within its minute — an interval, a scripted OpenAI-compatible
// model and server-filesystem — and its outcome, history and conversation show in the app. Each step
// waits for what the app shows, never sleeps.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { expectAccessible } from './a11y';
import { chatHome, shot, startWebWithEnv } from './chatHarness';
import { FILESYSTEM, type RunningWeb } from './harness';
import { openScreen } from './uiFlows';

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let home: string;
let root: string;
let page: Page;
let model: FakeProviderServer;
const pageErrors: string[] = [];

test.beforeAll(async ({ browser }) => {
  ({ home, root } = chatHome('schedules', (d) => [
    { name: 'fs', command: 'node', args: [FILESYSTEM, d.root] },
  ]));
  model = await startOpenAIServer([
    { toolCalls: [{ name: 'mcp__fs__list_directory', arguments: { path: root } }] },
    { text: 'Your folder holds alpha.txt and beta.md.' },
  ]);
  web = await startWebWithEnv(home, {
    OPENAI_API_KEY: 'sk-e2e',
    MOORING_OPENAI_BASE_URL: `${model.url}/v1`,
    MOORING_MODEL: 'openai:gpt-4o',
  });
  // axe-core needs a page of a context the test made.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);
  await expect(page.getByTestId('server-fs').getByTestId('server-state')).toHaveText('ready');
});

test.afterAll(async () => {
  await page?.context().close();
  expect(pageErrors).toEqual([]);
  await model?.close();
  if (web) expect(await web.stop(), web.stderr()).toBe(0);
});

test('a schedule made in the app runs in mooring web within its minute, and its run opens as a conversation', async () => {
  test.setTimeout(240_000);
  await openScreen(page, 'Schedules');
  await expect(page.getByText('No schedules yet')).toBeVisible();
  // This process holds the schedules: no note that another one (or none) runs them.
  await expect(page.getByTestId('schedules-owner')).toHaveCount(0);
  await expectAccessible(page, 'Schedules (empty)');

  await page.getByRole('button', { name: 'New schedule' }).click();
  const editor = page.getByTestId('schedule-editor');
  // A wrong interval is named under its field, and the preview says why it has no times.
  await editor.getByLabel('Name').fill('Folder check');
  await editor.getByLabel('Prompt').fill('What is in my folder?');
  await expect(editor.getByLabel('Model')).toHaveValue('openai:gpt-4o');
  await editor.getByLabel('Every').fill('30s');
  await expect(page.getByTestId('schedule-preview')).toContainText('at least one minute');
  await editor.getByRole('button', { name: 'Save schedule' }).click();
  await expect(editor.getByRole('alert')).toContainText('at least one minute');
  // A cron timetable previews five times as the core reads them.
  await editor.getByLabel('Runs').selectOption('cron');
  await editor.getByLabel('Cron expression').fill('0 9 * * 1-5');
  await expect(page.getByTestId('schedule-preview').getByRole('listitem')).toHaveCount(5);
  await expect(page.getByTestId('schedule-preview')).toContainText('9:00');
  await expectAccessible(page, 'Schedule editor');
  await shot(page, 'schedules-editor');
  // Then the interval it keeps: one minute.
  await editor.getByLabel('Runs').selectOption('every');
  await editor.getByLabel('Every').fill('1m');
  await expect(page.getByTestId('schedule-preview').getByRole('listitem')).toHaveCount(5);
  const saved = Date.now();
  await editor.getByRole('button', { name: 'Save schedule' }).click();
  await expect(editor).toHaveCount(0);

  const card = page.getByTestId('schedule-Folder check');
  await expect(card).toContainText('every 1m · openai:gpt-4o');
  await expect(card.getByTestId('schedule-next')).toContainText('Next:');
  // The scheduler of mooring web runs it at its minute; the card shows the outcome when it ends.
  await expect(card.getByTestId('run-outcome')).toHaveText('done', { timeout: 100_000 });
  // Browser mode says so in a toast (the desktop app, in an OS notification).
  await expect(page.getByTestId('toast').filter({ hasText: 'Schedule “Folder check”: done' })).toBeVisible();
  await expect(card.getByTestId('schedule-last')).toContainText('alpha.txt and beta.md');
  const runs = JSON.parse(readFileSync(join(home, 'schedule-runs.json'), 'utf8')) as {
    runs: { trigger: string; startedAt: number; outcome: string }[];
  };
  expect(runs.runs).toHaveLength(1);
  expect(runs.runs[0]).toMatchObject({ trigger: 'schedule', outcome: 'done' });
  expect(runs.runs[0]!.startedAt - saved).toBeLessThan(90_000);
  // The model was told nobody watches, and the read-only listing ran.
  const first = JSON.stringify(model.requests.find((r) => r.method === 'POST')?.body);
  expect(first).toContain('runs on a schedule with nobody watching');

  await card.getByRole('button', { name: 'History of Folder check' }).click();
  const history = card.getByTestId('run-history');
  await expect(history.getByRole('listitem')).toHaveCount(1);
  await expect(history).toContainText('on time');
  await expectAccessible(page, 'Schedules (a run)');
  await shot(page, 'schedules-run');

  // Pause stops the next times; the run opens in the chat.
  await card.getByRole('button', { name: 'Pause Folder check' }).click();
  await expect(card.getByTestId('schedule-next')).toContainText('Paused');
  await history.getByRole('button', { name: 'Open conversation' }).click();
  // The answer in the conversation, not the toast that may still show the same words.
  await expect(page.getByTestId('msg-assistant').last()).toContainText(
    'Your folder holds alpha.txt and beta.md.',
  );
});
