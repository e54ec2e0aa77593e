// A chat turn's tool steps end to end (docs/chat.md, "A turn in the chat"): a real `mooring web` child
// with four reference servers (more tools than the default thresholds: deferred mode), and three local
// servers speaking the OpenAI, Anthropic and Ollama wire formats as scripted models. What each model
// was sent is read back from the recorded requests; what was saved, from the conversation file.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startAnthropicServer } from '../test/fixtures/providers/anthropicServer';
import { startOllamaServer } from '../test/fixtures/providers/ollamaServer';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { anthropicView, ollamaView, openaiView } from '../test/helpers/wireViews';
import { chatHome, shot, startWebWithEnv } from './chatHarness';
import { EVERYTHING, FILESYSTEM, MEMORY, type RunningWeb } from './harness';

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let home: string;
let root: string;
let page: Page;
let openai: FakeProviderServer;
let anthropic: FakeProviderServer;
let ollama: FakeProviderServer;
const pageErrors: string[] = [];
const select = (name: string) => ({ name: 'tool_search', arguments: { query: `select:${name}` } });

test.beforeAll(async ({ browser }) => {
  ({ home, root } = chatHome('steps', (d) => [
    { name: 'fs', command: 'node', args: [FILESYSTEM, d.root] },
    { name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'] },
    { name: 'memory', command: 'node', args: [MEMORY], env: { MEMORY_FILE_PATH: join(d.home, 'm.jsonl') } },
    { name: 'notes', command: 'node', args: [MEMORY], env: { MEMORY_FILE_PATH: join(d.home, 'n.jsonl') } },
  ]));
  openai = await startOpenAIServer([
    { toolCalls: [select('mcp__fs__write_file')] },
    {
      text: 'Writing it now.',
      toolCalls: [
        {
          name: 'mcp__fs__write_file',
          arguments: { path: join(root, 'note.txt'), content: 'from the model' },
        },
      ],
    },
    { text: 'I wrote the note.' },
  ]);
  anthropic = await startAnthropicServer([
    { toolCalls: [select('list_directory')] },
    { toolCalls: [{ name: 'list_directory', arguments: { path: root } }] },
    { text: 'Your folder holds alpha.txt and beta.md.' },
  ]);
  ollama = await startOllamaServer([
    { toolCalls: [select('get-tiny-image')] },
    { toolCalls: [{ name: 'mcp__everything__get-tiny-image', arguments: {} }] },
    { text: 'A tiny image.' },
  ]);
  // Default thresholds (deferred mode); each provider's base URL in the settings, keys from the env.
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({
      providers: {
        default: 'openai',
        openai: { baseUrl: `${openai.url}/v1` },
        anthropic: { baseUrl: anthropic.url },
        ollama: { baseUrl: ollama.url },
      },
    }),
  );
  web = await startWebWithEnv(home, { OPENAI_API_KEY: 'sk-e2e', ANTHROPIC_API_KEY: 'sk-ant-e2e' });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);
  // A conversation freezes its tool set when it starts: start once every server is connected.
  for (const name of ['fs', 'everything', 'memory', 'notes'])
    await expect(page.getByTestId(`server-${name}`).getByTestId('server-state')).toHaveText('ready');
});

test.afterAll(async () => {
  await page?.close();
  expect(pageErrors).toEqual([]);
  await Promise.all([openai?.close(), anthropic?.close(), ollama?.close()]);
  if (web) expect(await web.stop(), web.stderr()).toBe(0);
});

const startConversation = async (model: string, text: string) => {
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByLabel('Model (provider:model)').fill(model);
  await page.getByLabel('Message').fill(text);
  await page.getByLabel('Message').press('Enter');
};
/** The chat requests a model server got (the app also lists its models, with GETs). */
const sent = (model: FakeProviderServer) =>
  model.requests.filter((r) => r.method === 'POST').map((r) => r.body);
const tool = (name: string) => page.locator(`[data-testid="chat-tool"][data-tool="${name}"]`);

/** The conversation file whose title is `title`, as records. */
function savedConversation(title: string): { kind: string; message?: Record<string, unknown> }[] {
  const dir = join(home, 'conversations');
  for (const f of readdirSync(dir)) {
    const records = readFileSync(join(dir, f), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; title?: string; message?: Record<string, unknown> });
    if (records[0]?.title === title) return records;
  }
  throw new Error(`no conversation titled ${title}`);
}

test('deferred mode: the first request lists the deferred tools; edited arguments show on the card, in the file and to the model', async () => {
  await startConversation('openai:gpt-4o', 'Write the note');
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toBeVisible();
  // The dialog names the conversation by its title, not by its id.
  await expect(dialog).toContainText('asked by the conversation “Write the note”');
  const edited = { path: join(root, 'note.txt'), content: 'edited by you' };
  await dialog.getByLabel('Approval arguments').fill(JSON.stringify(edited, null, 2));
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('I wrote the note.');
  expect(readFileSync(edited.path, 'utf8')).toBe('edited by you');

  // The model was told which tools exist before it asked for any.
  const first = sent(openai)[0];
  expect(openaiView.toolNames(first)).toEqual(['tool_search']);
  expect(openaiView.system(first)).toContain('mcp__fs__: ');
  expect(openaiView.system(first)).toContain('write_file');
  expect(openaiView.system(first)).toContain('mcp__notes__: ');
  // The next request says what ran.
  const result = openaiView.toolResults(sent(openai)[2]).at(-1)!;
  expect(result.text).toContain('the user edited your arguments before approving');
  expect(result.text).toContain('"content":"edited by you"');
  // So does the conversation file.
  const step = savedConversation('Write the note').find(
    (r) => r.message?.role === 'tool' && r.message.editedArguments,
  );
  expect(step?.message?.editedArguments).toEqual(edited);

  // One answer for the turn: its text and both tool steps in order, the model named once.
  const answer = page.getByTestId('msg-assistant');
  await expect(answer).toHaveCount(1);
  await expect(answer.getByTestId('chat-tool')).toHaveCount(2);
  await expect(answer.locator('.msg-meta')).toHaveCount(1);
  const card = tool('write_file');
  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(card.getByTestId('call-arguments')).toContainText('Arguments (edited by you before approval)');
  await card.getByText('Arguments (edited by you before approval)').click();
  await expect(card.getByTestId('call-arguments')).toContainText('edited by you');
  await shot(page, 'chat-steps-01-edited-arguments');

  // A reload reads the conversation back: the card still says what ran.
  await page.reload();
  await page.getByRole('button', { name: 'Write the note', exact: true }).click();
  await expect(tool('write_file').getByTestId('call-arguments')).toContainText(
    'Arguments (edited by you before approval)',
  );
});

test('a unique bare tool name resolves and runs', async () => {
  await startConversation('anthropic:claude-mooring-test', 'What is in my folder?');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('alpha.txt and beta.md');
  const card = tool('list_directory');
  await expect(card).toHaveAttribute('data-state', 'done');
  await expect(card).toContainText('fs / list_directory');
  await expect(card.getByTestId('tool-result')).toContainText('[FILE] alpha.txt');
  const result = anthropicView.toolResults(sent(anthropic)[2]).at(-1)!;
  expect(result.text).toContain('[FILE] alpha.txt');
  await shot(page, 'chat-steps-02-bare-name');
});

test('an image from a tool reaches a vision model in the same turn, as an image part', async () => {
  await startConversation('ollama:qwen2.5vl', 'Show me a tiny image');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('A tiny image.');
  const card = tool('get-tiny-image');
  await expect(card).toHaveAttribute('data-state', 'done');
  const thumb = card.getByTestId('gallery').locator('img').first();
  await expect(thumb).toHaveJSProperty('complete', true);
  const body = sent(ollama)[2];
  const images = ollamaView.images(body);
  expect(images).toHaveLength(1);
  expect(Buffer.from(images[0]!, 'base64').subarray(1, 4).toString()).toBe('PNG');
  for (const r of ollamaView.toolResults(body)) expect(r.text).not.toContain(images[0]!.slice(0, 40));
  await shot(page, 'chat-steps-03-image-to-vision-model');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, 'chat-steps-04-dark');
  await page.emulateMedia({ colorScheme: 'light' });
});
