// Resources attached to a chat message, end to end (docs/chat.md, "A turn in the chat"): `@` in the
// composer and the "Attach resource" button, against a real `mooring web` child with server-everything
// (from node_modules) and the catalog fixture server (a template whose variables complete), and a local
// server speaking the OpenAI wire format as the model; what the model was sent is read back from its
// recorded requests. Each step waits for what the app shows, never sleeps; axe checks the open picker.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { expectAccessible } from './a11y';
import { chatHome, closeChatApp, openChatApp, scriptedModelSettings, shot } from './chatHarness';
import { EVERYTHING, ROOT, type RunningWeb } from './harness';
import { openScreen } from './uiFlows';

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let page: Page;
let model: FakeProviderServer;
const pageErrors: string[] = [];
const ARCHITECTURE = 'demo://resource/static/document/architecture.md';

test.beforeAll(async ({ browser }) => {
  const { home } = chatHome('atpicker', () => [
    { name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'] },
    {
      name: 'catalog',
      command: 'node',
      args: [join(ROOT, 'test/fixtures/runTs.mjs'), join(ROOT, 'test/fixtures/servers/catalogServer.ts')],
    },
  ]);
  model = await startOpenAIServer([{ text: 'It is about the architecture.' }, { text: 'Highlands, noted.' }]);
  writeFileSync(join(home, 'settings.json'), JSON.stringify(scriptedModelSettings(model.url)));
  ({ web, page } = await openChatApp(browser, { home, ready: ['everything', 'catalog'], pageErrors }));
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: 'New conversation' }).click();
});

test.afterAll(() => closeChatApp({ page, model, web, pageErrors }));

/** The user messages of the model's last request, as JSON text. */
const lastAsked = () => {
  const body = model.requests.filter((r) => r.method === 'POST').at(-1)!.body as {
    messages: { role: string; content: unknown }[];
  };
  return body.messages
    .filter((m) => m.role === 'user')
    .map((m) => JSON.stringify(m.content))
    .join('\n');
};

test("@ lists the servers' resources, filters as you type, picks with the keyboard; the model gets the text", async () => {
  const box = page.getByLabel('Message');
  await box.pressSequentially('Explain @');
  const picker = page.getByTestId('resource-picker');
  const list = picker.getByRole('listbox', { name: 'Resources to attach' });
  // Grouped by server: each server that offers resources is a group of options.
  await expect(list.getByRole('group', { name: 'everything' })).toBeVisible();
  await expect(list.getByRole('group', { name: 'catalog' })).toBeVisible();
  // The message box is the combobox's field: it names the active option, and the arrow keys move it.
  const options = list.getByRole('option');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await box.press('ArrowDown');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', (await options.nth(1).getAttribute('id'))!);
  await box.press('ArrowUp');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await shot(page, 'atpicker-0-every-server');

  await box.pressSequentially('arch');
  await expect(list.getByRole('group')).toHaveCount(1);
  await expect(options).toHaveCount(1);
  await expect(options.first()).toContainText('architecture.md');
  await expect(options.first()).toContainText(ARCHITECTURE);
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', (await options.first().getAttribute('id'))!);
  await expectAccessible(page, 'the @ picker');
  await shot(page, 'atpicker-1-open');

  // Escape closes the picker and leaves the text; editing the same word keeps it closed.
  await box.press('Escape');
  await expect(picker).toBeHidden();
  await expect(box).toHaveValue('Explain @arch');
  await box.press('Backspace');
  await expect(box).toHaveValue('Explain @arc');
  await expect(picker).toBeHidden();
  // A new `@` opens it again; Enter picks the active option.
  await box.pressSequentially(' @ARCH');
  await expect(options.first()).toContainText('architecture.md');
  await box.press('Enter');

  // The pick took the @word out and became a chip; Enter sent nothing yet.
  await expect(picker).toBeHidden();
  await expect(box).toHaveValue('Explain @arc ');
  const chips = page.getByTestId('attachments').getByTestId('resource-chip');
  await expect(chips).toHaveCount(1);
  await expect(chips.first()).toContainText('everything · architecture.md');
  await expect(chips.first()).toHaveAttribute('title', new RegExp(ARCHITECTURE));
  await box.fill('Explain this');
  await box.press('Enter');

  const sent = page.getByTestId('msg-user').last();
  await expect(sent.getByTestId('resource-chip')).toContainText('everything · architecture.md');
  await expect(sent).toContainText('Explain this');
  // The resource's text went to the model, not into the bubble.
  await expect(sent).not.toContainText('Everything Server – Architecture');
  await expect(page.getByTestId('msg-markdown').last()).toHaveText('It is about the architecture.');
  const asked = lastAsked();
  expect(asked).toContain('Explain this');
  expect(asked).toContain(`Resource ${ARCHITECTURE} from \\"everything\\"`);
  expect(asked).toContain('Everything Server – Architecture');
  await expect(page.getByTestId('attachments')).toBeHidden();
  // The turn has ended when the answer shows its model at its foot.
  await expect(page.getByTestId('msg-assistant').last().getByText('gpt-4o')).toBeVisible();
  await expect(sent.getByTestId('resource-chip')).toBeVisible();
  await shot(page, 'atpicker-2-sent-chip');
});

test('a template picked from the Attach resource button asks for its variables with completions; its URI is attached', async () => {
  await page.getByRole('button', { name: 'Attach resource' }).click();
  const search = page.getByRole('combobox', { name: 'Find a resource' });
  await expect(search).toBeFocused();
  await search.fill('catalog item');
  const option = page.getByTestId('resource-picker').getByRole('option');
  await expect(option).toHaveCount(1);
  await expect(option).toContainText('catalog://{shelf}/{item}');
  await expect(option).toContainText('template');
  await expectAccessible(page, 'the Attach resource picker');
  await search.press('Enter');

  const form = page.getByTestId('template-attach');
  const shelf = form.getByRole('combobox', { name: 'shelf' });
  await expect(shelf).toBeFocused();
  await shelf.pressSequentially('m');
  const shelves = form.getByRole('listbox', { name: 'Suggestions for shelf' });
  await expect(shelves.getByRole('option')).toHaveText(['maps', 'music']);
  await shelves.getByRole('option', { name: 'maps' }).click();
  await expect(shelf).toHaveValue('maps');
  const item = form.getByRole('combobox', { name: 'item' });
  await item.focus();
  // The item's suggestions are the chosen shelf's (the completion request's context).
  await expect(form.getByRole('listbox', { name: 'Suggestions for item' }).getByRole('option')).toHaveText([
    'harbour',
    'highlands',
  ]);
  await shot(page, 'atpicker-3-template');
  await item.press('ArrowDown');
  await item.press('ArrowDown');
  await item.press('Enter');
  await expect(item).toHaveValue('highlands');
  await form.getByRole('button', { name: 'Attach' }).click();
  await expect(form).toBeHidden();
  const chips = page.getByTestId('attachments').getByTestId('resource-chip');
  await expect(chips).toHaveText(['catalog · catalog://maps/highlands']);

  await page.getByLabel('Message').fill('Which one?');
  await page.getByLabel('Message').press('Enter');
  await expect(page.getByTestId('msg-markdown').last()).toHaveText('Highlands, noted.');
  expect(lastAsked()).toContain('The highlands from maps.');
  await expect(page.getByTestId('msg-user').last().getByTestId('resource-chip')).toHaveText(
    'catalog · catalog://maps/highlands',
  );
});

test('a resource that cannot be read fails the send with a clear error and keeps the draft; chips go with ✕ or Backspace', async () => {
  const asked = model.requests.length;
  // server-everything's text template takes only a positive integer: anything else cannot be read.
  await page.getByRole('button', { name: 'Attach resource' }).click();
  await page.getByRole('combobox', { name: 'Find a resource' }).fill('Dynamic Text');
  await page.getByRole('combobox', { name: 'Find a resource' }).press('Tab');
  const form = page.getByTestId('template-attach');
  await form.getByRole('combobox', { name: 'resourceId' }).fill('nope');
  await form.getByRole('button', { name: 'Attach' }).click();
  const box = page.getByLabel('Message');
  await box.fill('Read it');
  await box.press('Enter');
  const error = page.getByTestId('send-error');
  await expect(error).toContainText('Could not attach demo://resource/dynamic/text/nope from "everything"');
  await expect(box).toHaveValue('Read it');
  const chips = page.getByTestId('attachments').getByTestId('resource-chip');
  await expect(chips).toHaveText(['everything · demo://resource/dynamic/text/nope']);
  expect(model.requests.length).toBe(asked);

  // Another chip, then: ✕ removes the one it is on, Backspace at the start of the box the last.
  await box.press('Home');
  await box.pressSequentially('@instr');
  // The mouse picks too, and the message box keeps the focus.
  await page
    .getByTestId('resource-picker')
    .getByRole('option', { name: /instructions\.md/ })
    .click();
  await expect(box).toBeFocused();
  await expect(chips).toHaveCount(2);
  await expect(box).toHaveValue('Read it');
  await chips.first().getByRole('button', { name: 'Remove demo://resource/dynamic/text/nope' }).click();
  await expect(chips).toHaveText(['everything · instructions.md']);
  await box.focus();
  await box.press('Home');
  await box.press('Backspace');
  await expect(chips).toHaveCount(0);
  await expect(box).toHaveValue('Read it');
});

test('with no server offering resources the picker says so and opens the Resources screen', async () => {
  await openScreen(page, 'Servers');
  for (const name of ['everything', 'catalog']) {
    const row = page.getByTestId(`server-${name}`);
    await row.getByRole('switch', { name: `Enable ${name}` }).click();
    await expect(row.getByTestId('server-state')).toHaveText('disabled');
  }
  await openScreen(page, 'Chat');
  await page.getByLabel('Message').pressSequentially('@');
  const empty = page.getByTestId('resource-picker-empty');
  await expect(empty).toContainText('No connected server offers resources or skills.');
  await page.getByLabel('Message').press('Escape');
  await expect(empty).toBeHidden();
  await page.getByRole('button', { name: 'Attach resource' }).click();
  await expect(empty).toBeVisible();
  await expectAccessible(page, 'the picker with nothing to attach');
  await empty.getByRole('button', { name: 'Open Resources' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Resources', exact: true })).toBeVisible();
});
