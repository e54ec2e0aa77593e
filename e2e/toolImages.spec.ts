// Images from tools in the chat (ARCHITECTURE.md, "The path of one tool call"): the person always sees a
// tool's image (its card and the conversation's gallery), whatever the model takes; the model is sent the
// image only when it takes images — by Mooring's table, by what the provider's model list says
// (OpenRouter's `architecture.input_modalities`), or by the person's word in Settings > Models.
import type { ServerResponse } from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { openaiView } from '../test/helpers/wireViews';
import { expectAccessible } from './a11y';
import { chatHome, closeChatApp, openChatApp, scriptedModelSettings, shot } from './chatHarness';
import { EVERYTHING, type RunningWeb } from './harness';

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let page: Page;
let model: FakeProviderServer;
const pageErrors: string[] = [];

const askForImage = [
  { toolCalls: [{ name: 'mcp__everything__get-tiny-image', arguments: {} }] },
  { text: 'Here is the tiny image.' },
];

/** An OpenAI-compatible list as OpenRouter writes it: one model says it takes images, one says it does not. */
const modelList = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      object: 'list',
      data: [
        { id: 'local-plain', object: 'model', created: 0, owned_by: 'test' },
        {
          id: 'router/seeing-model',
          object: 'model',
          created: 0,
          owned_by: 'test',
          architecture: { input_modalities: ['text', 'image'], output_modalities: ['text'] },
        },
      ],
    }),
  );
};

test.beforeAll(async ({ browser }) => {
  model = await startOpenAIServer([...askForImage, ...askForImage, ...askForImage], {
    get: { '/v1/models': modelList },
  });
  const { home } = chatHome(
    'images',
    () => [{ name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'] }],
    scriptedModelSettings(model.url),
  );
  ({ web, page } = await openChatApp(browser, { home, ready: ['everything'], pageErrors }));
});

test.afterAll(() => closeChatApp({ page, model, web, pageErrors }));

const chats = () => model.requests.filter((r) => r.method === 'POST').map((r) => r.body);

async function ask(spec: string, text: string): Promise<void> {
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByLabel('Model (provider:model)').fill(spec);
  await page.getByLabel('Message').fill(text);
  await page.getByLabel('Message').press('Enter');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Here is the tiny image.');
}

test('a model that does not take images: the person sees the image, the model reads a placeholder', async () => {
  await ask('openai:local-plain', 'Show me the tiny image');
  const card = page.locator('[data-testid="chat-tool"][data-tool="get-tiny-image"]');
  await expect(card).toHaveAttribute('data-state', 'done');
  const thumb = card.getByTestId('gallery').locator('img').first();
  await expect(thumb).toHaveJSProperty('complete', true);
  expect(await thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  // In the server's order: its text, the image, then the text about the image above.
  const order = await card
    .getByTestId('tool-result')
    .locator(':scope > pre, :scope > [data-testid="gallery"]')
    .evaluateAll((els) => els.map((e) => (e.tagName === 'PRE' ? e.textContent!.trim() : 'image')));
  expect(order).toHaveLength(3);
  expect(order[1]).toBe('image');
  expect(order[2]).toMatch(/image above/i);
  await shot(page, 'tool-images-01-card-for-plain-model');

  await page.getByRole('button', { name: 'Conversation actions' }).click();
  await page.getByRole('menuitem', { name: /Images \(1\)/ }).click();
  await expect(page.getByTestId('conversation-gallery').getByRole('listitem')).toHaveCount(1);
  await page.keyboard.press('Escape');

  const second = chats()[1];
  expect(openaiView.images(second)).toEqual([]);
  expect(
    openaiView
      .toolResults(second)
      .map((r) => r.text)
      .join('\n'),
  ).toMatch(/\[image: image\/png, /);
});

test('a model whose provider lists it as taking images is sent the image', async () => {
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByTestId('model-picker').click();
  const item = page.getByRole('menuitem', { name: /openai:router\/seeing-model/ });
  await expect(item).toContainText('takes images');
  await page.keyboard.press('Escape');
  await ask('openai:router/seeing-model', 'Show me the tiny image');
  const images = openaiView.images(chats()[3]);
  expect(images).toHaveLength(1);
  expect(Buffer.from(images[0]!, 'base64').subarray(1, 4).toString()).toBe('PNG');
});

test('Settings > Models: the person says a model takes images, and the next turn sends it', async () => {
  await page.getByRole('button', { name: 'Models', exact: true }).click();
  const field = page.getByTestId('model-capabilities');
  await field.getByLabel('Model to set (provider:model)').fill('openai:local-plain');
  await field.getByRole('button', { name: 'Add' }).click();
  await expect(field.getByLabel('Images for openai:local-plain')).toHaveValue('yes');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('models-saved')).toBeVisible();
  await field.scrollIntoViewIfNeeded();
  await shot(page, 'tool-images-02-settings-models');
  await expectAccessible(page, 'Settings > Models');

  await ask('openai:local-plain', 'Show me the tiny image again');
  expect(openaiView.images(chats()[5])).toHaveLength(1);
});
