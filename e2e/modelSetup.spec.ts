// First start leads to a working model (ModelSetup.tsx, docs/chat.md): on a fresh home, with nothing on
// Ollama's port, the Chat says a model is needed and leads to the setup; there the person chooses where the
// model runs, checks it (the provider's own model list, from a scripted OpenAI-format server), picks one of
// the listed models, and the Chat answers with it. Screenshots of the changed screens, axe light and dark.
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openaiModelList, startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { expectAccessible } from './a11y';
import { startMooringWeb, type RunningWeb } from './harness';
import { openScreen } from './uiFlows';

test.describe.configure({ mode: 'serial' });

/** Where the lead looks at screenshots of the changed screens (created if missing). */
const SHOTS =
  process.env.MOORING_SHOTS ?? join(import.meta.dirname, '../test-results/screenshots/model-setup');

/** The models the scripted server lists, as LM Studio and llama.cpp list theirs (`/v1/models`). */
const LISTED = ['qwen2.5-7b-instruct', 'llama-3.1-8b-instruct', 'text-embedding-nomic'];

let web: RunningWeb;
let page: Page;
let model: FakeProviderServer;
let home: string;
const pageErrors: string[] = [];

test.beforeAll(async ({ browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  home = mkdtempSync(join(tmpdir(), 'mooring-e2e-setup-'));
  model = await startOpenAIServer([{ text: 'Hello from the model you picked.' }], {
    get: { '/v1/models': openaiModelList(LISTED, 'local') },
  });
  // A fresh home: no settings, no model chosen, no provider keys, and nobody on Ollama's port (9 refuses).
  web = await startMooringWeb(home, {
    env: {
      MOORING_MODEL: undefined,
      OPENAI_API_KEY: undefined,
      ANTHROPIC_API_KEY: undefined,
      MOORING_OPENAI_BASE_URL: undefined,
      MOORING_ANTHROPIC_BASE_URL: undefined,
      MOORING_OLLAMA_URL: 'http://127.0.0.1:9',
    },
  });
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);
});

test.afterAll(async () => {
  await page?.close();
  await model?.close();
  if (web) expect(await web.stop(), web.stderr()).toBe(0);
  expect(pageErrors).toEqual([]);
});

async function shots(name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [w, h] of [
      [1280, 800],
      [900, 700],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.screenshot({ path: join(SHOTS, `${name}-${w}x${h}-${scheme}.png`), fullPage: true });
    }
    await expectAccessible(page, `${name} (${scheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('first start: Chat says a model is needed, the setup checks a provider and picks a listed model, Chat answers', async () => {
  // The first screen (Servers) and the Chat say what is missing before anyone types.
  const note = page.getByTestId('model-needed-note');
  await expect(note).toContainText('Chat needs a model first');
  await shots('00-servers-needs-model');
  await openScreen(page, 'Chat');
  const needed = page.getByTestId('chat-setup');
  await expect(needed).toContainText('Chat needs a model first');
  await expect(page.getByTestId('chat-no-model')).toHaveCount(0);
  await shots('01-chat-needs-model');
  await needed.getByRole('button', { name: 'Set up a model' }).click();

  // The setup is open on Settings > Models: nothing is typed but the server's URL.
  await expect(page.getByRole('heading', { level: 1, name: 'Models', exact: true })).toBeVisible();
  const setup = page.getByTestId('model-setup');
  await expect(setup.getByRole('heading', { name: 'Set up a model' })).toBeVisible();
  await shots('02-setup-choose');
  await setup.getByRole('radio', { name: /Another OpenAI-compatible server/ }).check();
  await setup.getByLabel('Setup base URL').fill(`${model.url}/v1`);
  // Nothing to pick before the check.
  await expect(setup.getByRole('button', { name: /^Use / })).toBeDisabled();
  await setup.getByRole('button', { name: 'Check' }).click();
  await expect(setup.getByTestId('setup-check')).toHaveText('Reachable: 3 models.');
  const listed = setup.getByRole('radiogroup', { name: 'Models it lists' });
  for (const m of LISTED) await expect(listed.getByRole('radio', { name: m })).toBeVisible();
  await listed.getByRole('radio', { name: 'llama-3.1-8b-instruct' }).check();
  await shots('03-setup-pick');
  await setup.getByRole('button', { name: 'Use llama-3.1-8b-instruct' }).click();
  await expect(setup.getByTestId('setup-done')).toHaveText(
    'openai:llama-3.1-8b-instruct is the default model.',
  );
  // Saved where Settings keeps it: the provider and its URL in settings.json (no key: none was needed).
  const settings = JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')) as {
    providers: { default: string; openai: { baseUrl: string } };
  };
  expect(settings.providers).toMatchObject({ default: 'openai', openai: { baseUrl: `${model.url}/v1` } });
  // The form below shows the URL the setup saved, and its footer says there is nothing left to save.
  const formUrl = page.getByTestId('provider-openai').getByLabel('openai base URL');
  await expect(formUrl).toHaveValue(`${model.url}/v1`);
  await expect(page.getByTestId('models-clean')).toHaveText('Nothing to save: what you see here is in use.');
  await expect(page.getByTestId('models-unsaved')).toHaveCount(0);
  // An edit there is named unsaved until it is saved or put back.
  await formUrl.fill('http://127.0.0.1:9/v1');
  await expect(page.getByTestId('models-unsaved')).toHaveText('Unsaved changes');
  await shots('03b-form-unsaved');
  await formUrl.fill(`${model.url}/v1`);
  await expect(page.getByTestId('models-clean')).toBeVisible();

  await setup.getByRole('button', { name: 'Start chatting' }).click();
  await expect(page.getByTestId('chat-setup')).toHaveCount(0);
  await expect(page.getByLabel('Model (provider:model)')).toHaveValue('openai:llama-3.1-8b-instruct');
  await page.getByLabel('Message').fill('Hello?');
  await page.getByLabel('Message').press('Enter');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Hello from the model you picked.');
  const chat = model.requests.filter((r) => r.path === '/v1/chat/completions');
  expect(chat.at(-1)?.body.model).toBe('llama-3.1-8b-instruct');
});

test('once chosen, Models shows the default model and the setup stays closed until asked', async () => {
  await openScreen(page, 'Models');
  const setup = page.getByTestId('model-setup');
  await expect(setup.getByTestId('model-setup-current')).toHaveText('openai:llama-3.1-8b-instruct');
  await expect(setup.getByRole('heading', { name: 'Set up a model' })).toHaveCount(0);
  await shots('04-models-chosen');
  await setup.getByRole('button', { name: 'Set up another model…' }).click();
  await expect(setup.getByRole('heading', { name: 'Set up a model' })).toBeVisible();
});
