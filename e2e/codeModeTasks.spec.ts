// The three tasks of the code-mode benchmark (test/fixtures/codeModeTasks.ts) end to end in `mooring web`:
// real reference servers, the tasks' scripted model, each task in a new conversation direct and then in
// one switched to code mode. The model derives its answer from what it read, so both answers must be the
// one the fixture knows; in code mode the step is one program card whose calls are nested.
import { rmSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  codeModeTasks,
  serverConfig,
  taskServers,
  taskWorld,
  tasksModel,
  type CodeModeTask,
  type TaskWorld,
} from '../test/fixtures/codeModeTasks';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { openaiView } from '../test/helpers/wireViews';
import { chatHome, closeChatApp, openChatApp, scriptedModelSettings, shot } from './chatHarness';
import type { RunningWeb } from './harness';

let web: RunningWeb;
let page: Page;
let model: FakeProviderServer;
let world: TaskWorld;
const pageErrors: string[] = [];

test.afterAll(async () => {
  await closeChatApp({ page, model, web, pageErrors });
  rmSync(world.dir, { recursive: true, force: true });
});

/** Sends the task's prompt in a new conversation, code mode as given, and waits for its answer. */
async function solve(task: CodeModeTask, codeMode: boolean): Promise<void> {
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByRole('button', { name: /^Project folder and tools/ }).click();
  await page.getByRole('checkbox', { name: 'Code mode' }).setChecked(codeMode);
  await page.keyboard.press('Escape');
  await page.getByLabel('Message').fill(task.prompt);
  await page.getByLabel('Message').press('Enter');
  const answer = page.getByTestId('msg-assistant').last();
  await expect(answer).toContainText(task.expected);
  await expect(answer).not.toHaveAttribute('data-streaming', 'true');
  await expect(answer.getByTestId('msg-markdown').last()).toHaveText(task.expected);
}

/** The chat requests the model got since `from` (the app also lists models with GET). */
const posts = (from: number) =>
  model.requests
    .slice(from)
    .filter((r) => r.method === 'POST')
    .map((r) => r.body);

test('each task gives the same answer direct and in code mode', async ({ browser }) => {
  world = taskWorld({ files: 12, entities: 6 });
  const tasks = codeModeTasks(world);
  model = await startOpenAIServer(tasksModel(tasks));
  const { home } = chatHome('code-tasks', () => taskServers(world).map(serverConfig), {
    ...scriptedModelSettings(model.url),
    titlesFromModel: false,
  });
  ({ web, page } = await openChatApp(browser, { home, ready: ['fs', 'memory', 'everything'], pageErrors }));
  await page.getByRole('button', { name: 'Chat', exact: true }).click();

  for (const [i, task] of tasks.entries()) {
    const before = model.requests.length;
    await solve(task, false);
    await expect(page.getByTestId('program-card')).toHaveCount(0);
    const direct = posts(before);
    expect(openaiView.toolNames(direct[0])).not.toContain('run_code');

    const mid = model.requests.length;
    await solve(task, true);
    const card = page.getByTestId('program-card');
    await expect(card).toHaveAttribute('data-phase', 'done');
    await expect(card.getByTestId('program-call')).toHaveCount(openaiView.toolResults(direct.at(-1)).length);
    const code = posts(mid);
    expect(code).toHaveLength(2);
    expect(openaiView.toolResults(code[1])).toHaveLength(1);
    await card.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot(page, `code-tasks-0${i + 1}`);
  }
});
