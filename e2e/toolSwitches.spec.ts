// A tool's switch and an open conversation (docs/chat.md, "A turn in the chat"): a tool turned on or
// off in Tools reaches the model from the next turn of a conversation already open, the chat says so in
// one line, and while nothing moved the model-facing tool block stays the same, byte for byte (prompt
// caches keep their prefix).
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { openaiView } from '../test/helpers/wireViews';
import { chatHome, closeChatApp, openChatApp, scriptedModelSettings, shot } from './chatHarness';
import { FILESYSTEM, type RunningWeb } from './harness';
import { openScreen } from './uiFlows';
import { expectAccessible } from './a11y';

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let page: Page;
let model: FakeProviderServer;
const pageErrors: string[] = [];

test.beforeAll(async ({ browser }) => {
  model = await startOpenAIServer([
    { text: 'First answer.' },
    { text: 'Second answer.' },
    { text: 'Third answer.' },
    { text: 'Fourth answer.' },
  ]);
  const { home } = chatHome(
    'switches',
    (d) => [{ name: 'fs', command: 'node', args: [FILESYSTEM, d.root], excludeTools: ['write_file'] }],
    scriptedModelSettings(model.url),
  );
  ({ web, page } = await openChatApp(browser, { home, ready: ['fs'], pageErrors }));
});

test.afterAll(() => closeChatApp({ page, model, web, pageErrors }));

/** The tools of each chat request, exactly as they went on the wire. */
const toolBlocks = () =>
  model.requests.filter((r) => r.method === 'POST').map((r) => JSON.stringify(r.body.tools));
const offered = (i: number) =>
  openaiView.toolNames(model.requests.filter((r) => r.method === 'POST')[i]!.body);

async function say(text: string, answer: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByLabel('Message').press('Enter');
  await expect(page.getByTestId('msg-assistant').last()).toContainText(answer);
}

async function switchWriteFile(on: boolean): Promise<void> {
  await openScreen(page, 'Tools');
  const sw = page.getByTestId('tool-write_file').getByRole('switch');
  await sw.click();
  await expect(sw).toBeChecked({ checked: on });
  await openScreen(page, 'Chat');
  await page.getByRole('button', { name: 'List my folder', exact: true }).click();
}

test('a tool switched on and off mid-conversation reaches the next turn, said in one line; nothing else moves', async () => {
  await openScreen(page, 'Chat');
  await page.getByRole('button', { name: 'New conversation' }).click();
  await say('List my folder', 'First answer.');
  expect(offered(0)).not.toContain('mcp__fs__write_file');
  expect(offered(0)).toContain('mcp__fs__list_directory');

  await switchWriteFile(true);
  await say('Now write a note', 'Second answer.');
  await expect(page.getByTestId('msg-note')).toHaveText(['write_file is now on.']);
  expect(offered(1)).toContain('mcp__fs__write_file');
  await shot(page, 'tool-switches-01-now-on');

  // Nothing switched: the same block, byte for byte, and no new line.
  await say('And again', 'Third answer.');
  expect(toolBlocks()[2]).toBe(toolBlocks()[1]);
  await expect(page.getByTestId('msg-note')).toHaveCount(1);

  await switchWriteFile(false);
  await say('Stop writing', 'Fourth answer.');
  await expect(page.getByTestId('msg-note')).toHaveText(['write_file is now on.', 'write_file is now off.']);
  expect(offered(3)).not.toContain('mcp__fs__write_file');
  // Back to the first block exactly: a switch moves only its own tool.
  expect(toolBlocks()[3]).toBe(toolBlocks()[0]);
});

test("the composer's tools control counts what the conversation gets, says why the rest is off, and follows a switch", async () => {
  await openScreen(page, 'Chat');
  await page.getByRole('button', { name: 'New conversation' }).click();
  const control = page.getByRole('button', { name: /^Tools for this conversation/ });
  await control.click();
  const tools = page.getByTestId('chat-tools');
  const fs = tools.getByTestId('chat-tools-fs');
  await expect(fs).toContainText('1 destructive, off until you turn them on');
  const [, on, total] = /(\d+) of (\d+) on/.exec((await fs.textContent()) ?? '')!.map(Number);
  expect(on).toBe(total! - 1);
  await expect(tools.getByTestId('chat-tools-mode')).toHaveText(
    `${on} tools from 1 server go with each message.`,
  );
  await expect(control).toHaveAccessibleName(`Tools for this conversation: ${on} tools`);
  await shot(page, 'chat-tools-1280');
  await expectAccessible(page, 'the tools control');
  await page.setViewportSize({ width: 900, height: 700 });
  await shot(page, 'chat-tools-900');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Its way to the switches: the Tools screen; write_file on, and the control counts it.
  await tools.getByRole('button', { name: 'Turn tools on or off' }).click();
  const sw = page.getByTestId('tool-write_file').getByRole('switch');
  await sw.click();
  await expect(sw).toBeChecked();
  await openScreen(page, 'Chat');
  await expect(control).toHaveAccessibleName(`Tools for this conversation: ${on! + 1} tools`);
  await control.click();
  await expect(tools.getByTestId('chat-tools-fs')).toHaveText(`fs ${total} of ${total} on`);
  await page.keyboard.press('Escape');
  await openScreen(page, 'Tools');
  await page.getByTestId('tool-write_file').getByRole('switch').click();
  await expect(page.getByTestId('tool-write_file').getByRole('switch')).not.toBeChecked();
});
