// The chat as a person uses it, end to end (ARCHITECTURE.md, "A turn in the chat"): Markdown answers,
// message actions, the keyboard, the model picker, attachments, export and import. A real `mooring web`
// child with server-everything, and a local server speaking the OpenAI wire format as a scripted model
// (test/fixtures/providers); what the model was sent is read back from its recorded requests.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { chatHome, shot, startWebWithEnv } from './chatHarness';
import { EVERYTHING, type RunningWeb } from './harness';

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let page: Page;
let model: FakeProviderServer;
const pageErrors: string[] = [];

const RICH = [
  'Here is the summary:',
  '',
  '| file | size |',
  '| --- | ---: |',
  '| alpha.txt | 10 |',
  '',
  '- first point',
  '- second point',
  '',
  '```js',
  'const answer = 42;',
  '```',
  '',
  'Unsafe bits stay text: <script>window.pwned = 1</script> <img src=x onerror="window.pwned = 2">',
].join('\n');

test.beforeAll(async ({ browser }) => {
  const { home } = chatHome('chatui', () => [
    { name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'] },
  ]);
  model = await startOpenAIServer([
    { text: RICH },
    {
      toolCalls: [
        { name: 'mcp__everything__echo', arguments: { message: '<img src=x onerror="window.pwned = 3">' } },
      ],
    },
    { text: 'Echoed.' },
  ]);
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({
      deferredToolThreshold: { tools: 500, tokens: 1_000_000 },
      providers: { default: 'openai', openai: { baseUrl: `${model.url}/v1` } },
    }),
  );
  web = await startWebWithEnv(home, { OPENAI_API_KEY: 'sk-e2e' });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);
  await expect(page.getByTestId('server-everything').getByTestId('server-state')).toHaveText('ready');
});

test.afterAll(async () => {
  await page?.close();
  expect(pageErrors).toEqual([]);
  await model?.close();
  if (web) expect(await web.stop(), web.stderr()).toBe(0);
});

const ask = async (text: string) => {
  await page.getByLabel('Message').fill(text);
  await page.getByLabel('Message').press('Enter');
};

test('an answer with a table, a list and a code block renders as such; HTML in it or in a tool result stays text', async () => {
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await ask('Summarise my folder');
  const answer = page.getByTestId('msg-markdown').last();
  await expect(answer.locator('table td').first()).toHaveText('alpha.txt');
  await expect(answer.locator('ul > li')).toHaveCount(2);
  await expect(answer.locator('pre code .hljs-keyword')).toHaveText('const');
  await expect(answer.getByRole('button', { name: 'Copy code' })).toBeVisible();
  await expect(answer).toContainText('<script>window.pwned = 1</script>');
  await expect(answer).toContainText('<img src=x onerror=');
  await expect(answer.locator('script, img')).toHaveCount(0);
  await shot(page, 'chat-markdown');

  await ask('Echo something odd');
  await expect(page.getByTestId('msg-markdown').last()).toHaveText('Echoed.');
  const result = page.getByTestId('chat-tool').last().getByTestId('tool-result');
  await expect(result).toContainText('<img src=x onerror=');
  await expect(result.locator('img')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
});
