// Code mode's switches in the app (docs/code-mode.md, "The switch"): Settings > Models sets a model to
// start in code mode, a new conversation with it shows the switch on and the model is offered run_code,
// the conversation's switch still turns it off; and the Schedules editor's "Code mode" switch is saved with
// the schedule and shown again when it is edited.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { openaiView } from '../test/helpers/wireViews';
import { chatHome, closeChatApp, openChatApp, scriptedModelSettings, shot } from './chatHarness';
import { FILESYSTEM, type RunningWeb } from './harness';
import { openScreen } from './uiFlows';

const SPEC = 'openai:gpt-4o';
let web: RunningWeb;
let page: Page;
let model: FakeProviderServer;
const pageErrors: string[] = [];

test.afterAll(() => closeChatApp({ page, model, web, pageErrors }));

/** The chat requests the model got since `from` (the app also lists models with GET). */
const posts = (from: number) =>
  model.requests
    .slice(from)
    .filter((r) => r.method === 'POST')
    .map((r) => r.body);

test('a model set to start in code mode starts new conversations in it; schedules keep their switch', async ({
  browser,
}) => {
  let root = '';
  // Offered run_code, the model lists the folder in a program; otherwise (and after it) it answers in words.
  model = await startOpenAIServer((body: { messages: { role: string }[] }) =>
    body.messages.at(-1)!.role === 'user' && openaiView.toolNames(body).includes('run_code')
      ? {
          toolCalls: [
            {
              name: 'run_code',
              arguments: {
                code: `return (await tools.mcp__fs__list_directory({ path: ${JSON.stringify(root)} })).content;`,
              },
            },
          ],
        }
      : { text: 'Answered.' },
  );
  const made = chatHome(
    'code-settings',
    (d) => [{ name: 'fs', command: 'node', args: [FILESYSTEM, d.root] }],
    {
      ...scriptedModelSettings(model.url),
      titlesFromModel: false,
    },
  );
  root = made.root;
  ({ web, page } = await openChatApp(browser, { home: made.home, ready: ['fs'], pageErrors }));

  await openScreen(page, 'Models');
  const field = page.getByTestId('code-mode-models');
  await field.getByLabel('Model to start in code mode (provider:model)').fill(SPEC);
  await field.getByRole('button', { name: 'Add' }).click();
  await expect(field.getByTestId(`code-mode-model-${SPEC}`)).toBeVisible();
  await field.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shot(page, 'code-mode-settings-01-models');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('models-saved')).toBeVisible();
  const settings = JSON.parse(readFileSync(join(made.home, 'settings.json'), 'utf8')) as {
    codeModeModels: string[];
  };
  expect(settings.codeModeModels).toEqual([SPEC]);

  // A new conversation with that model: the switch is on before the first message, and run_code is offered.
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await expect(page.getByRole('button', { name: /^Project folder and tools.*code mode/ })).toBeVisible();
  await page.getByRole('button', { name: /^Project folder and tools/ }).click();
  await expect(page.getByRole('checkbox', { name: 'Code mode' })).toBeChecked();
  await shot(page, 'code-mode-settings-02-new-conversation');
  await page.keyboard.press('Escape');
  let from = model.requests.length;
  await page.getByLabel('Message').fill('What is in the folder?');
  await page.getByLabel('Message').press('Enter');
  await expect(page.getByTestId('program-card')).toHaveAttribute('data-phase', 'done');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Answered.');
  expect(openaiView.toolNames(posts(from)[0])).toContain('run_code');

  // The conversation's switch still turns it off.
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByRole('button', { name: /^Project folder and tools/ }).click();
  await expect(page.getByRole('checkbox', { name: 'Code mode' })).toBeChecked();
  await page.getByRole('checkbox', { name: 'Code mode' }).uncheck();
  await page.keyboard.press('Escape');
  from = model.requests.length;
  await page.getByLabel('Message').fill('And now without a program?');
  await page.getByLabel('Message').press('Enter');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Answered.');
  await expect(page.getByTestId('program-card')).toHaveCount(0);
  expect(openaiView.toolNames(posts(from)[0])).not.toContain('run_code');

  // A schedule saved with code mode keeps it, and the editor shows it again.
  await openScreen(page, 'Schedules');
  await page.getByRole('button', { name: 'New schedule' }).click();
  const editor = page.getByTestId('schedule-editor');
  await editor.getByLabel('Name').fill('Nightly');
  await editor.getByLabel('Prompt').fill('What is in my folder?');
  await editor.getByRole('switch', { name: 'Code mode' }).click();
  await editor.getByRole('switch', { name: 'Paused' }).click();
  await expect(editor.getByRole('switch', { name: 'Code mode' })).toBeChecked();
  await editor.getByRole('switch', { name: 'Code mode' }).scrollIntoViewIfNeeded();
  await shot(page, 'code-mode-settings-03-schedule');
  await editor.getByRole('button', { name: 'Save schedule' }).click();
  await expect(editor).toHaveCount(0);
  const schedules = JSON.parse(readFileSync(join(made.home, 'schedules.json'), 'utf8')) as {
    schedules: { name: string; codeMode?: boolean }[];
  };
  expect(schedules.schedules).toMatchObject([{ name: 'Nightly', codeMode: true }]);
  await page.getByRole('button', { name: 'Edit Nightly' }).click();
  await expect(page.getByTestId('schedule-editor').getByRole('switch', { name: 'Code mode' })).toBeChecked();
});
