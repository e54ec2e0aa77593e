// The chat in a narrow window (src-renderer/src/screens/chat/listPanel.ts, chat.css "The header"): the
// conversation list folds away behind a button with aria-expanded and Mod+Shift+S, is hidden by default
// below 1100 px and lies over the conversation there, and each size remembers its own choice across
// reloads; the header keeps the title and the model on one row, the project folder and the tool set behind
// one button. A real `mooring web` child with server-everything and a local server speaking the OpenAI
// wire format as the model; at 1280×800, 900×700 and 760×700, light and dark, nothing overflows sideways
// and axe finds nothing serious.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { expectAccessible } from './a11y';
import { chatHome, longConversation, openChatApp, scriptedModelSettings, shot } from './chatHarness';
import { EVERYTHING, type RunningWeb } from './harness';
import { openScreen, sidewaysOverflow } from './uiFlows';

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let page: Page;
let root: string;
let model: FakeProviderServer;
const pageErrors: string[] = [];

test.beforeAll(async ({ browser }) => {
  const dirs = chatHome('narrow', () => [
    { name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'] },
  ]);
  root = dirs.root;
  model = await startOpenAIServer([{ text: 'Hello.' }]);
  writeFileSync(
    join(dirs.home, 'settings.json'),
    JSON.stringify({
      ...scriptedModelSettings(model.url),
      toolSets: [{ name: 'Readers', tools: ['mcp__everything__echo'] }],
    }),
  );
  longConversation(dirs.home, 'long-one', 6);
  ({ web, page } = await openChatApp(browser, { home: dirs.home, ready: ['everything'], pageErrors }));
  await openScreen(page, 'Chat');
  await page.getByRole('button', { name: 'A long conversation', exact: true }).click();
  await expect(page.getByText('Answer number 5', { exact: true })).toBeVisible();
});

test.afterAll(async () => {
  await page?.context().close();
  expect(pageErrors).toEqual([]);
  await model?.close();
  if (web) expect(await web.stop(), web.stderr()).toBe(0);
});

const list = () => page.getByRole('complementary', { name: 'Conversations' });
const toggle = () => page.getByRole('button', { name: 'Conversation list' });

test('the conversation list folds away: a button with aria-expanded, Mod+Shift+S, remembered across reloads', async () => {
  // Wide: shown by default, beside the chat.
  await expect(list()).toBeVisible();
  await expect(toggle()).toHaveAttribute('aria-expanded', 'true');
  await toggle().click();
  await expect(list()).toBeHidden();
  await expect(toggle()).toHaveAttribute('aria-expanded', 'false');
  // Hidden, the list's "New conversation" moves into the header (one such button at a time).
  await expect(page.getByRole('button', { name: 'New conversation' })).toHaveCount(1);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'New conversation' })).toBeVisible();
  await expect(toggle()).toHaveAttribute('aria-expanded', 'false');
  await expect(list()).toBeHidden();
  await page.keyboard.press('Control+Shift+S');
  await expect(list()).toBeVisible();
  await expect(toggle()).toBeFocused();
  await expect(toggle()).toHaveAttribute('aria-expanded', 'true');
  await page.getByRole('button', { name: 'A long conversation', exact: true }).click();

  // Narrow: hidden by default, over the conversation when shown; picking one folds it again.
  await page.setViewportSize({ width: 900, height: 700 });
  await expect(list()).toBeHidden();
  await page.keyboard.press('Control+K');
  await expect(page.getByLabel('Search conversations')).toBeFocused();
  await expect(list()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(list()).toBeHidden();
  await expect(toggle()).toBeFocused();
  await toggle().click();
  await expect(list()).toBeVisible();
  await shot(page, 'narrow-list-over-chat-900');
  await expectAccessible(page, 'Chat at 900×700, the list shown over it');
  await page.getByRole('button', { name: 'A long conversation', exact: true }).click();
  await expect(list()).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'A long conversation' })).toBeVisible();

  // Each size keeps its own choice: back to wide, the list is shown as it was left there.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(list()).toBeVisible();
});

test('the project folder and the tool set sit behind one button; the folder is saved with the conversation', async () => {
  const button = page.getByRole('button', { name: /^Project folder and tools:/ });
  await expect(button).toHaveAccessibleName('Project folder and tools: No folder');
  await button.click();
  const popover = page.getByTestId('chat-context');
  await expect(page.getByLabel('Project folder', { exact: true })).toBeFocused();
  await page.getByLabel('Project folder', { exact: true }).fill(root);
  await popover.getByLabel('Tool set').selectOption('Readers');
  await expectAccessible(page, 'Chat, the project folder popover open');
  await shot(page, 'narrow-folder-popover');
  await page.keyboard.press('Escape');
  await expect(popover).toBeHidden();
  await expect(button).toBeFocused();
  const folderName = root.split('/').pop()!;
  await expect(button).toHaveAccessibleName(`Project folder and tools: ${folderName}, Readers`);
  // The folder was saved with the conversation: opened again after a reload, it shows it.
  await page.reload();
  await page.getByRole('button', { name: 'A long conversation', exact: true }).click();
  await expect(page.getByRole('button', { name: /^Project folder and tools:/ })).toHaveAccessibleName(
    new RegExp(`^Project folder and tools: ${folderName}`),
  );
});

test('1280×800, 900×700 and 760×700, light and dark: one-row header where it fits, nothing sideways, axe clean', async () => {
  const head = page.locator('.chat-head');
  const title = page.getByRole('heading', { level: 1, name: 'A long conversation' });
  const modelField = page.getByLabel('Model (provider:model)');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [w, h] of [
      [1280, 800],
      [900, 700],
      [760, 700],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await expect(modelField).toBeVisible();
      expect(await sidewaysOverflow(page), `the chat at ${w}px overflows sideways`).toBeLessThanOrEqual(0);
      expect(await head.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
      if (w >= 900) {
        // One row: the title and the model field share a line.
        const [t, m] = [(await title.boundingBox())!, (await modelField.boundingBox())!];
        expect(m.y, `the header wraps at ${w}px`).toBeLessThan(t.y + t.height);
      }
      await expectAccessible(page, `Chat (${scheme}, ${w}×${h})`);
      await shot(page, `narrow-${scheme}-${w}x${h}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
});

test('the header in tab order: list, new conversation, model, Choose, folder, actions, shortcuts', async () => {
  await page.setViewportSize({ width: 900, height: 700 });
  await toggle().focus();
  const names: string[] = [];
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    names.push(
      await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        return el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '';
      }),
    );
  }
  expect(names).toEqual([
    'New conversation',
    'Model (provider:model)',
    'Choose',
    expect.stringMatching(/^Project folder and tools:/),
    'Conversation actions',
    'Keyboard shortcuts',
  ]);
  await page.setViewportSize({ width: 1280, height: 800 });
});
