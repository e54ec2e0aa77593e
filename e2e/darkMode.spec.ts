// Dark mode end to end: the OS asks for dark (prefers-color-scheme, ui/tokens.css) and every screen of the
// sidebar, the chat's tool card, an attached resource, an MCP App view's frame and the Add server dialog are
// checked by axe (no serious or critical violation, contrast included) against a real `mooring web` child
// with server-everything and server-filesystem from node_modules, the apps fixture server and a local
// server speaking the OpenAI wire format as the model. Each step waits for what the app shows, never sleeps.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { expectAccessible } from './a11y';
import { chatHome, openChatApp, scriptedModelSettings, shot } from './chatHarness';
import { APPS_SERVER, EVERYTHING, FILESYSTEM, type RunningWeb } from './harness';
import { everyScreen, openScreen } from './uiFlows';

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let page: Page;
let model: FakeProviderServer;
const pageErrors: string[] = [];

test.beforeAll(async ({ browser }) => {
  const { home, root } = chatHome('dark', (dirs) => [
    { name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'] },
    { name: 'files', command: 'node', args: [FILESYSTEM, dirs.root] },
    APPS_SERVER,
  ]);
  model = await startOpenAIServer([
    { text: 'Let me look.', toolCalls: [{ name: 'mcp__files__list_directory', arguments: { path: root } }] },
    { text: 'The folder holds **alpha.txt** and **beta.md**.' },
    { text: 'It describes the architecture.' },
    { text: 'Here is a counter.', toolCalls: [{ name: 'mcp__apps__show_counter', arguments: { start: 3 } }] },
    { text: 'The counter is on screen.' },
  ]);
  writeFileSync(join(home, 'settings.json'), JSON.stringify(scriptedModelSettings(model.url)));
  ({ web, page } = await openChatApp(browser, { home, ready: ['everything', 'files', 'apps'], pageErrors }));
  await page.emulateMedia({ colorScheme: 'dark' });
});

test.afterAll(async () => {
  await page?.context().close();
  expect(pageErrors).toEqual([]);
  await model?.close();
  if (web) expect(await web.stop(), web.stderr()).toBe(0);
});

const send = async (text: string) => {
  await page.getByLabel('Message').fill(text);
  await page.getByLabel('Message').press('Enter');
};

test('the chat in dark: a tool card, the @ picker, an attached resource and an MCP App view', async () => {
  expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
  await openScreen(page, 'Chat');
  await page.getByRole('button', { name: 'New conversation' }).click();
  await send('What is in my folder?');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('The folder holds alpha.txt');
  await expectAccessible(page, 'Chat with a tool card (dark)');

  await page.getByLabel('Message').pressSequentially('Explain @arch');
  const picker = page.getByTestId('resource-picker');
  await expect(picker.getByRole('option', { name: /architecture\.md/ })).toBeVisible();
  await expectAccessible(page, 'Chat, the @ picker open (dark)');
  await shot(page, 'dark-chat-picker');
  await page.getByLabel('Message').press('Enter');
  await page.getByLabel('Message').press('Enter');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('It describes the architecture.');
  await expectAccessible(page, 'Chat with an attached resource (dark)');

  // A new conversation: this one has read files, and the counter's server is another (a flow, which asks).
  await page.getByRole('button', { name: 'New conversation' }).click();
  await send('Show me a counter');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('The counter is on screen.');
  const view = page.getByTestId('app-view').last();
  await expect(view).toBeVisible();
  // The view's frame is the host's: its bar takes the theme's surface, not a light fallback.
  const [bar, surface] = await Promise.all([
    view.evaluate((el) => getComputedStyle(el).backgroundColor),
    page.evaluate(() => {
      const probe = document.body.appendChild(document.createElement('div'));
      probe.style.background = 'var(--color-surface)';
      const colour = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return colour;
    }),
  ]);
  expect(bar).toBe(surface);
  await expectAccessible(page, 'Chat with an MCP App view (dark)');
  await shot(page, 'dark-chat-app-view');
});

test('the Add server dialog in dark: one answer at a time, Test or Save', async () => {
  await openScreen(page, 'Servers');
  await page.getByRole('button', { name: 'Add server' }).click();
  const form = page.getByTestId('server-form');
  await form.getByLabel('Name', { exact: true }).fill('broken');
  await form.getByRole('button', { name: 'Test' }).click();
  await expect(form.getByTestId('test-error')).toContainText('needs a command');
  // Save answers the same: its error replaces Test's instead of showing under it.
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByTestId('save-error')).toContainText('needs a command');
  await expect(form.getByTestId('test-error')).toHaveCount(0);
  await expectAccessible(page, 'Add a server, with an error (dark)');
  await shot(page, 'dark-add-server-error');
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(form).toBeHidden();
});

test('every screen in dark at 1280×800 and 900×700: axe finds nothing serious, nothing overflows sideways', async () => {
  // A deadline, not a speed judgement: two axe runs per screen grow with every screen added.
  test.setTimeout(360_000);
  await everyScreen(page, async (label, w, h) => {
    await expectAccessible(page, `${label} (dark, ${w}×${h})`);
    await shot(page, `dark-${label.toLowerCase().replace(/ /g, '-')}-${w}x${h}`);
  });
});
