// Conversation titles from the conversation's own model, end to end (docs/chat.md, "Conversation
// titles"): a real `mooring web` child and a local server speaking the OpenAI wire format as a scripted
// model, whose title requests are answered from their own script and recorded apart
// (test/fixtures/providers/scriptedServer.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { expectAccessible } from './a11y';
import { chatHome, closeChatApp, shot, startWebWithEnv } from './chatHarness';
import type { RunningWeb } from './harness';

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let page: Page;
let model: FakeProviderServer;
let home: string;
const pageErrors: string[] = [];

test.beforeAll(async ({ browser }) => {
  model = await startOpenAIServer(
    [{ text: 'Lisbon in May is lovely: walk Alfama, take tram 28, eat pastéis de nata.' }, { text: 'Four.' }],
    // Markdown, quotes and a right-to-left override in the answer: only the words are kept.
    { titles: [{ text: '**"Weekend in\u202e Lisbon"**\nA title for a trip.' }] },
  );
  ({ home } = chatHome('titles', () => [], {
    providers: { default: 'openai', openai: { baseUrl: `${model.url}/v1` } },
  }));
  web = await startWebWithEnv(home, { OPENAI_API_KEY: 'sk-e2e' });
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);
});

test.afterAll(() => closeChatApp({ page, model, web, pageErrors }));

const ask = async (text: string) => {
  await page.getByLabel('Message').fill(text);
  await page.getByLabel('Message').press('Enter');
};
const listed = (title: string) =>
  page.getByTestId('conversation-list').getByRole('button', { name: title, exact: true });

test("after the first answer, the conversation list and the header show the model's title", async () => {
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: 'New conversation' }).click();
  const words = 'could you help me plan a weekend trip to Lisbon in May please';
  await ask(words);
  await expect(page.getByTestId('msg-markdown').last()).toContainText('tram 28');
  // The title arrives live, without a reload: first the first words, then the model's.
  await expect(listed('Weekend in Lisbon')).toBeVisible();
  await expect(page.locator('#chat-title')).toHaveText('Weekend in Lisbon');
  await expect(listed(words)).toHaveCount(0);
  expect(model.titleRequests).toHaveLength(1);
  expect(JSON.stringify(model.titleRequests[0]!.body)).toContain(words);
  await shot(page, 'chat-model-title');
});

test('with "Name conversations with the model" off, a new conversation keeps its first words', async () => {
  await page.getByRole('button', { name: 'Models', exact: true }).click();
  const setting = page.getByRole('checkbox', { name: 'Name conversations with the model' });
  await expect(setting).toBeChecked();
  await setting.uncheck();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('models-saved')).toBeVisible();
  expect(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8'))).toMatchObject({
    titlesFromModel: false,
  });
  await shot(page, 'settings-model-titles-off');
  await expectAccessible(page, 'Settings > Models with the titles switch');

  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await ask('what is two plus two');
  await expect(page.getByTestId('msg-markdown').last()).toHaveText('Four.');
  await expect(listed('what is two plus two')).toBeVisible();
  // The turn is over (the list no longer shows it answering) and no title was asked for (the core's
  // integration test waits for the title jobs themselves: test/integration/conversationTitles.test.ts).
  await expect(page.getByTestId('conversation-list').getByLabel('answering')).toHaveCount(0);
  expect(model.titleRequests).toHaveLength(1);
});
