// The Chat, Settings > Models and the server-interaction dialogs end to end: a real
// `mooring web` child on its own MOORING_HOME, real server-filesystem and server-everything, and a local
// server speaking the OpenAI wire format that plays a scripted model (test/fixtures/providers).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { chatHome, closeChatApp, longConversation, shot, startWebWithEnv } from './chatHarness';
import { EVERYTHING, FILESYSTEM, type RunningWeb } from './harness';

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let home: string;
let root: string;
let page: Page;
let model: FakeProviderServer;
const pageErrors: string[] = [];
const EVERY = (tool: string) => `mcp__everything__${tool}`;

test.beforeAll(async ({ browser }) => {
  ({ home, root } = chatHome(
    'chat',
    (d) => [
      { name: 'fs', command: 'node', args: [FILESYSTEM, d.root] },
      { name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'] },
    ],
    // Every tool goes to the model directly (no tool_search), so the script can call them by name.
    { deferredToolThreshold: { tools: 500, tokens: 1_000_000 } },
  ));
  longConversation(home, 'long-one', 400);
  // One script for the whole serial run, in the order of the tests below.
  model = await startOpenAIServer([
    { toolCalls: [{ name: 'mcp__fs__list_directory', arguments: { path: root } }] },
    { text: 'Your folder holds alpha.txt and beta.md.' },
    {
      toolCalls: [
        { name: 'mcp__fs__write_file', arguments: { path: join(root, 'denied.txt'), content: 'x' } },
      ],
    },
    { text: 'You denied the write, so nothing changed.' },
    { text: 'Let me think about that for a long while', hang: true },
    {
      toolCalls: [{ name: EVERY('trigger-long-running-operation'), arguments: { duration: 60, steps: 60 } }],
    },
    {
      toolCalls: [
        { name: EVERY('trigger-sampling-request'), arguments: { prompt: 'Write a haiku', maxTokens: 100 } },
      ],
    },
    { text: 'Leaves fall quietly' },
    { text: 'The server got its haiku.' },
    { toolCalls: [{ name: EVERY('trigger-elicitation-request'), arguments: {} }] },
    { text: 'Thanks, Ada.' },
    { toolCalls: [{ name: EVERY('get-roots-list'), arguments: {} }] },
    { text: 'I can see your project folder.' },
  ]);
  // The key comes from the environment (no keychain in this test); the base URL is set in Settings.
  web = await startWebWithEnv(home, { OPENAI_API_KEY: 'sk-e2e' });
  page = await browser.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);
});

test.afterAll(() => closeChatApp({ page, model, web, pageErrors }));

const newConversation = async () => {
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: 'New conversation' }).click();
};
const ask = async (text: string) => {
  await page.getByLabel('Message').fill(text);
  await page.getByLabel('Message').press('Enter');
};
const lastTool = () => page.getByTestId('chat-tool').last();

test('on a fresh home, the chat says a model is needed and leads to the setup in Settings > Models', async () => {
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  const needed = page.getByTestId('chat-setup');
  await expect(needed).toContainText('Chat needs a model first');
  await shot(page, 'chat-01-no-model');
  await needed.getByRole('button', { name: 'Set up a model' }).click();
  await expect(page.getByRole('heading', { name: 'Models', exact: true })).toBeVisible();
});

test('Settings > Models: the setup saves the model picked from the list and its base URL; Check lists the models', async () => {
  const setup = page.getByTestId('model-setup');
  await setup.getByRole('radio', { name: /Another OpenAI-compatible server/ }).check();
  await setup.getByLabel('Setup base URL').fill(`${model.url}/v1`);
  await setup.getByRole('button', { name: 'Check' }).click();
  await setup.getByRole('radio', { name: 'gpt-4o' }).check();
  await setup.getByRole('button', { name: 'Use gpt-4o' }).click();
  await expect(setup.getByTestId('setup-done')).toBeVisible();
  const openai = page.getByTestId('provider-openai');
  await expect(openai).toContainText('from OPENAI_API_KEY in the environment');
  await openai.getByRole('button', { name: 'Check' }).click();
  await expect(page.getByTestId('check-openai')).toContainText('Reachable. 1 model: gpt-4o');
  // A provider that is not there says so, with what to do.
  await page.getByTestId('provider-anthropic').getByRole('button', { name: 'Check' }).click();
  await expect(page.getByTestId('check-anthropic').locator('.hint')).not.toBeEmpty();
  await shot(page, 'chat-02-settings-models');
  // settings.json holds the URL; no key anywhere in the home.
  const settings = JSON.parse(
    (await import('node:fs')).readFileSync(join(home, 'settings.json'), 'utf8'),
  ) as { providers: { default: string; openai: { baseUrl: string } } };
  expect(settings.providers).toMatchObject({ default: 'openai', openai: { baseUrl: `${model.url}/v1` } });
});

test('a turn lists the folder through server-filesystem: the tool card and the streamed answer', async () => {
  await newConversation();
  await expect(page.getByTestId('chat-no-model')).toBeHidden();
  await expect(page.getByLabel('Model (provider:model)')).toHaveValue('openai:gpt-4o');
  await shot(page, 'chat-03-new-conversation');
  await ask('What is in my folder?');
  await expect(page.getByTestId('msg-user')).toContainText('What is in my folder?');
  await expect(lastTool()).toHaveAttribute('data-state', 'done');
  await expect(lastTool().getByTestId('tool-result')).toContainText('alpha.txt');
  await expect(page.getByTestId('msg-assistant').last()).toContainText(
    'Your folder holds alpha.txt and beta.md.',
  );
  await lastTool().getByText('Arguments').click();
  await expect(lastTool()).toContainText(`"path": "${root}"`);
  await expect(page.getByTestId('conversation').first()).toContainText('What is in my folder?');
  await shot(page, 'chat-04-tool-card-and-answer');
});

test('a destructive call raises the approval dialog; deny leaves the folder untouched', async () => {
  await newConversation();
  await ask('Write a file for me');
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('write_file');
  await expect(dialog).toContainText('asked by the conversation “Write a file for me”');
  await expect(lastTool()).toHaveAttribute('data-state', 'awaiting-approval');
  await shot(page, 'chat-05-approval-from-chat');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(lastTool()).toHaveAttribute('data-state', 'refused');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('nothing changed');
  expect(existsSync(join(root, 'denied.txt'))).toBe(false);
});

test('Stop cancels a reply that hangs: the stream closes and the chat notes it', async () => {
  await newConversation();
  const aborted = model.nextClientAbort();
  await ask('Think hard');
  const streaming = page.locator('[data-streaming="true"]');
  await expect(streaming).toContainText('Let me think');
  await shot(page, 'chat-06-streaming');
  await page.getByRole('button', { name: 'Stop' }).click();
  await aborted;
  await expect(page.getByTestId('msg-note').last()).toHaveText('Cancelled.');
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
});

test('a long-running tool shows its progress bar; Cancel on the card stops the turn', async () => {
  await newConversation();
  await ask('Run the long operation');
  await expect(lastTool()).toHaveAttribute('data-state', 'running');
  const bar = lastTool().getByRole('progressbar');
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute('aria-valuenow', /^[1-9]/);
  await shot(page, 'chat-07-progress');
  // The design system's button, not the browser's bare one.
  await expect(lastTool().getByRole('button', { name: 'Cancel' })).toHaveClass(/\bbtn-secondary\b/);
  await lastTool().getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('msg-note').last()).toHaveText('Cancelled.');
  await expect(lastTool().getByRole('button', { name: 'Cancel' })).toBeHidden();
  // The person stopped it: said so, in grey, not as a red failure.
  await expect(lastTool().getByTestId('call-phase')).toHaveText('cancelled');
  await expect(lastTool().getByTestId('call-card')).toHaveClass(/phase-cancelled/);
  await expect(lastTool().getByRole('alert')).toHaveCount(0);
});

test('server sampling: the dialog shows the request, the edit reaches the model, the tool gets the answer', async () => {
  await newConversation();
  await ask('Ask the server to sample');
  await page.getByTestId('approval-dialog').getByRole('button', { name: 'Allow once' }).click();
  const dialog = page.getByTestId('interaction-sampling');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('everything');
  await expect(dialog.getByLabel('Sampling message 1')).toHaveValue(/Write a haiku/);
  await expect(dialog.getByLabel('Max tokens')).toHaveValue('100');
  await shot(page, 'chat-08-sampling-dialog');
  await dialog.getByLabel('Sampling message 1').fill('Write a haiku about autumn');
  await dialog.getByLabel('Max tokens').fill('0');
  await expect(dialog.getByRole('button', { name: 'Approve' })).toBeDisabled();
  await dialog.getByLabel('Max tokens').fill('64');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog).toBeHidden();
  await expect(lastTool()).toHaveAttribute('data-state', 'done');
  await expect(lastTool().getByTestId('tool-result')).toContainText('Leaves fall quietly');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('The server got its haiku.');
  const sampled = model.requests.find((r) => JSON.stringify(r.body?.messages ?? '').includes('about autumn'));
  expect(sampled, 'the edited sampling request reached the model').toBeTruthy();
});

test('server elicitation: the schema becomes a form with defaults, checked before it is sent', async () => {
  await newConversation();
  await ask('Ask me for my details');
  await page.getByTestId('approval-dialog').getByRole('button', { name: 'Allow once' }).click();
  const dialog = page.getByTestId('interaction-elicitation-form');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('String with default')).toHaveValue('It was a dark and stormy night.');
  await expect(dialog.getByLabel('Integer')).toHaveValue('42');
  await shot(page, 'chat-09-elicitation-form');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog.getByText('required', { exact: true })).toBeVisible();
  await dialog.getByLabel('String *').fill('Ada Lovelace');
  await dialog.getByLabel('String with email format').fill('not-an-email');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog).toContainText('must be an email address');
  await shot(page, 'chat-10-elicitation-invalid');
  await dialog.getByLabel('String with email format').fill('ada@example.com');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog).toBeHidden();
  await expect(lastTool()).toHaveAttribute('data-state', 'done');
  await expect(lastTool().getByTestId('tool-result')).toContainText('Ada Lovelace');
  await expect(lastTool().getByTestId('tool-result')).toContainText('ada@example.com');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Thanks, Ada.');
});

test('prompts are slash commands: a small form for the arguments, the messages inserted', async () => {
  await newConversation();
  await page.getByLabel('Message').fill('/args');
  const list = page.getByTestId('slash-list');
  await expect(list).toContainText('/args-prompt');
  await shot(page, 'chat-11-slash-commands');
  await list.getByRole('option', { name: /args-prompt/ }).click();
  const form = page.getByTestId('prompt-form');
  await expect(form.getByRole('button', { name: 'Insert prompt' })).toBeDisabled();
  await form.getByLabel(/^city/).fill('Lisbon');
  await shot(page, 'chat-12-prompt-form');
  await form.getByRole('button', { name: 'Insert prompt' }).click();
  await expect(page.getByLabel('Message')).toHaveValue(/Lisbon/);
  await page.getByLabel('Message').fill('');
});

test('conversations: rename, search titles, delete', async () => {
  await page.getByRole('button', { name: 'Rename What is in my folder?' }).click();
  const rename = page.getByTestId('rename-dialog');
  await rename.getByLabel('Title').fill('Folder tour');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(rename).toBeHidden();
  await page.getByLabel('Search conversations').fill('tour');
  await expect(page.getByTestId('conversation')).toHaveCount(1);
  await expect(page.getByTestId('conversation')).toContainText('Folder tour');
  await shot(page, 'chat-13-search');
  await page.getByRole('button', { name: 'Delete Folder tour' }).click();
  await page.getByTestId('delete-dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('conversation-list')).toContainText('No title matches.');
  await page.getByLabel('Search conversations').fill('');
});

test('a long conversation is virtualised: 800 messages, a screenful in the page', async () => {
  await page.getByRole('button', { name: 'A long conversation', exact: true }).click();
  await expect(page.getByText('Answer number 399', { exact: true })).toBeVisible();
  const rendered = await page.locator('[data-testid="msg-user"], [data-testid="msg-assistant"]').count();
  expect(rendered).toBeGreaterThan(0);
  expect(rendered).toBeLessThan(80);
  await page.locator('.chat-messages').evaluate((el) => {
    const scroller = el.matches('[data-virtuoso-scroller]')
      ? el
      : el.querySelector('[data-virtuoso-scroller]');
    (scroller ?? el).scrollTop = 0;
  });
  await expect(page.getByText('Question number 0', { exact: true })).toBeVisible();
  await shot(page, 'chat-14-long-conversation');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByRole('button', { name: 'Run the long operation', exact: true }).click();
  await expect(page.getByTestId('chat-tool').first()).toBeVisible();
  await shot(page, 'chat-15-dark');
  await page.emulateMedia({ colorScheme: 'light' });
});

test('roots: the project folder of a conversation is the MCP root the server sees', async () => {
  await newConversation();
  await page.getByRole('button', { name: /^Project folder and tools:/ }).click();
  await page.getByLabel('Project folder', { exact: true }).fill(root);
  await page.keyboard.press('Escape');
  await ask('Which folders can you see?');
  await expect(lastTool()).toHaveAttribute('data-state', 'done');
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible(); // the turn ended
  // What the server answered reached the model: the folder, as a file:// root.
  const toolResult = JSON.stringify(model!.requests.at(-1)?.body.messages);
  expect(toolResult).toContain(`file://${root}`);
});
