// The smaller things a person notices, end to end in Chromium against a real `mooring web`: the no-model
// banner names the provider that is down; Tools shows a tool's description and schema, and its switch
// keeps the keyboard's focus; the chat's conversations are one tab stop each; Settings > Appearance
// switches the theme at once and keeps it; Settings > Limits sets a server's message size; the add form
// folds its advanced fields. Each changed screen is looked at in light and dark, 1280×800 and 900×700,
// with axe on each.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './a11y';
import { chatHome, closeChatApp, openChatApp } from './chatHarness';
import { FILESYSTEM, type RunningWeb } from './harness';
import { openScreen } from './uiFlows';

test.describe.configure({ mode: 'serial' });

/** Screenshots the lead looks at (outside test-results, which a run clears). */
const LOOKED_AT = process.env.MOORING_SHOTS_DIR ?? join(import.meta.dirname, '../test-results/everyday-ui');
let web: RunningWeb;
let page: Page;
let home: string;
const pageErrors: string[] = [];

/** A saved conversation of one question and its answer, the way the store writes one. */
function conversation(id: string, title: string, at: number) {
  const dir = join(home, 'conversations');
  mkdirSync(dir, { recursive: true });
  const lines = [
    { kind: 'meta', id, title, createdAt: at, workspace: null },
    {
      kind: 'message',
      message: { id: `${id}-u`, at, role: 'user', content: [{ type: 'text', text: title }] },
    },
    {
      kind: 'message',
      message: { id: `${id}-a`, at: at + 1, role: 'assistant', text: 'Answered.', toolCalls: [] },
    },
  ];
  writeFileSync(join(dir, `${id}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

test.beforeAll(async ({ browser }) => {
  mkdirSync(LOOKED_AT, { recursive: true });
  // The default model is on an OpenAI-compatible endpoint where nothing listens (port 9, discard).
  ({ home } = chatHome('everyday', (d) => [{ name: 'fs', command: 'node', args: [FILESYSTEM, d.root] }], {
    providers: { default: 'openai', openai: { baseUrl: 'http://127.0.0.1:9/v1' } },
  }));
  conversation('c-older', 'Plan the trip', Date.now() - 60_000);
  conversation('c-newer', 'Sort the photos', Date.now() - 30_000);
  ({ web, page } = await openChatApp(browser, { home, ready: ['fs'], pageErrors }));
});

test.afterAll(() => closeChatApp({ page, web, pageErrors }));

const theme = () => page.evaluate(() => document.documentElement.dataset.theme);

/** The screen as it is, at both sizes, in the theme it shows now; axe on each. */
async function look(name: string) {
  const now = await theme();
  for (const [w, h] of [
    [1280, 800],
    [900, 700],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.evaluate(
      () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))),
    );
    await expectAccessible(page, `${name} (${now}, ${w}×${h})`);
    await page.screenshot({ path: join(LOOKED_AT, `${name}-${now}-${w}x${h}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('the banner names the provider that is down, not Ollama', async () => {
  await openScreen(page, 'Chat');
  await page.getByRole('button', { name: 'New conversation' }).first().click();
  const banner = page.getByTestId('chat-no-model');
  await expect(banner).toHaveAttribute('data-provider', 'openai');
  await expect(banner).toContainText('The OpenAI-compatible endpoint is not reachable (openai:gpt-4o)');
  await expect(banner).toContainText('check its address and key (OPENAI_API_KEY)');
  await expect(banner).not.toContainText('Ollama');
  await look('chat-no-model');
});

test('each conversation is one tab stop; F2 renames, Delete deletes, the arrows move', async () => {
  await openScreen(page, 'Chat');
  const list = page.getByTestId('conversation-list');
  const newer = list.getByRole('button', { name: 'Sort the photos', exact: true });
  const older = list.getByRole('button', { name: 'Plan the trip', exact: true });
  await newer.focus();
  await expect(newer).toHaveAccessibleDescription(/F2 renames the conversation, Delete deletes it/);
  await page.keyboard.press('Tab');
  await expect(older).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(newer).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(older).toBeFocused();
  await page.keyboard.press('F2');
  const rename = page.getByTestId('rename-dialog');
  await expect(rename.getByLabel('Title')).toHaveValue('Plan the trip');
  await page.keyboard.press('Escape');
  await expect(rename).toBeHidden();
  await older.focus();
  await page.keyboard.press('Delete');
  const remove = page.getByTestId('delete-dialog');
  await expect(remove).toContainText('“Plan the trip” and every message in it will be deleted');
  await remove.getByRole('button', { name: 'Keep it' }).click();
  await expect(remove).toBeHidden();
  await look('chat-conversations');
});

test("Tools: a tool's name opens its description and input schema; Space on its switch keeps the focus", async () => {
  await openScreen(page, 'Tools');
  const tool = page.getByTestId('tool-list_directory');
  const name = tool.getByRole('button', { expanded: false });
  await name.click();
  await expect(tool.getByRole('button', { expanded: true })).toBeVisible();
  const details = tool.getByTestId('tool-details');
  await expect(details).toContainText('Input schema');
  await expect(details.getByLabel('Input schema of list_directory')).toContainText('"path"');
  await expect(details.locator('.tool-description')).not.toBeEmpty();
  await look('tools-details');

  const toggle = page.getByRole('switch', { name: 'Enable list_directory', exact: true });
  await toggle.focus();
  await expect(toggle).toBeChecked();
  await page.keyboard.press('Space');
  await expect(toggle).not.toBeChecked();
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Space');
  await expect(toggle).toBeChecked();
  await expect(toggle).toBeFocused();
});

test("Settings > Limits: a local server's message size, with its command, saved in its entry", async () => {
  await openScreen(page, 'Limits');
  const row = page.getByTestId('limit-message-fs');
  await expect(row.getByLabel('fs (MB)')).toHaveValue('32');
  await row.getByLabel('fs (MB)').fill('48');
  await expect(row.locator('code')).toHaveText('mooring mcp set fs maxMessageMB 48');
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(row.getByRole('status')).toHaveText('Saved.');
  const servers = JSON.parse(readFileSync(join(home, 'mcp_servers.json'), 'utf8')) as {
    servers: { name: string; maxMessageMB?: number }[];
  };
  expect(servers.servers.find((s) => s.name === 'fs')?.maxMessageMB).toBe(48);
  await look('limits');
});

test('the add form folds log level, sampling budget and message size under Advanced', async () => {
  await openScreen(page, 'Servers');
  await page.getByRole('button', { name: 'Add server' }).click();
  const form = page.getByTestId('server-form');
  await expect(form.getByLabel('Log level')).toBeHidden();
  await look('server-form');
  await form.getByText('Advanced', { exact: true }).click();
  await expect(form.getByLabel('Log level')).toBeVisible();
  await expect(form.getByLabel('Sampling budget (tokens per hour)')).toBeVisible();
  await expect(form.getByLabel('Message size limit (MB)')).toBeVisible();
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(form).toBeHidden();
});

test('a server that fails its first start says so, with its Logs a click away', async () => {
  await openScreen(page, 'Servers');
  await page.getByRole('button', { name: 'Add server' }).click();
  const form = page.getByTestId('server-form');
  await form.getByRole('tab', { name: 'JSON' }).click();
  await form
    .getByLabel('Server JSON')
    .fill(JSON.stringify({ name: 'broken', command: 'node', args: [join(home, 'no-such-server.js')] }));
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByTestId('server-broken').getByTestId('server-state')).toHaveText('failed');
  const said = page.getByTestId('toast').filter({ hasText: 'broken failed to start' });
  await expect(said).toBeVisible();
  await expect(page.getByTestId('toast').filter({ hasText: 'has not connected yet' })).toHaveCount(0);
  await said.getByRole('button', { name: 'Open its Logs' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Logs' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'broken' })).toHaveAttribute('aria-selected', 'true');
  await openScreen(page, 'Servers');
  await page.getByTestId('server-broken').getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('button', { name: 'Remove', exact: true }).last().click();
  await expect(page.getByTestId('server-broken')).toHaveCount(0);
});

test('Settings > Appearance: system, light or dark, applied at once and kept', async () => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openScreen(page, 'Appearance');
  await expect(page.getByRole('radio', { name: /^System/ })).toBeChecked();
  expect(await theme()).toBe('light');
  await look('appearance');
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await background();

  await page.getByRole('radio', { name: /^Dark/ }).check();
  expect(await theme()).toBe('dark');
  expect(await background()).not.toBe(light);
  await expect
    .poll(() => (JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')) as { theme?: string }).theme)
    .toBe('dark');
  // Kept: a new page of the same sign-in opens dark while the OS says light.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Appearance' })).toBeVisible();
  await expect.poll(theme).toBe('dark');
  await look('appearance');

  // The changed screens in the dark theme.
  await openScreen(page, 'Chat');
  await page.getByRole('button', { name: 'New conversation' }).first().click();
  await expect(page.getByTestId('chat-no-model')).toBeVisible();
  await look('chat-no-model');
  await openScreen(page, 'Tools');
  await page.getByTestId('tool-list_directory').getByRole('button', { expanded: false }).click();
  await look('tools-details');
  await openScreen(page, 'Limits');
  await look('limits');
  await openScreen(page, 'Servers');
  await page.getByRole('button', { name: 'Add server' }).click();
  await page.getByTestId('server-form').getByText('Advanced', { exact: true }).click();
  await look('server-form');
  await page.getByTestId('server-form').getByRole('button', { name: 'Cancel' }).click();

  // Light holds whatever the OS says; System follows it.
  await openScreen(page, 'Appearance');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByRole('radio', { name: /^Light/ }).check();
  expect(await theme()).toBe('light');
  await page.getByRole('radio', { name: /^System/ }).check();
  expect(await theme()).toBe('dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(theme).toBe('light');
});
