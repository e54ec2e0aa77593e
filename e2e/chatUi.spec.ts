// The chat as a person uses it, end to end (docs/chat.md, "A turn in the chat"): Markdown answers,
// message actions, the keyboard, the model picker, attachments, export and import. A real `mooring web`
// child with server-everything, and a local server speaking the OpenAI wire format as a scripted model
// (test/fixtures/providers); what the model was sent is read back from its recorded requests.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { chatHome, closeChatApp, openChatApp, scriptedModelSettings, shot } from './chatHarness';
import { expectAccessible } from './a11y';
import { EVERYTHING, FILESYSTEM, type RunningWeb } from './harness';

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let page: Page;
let root: string;
let home: string;
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
  `const answer = 42; // ${'a comment long enough to scroll sideways under the copy button '.repeat(3)}`,
  '```',
  '',
  'Math in LaTeX delimiters: \\(a^2 + b^2 = c^2\\), and displayed:',
  '',
  '\\[',
  '\\int_0^1 x\\,dx',
  '\\]',
  '',
  'Prices stay text: $5 and $10.',
  '',
  'Unsafe bits stay text: <script>window.pwned = 1</script> <img src=x onerror="window.pwned = 2">',
].join('\n');

test.beforeAll(async ({ browser }) => {
  ({ home, root } = chatHome('chatui', (d) => [
    { name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'] },
    { name: 'fs', command: 'node', args: [FILESYSTEM, d.root] },
  ]));
  model = await startOpenAIServer([
    { text: RICH },
    {
      toolCalls: [
        { name: 'mcp__everything__echo', arguments: { message: '<img src=x onerror="window.pwned = 3">' } },
      ],
    },
    { text: 'Echoed.' },
    { text: 'Blue.' },
    { text: 'Apple.' },
    { text: 'Banana.' },
    { toolCalls: [{ name: 'mcp__fs__write_file', arguments: { path: 'denied.txt', content: 'no' } }] },
    { text: 'You said no.' },
    { toolCalls: [{ name: 'mcp__fs__write_file', arguments: { path: 'allowed.txt', content: 'yes' } }] },
    { text: 'Written.' },
    { text: 'A tiny red square, and your notes.' },
    { text: 'Yes.' },
    { text: 'Thinking for a long while', hang: true },
  ]);
  writeFileSync(join(home, 'settings.json'), JSON.stringify(scriptedModelSettings(model.url)));
  ({ web, page } = await openChatApp(browser, { home, ready: ['everything', 'fs'], pageErrors }));
});

test.afterAll(() => closeChatApp({ page, model, web, pageErrors }));

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
  // The copy button sits above the code, never over a line that scrolls under it.
  const copyBox = (await answer.getByRole('button', { name: 'Copy code' }).boundingBox())!;
  const codeBox = (await answer.locator('pre').boundingBox())!;
  expect(copyBox.y + copyBox.height).toBeLessThanOrEqual(codeBox.y + 0.5);
  // \( \) and \[ \] are math; single dollars are prices.
  await expect(answer.locator('.katex')).toHaveCount(2);
  await expect(answer.locator('.katex-display')).toHaveCount(1);
  await expect(answer).toContainText('Prices stay text: $5 and $10.');
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

/** The text of each user message the model was last sent. */
const lastAsked = () => {
  const body = model.requests.filter((r) => r.method === 'POST').at(-1)!.body as {
    messages: { role: string; content: unknown }[];
  };
  return body.messages.filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content));
};

test('edit-and-resend branches the conversation there; regenerate answers the last question again', async () => {
  await ask('Name a colour');
  await expect(page.getByTestId('msg-markdown').last()).toHaveText('Blue.');
  const question = page.getByTestId('msg-user').filter({ hasText: 'Name a colour' });
  await question.hover();
  await page.getByTestId('user-actions').last().getByRole('button', { name: 'Edit and ask again' }).click();
  const editor = page.getByLabel('Edited text');
  await expect(editor).toBeFocused();
  await editor.fill('Name a fruit');
  await shot(page, 'chat-edit-message');
  await editor.press('Enter');
  await expect(page.getByTestId('msg-markdown').last()).toHaveText('Apple.');
  await expect(page.getByTestId('msg-user').filter({ hasText: 'Name a colour' })).toHaveCount(0);
  await expect(page.getByText('Blue.')).toHaveCount(0);
  // The model was asked the edited question, without the replaced one.
  expect(lastAsked().some((c) => c.includes('Name a fruit'))).toBe(true);
  expect(lastAsked().some((c) => c.includes('Name a colour'))).toBe(false);

  await page.getByRole('button', { name: 'Regenerate answer' }).click();
  await expect(page.getByTestId('msg-markdown').last()).toHaveText('Banana.');
  await expect(page.getByText('Apple.')).toHaveCount(0);
  await expect(page.getByTestId('msg-user').filter({ hasText: 'Name a fruit' })).toHaveCount(1);
  expect(lastAsked().filter((c) => c.includes('Name a fruit'))).toHaveLength(1);
  // What was shown is what was saved: a reload shows the same branch.
  await page.reload();
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByTestId('conversation').first().getByRole('button').first().click();
  await expect(page.getByTestId('msg-markdown').last()).toHaveText('Banana.');
  await expect(page.getByText('Apple.')).toHaveCount(0);
  await expect(page.getByTestId('chat-announcer')).toBeAttached();
});

test('keyboard: the shortcuts list, new conversation into the composer, search', async () => {
  await page.getByTestId('msg-user').first().click();
  await page.keyboard.press('Control+/');
  const list = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(list).toBeVisible();
  await expect(list.getByTestId('shortcuts')).toContainText('New conversation');
  // In a browser, not Mod+Shift+O: that is the browser's bookmark manager.
  await expect(list.getByTestId('shortcuts')).toContainText('Ctrl+Alt+N');
  await shot(page, 'chat-shortcuts');
  await page.keyboard.press('Escape');
  await expect(list).toBeHidden();
  await page.keyboard.press('Control+K');
  await expect(page.getByLabel('Search conversations')).toBeFocused();
  await page.keyboard.press('Control+Alt+N');
  await expect(page.getByRole('heading', { name: 'New conversation' })).toBeVisible();
  await expect(page.getByLabel('Message')).toBeFocused();
  await page.getByLabel('Search conversations').focus();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await expect(page.getByLabel('Message')).toBeFocused();
});

test('keyboard-only approval: the dialog opens on Deny, Escape denies, focus comes back; Allow once by keys', async () => {
  const dialog = page.getByTestId('approval-dialog');
  await ask('Write a note I will refuse');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('approval-deny')).toBeFocused();
  await expectAccessible(page, 'the approval dialog');
  await shot(page, 'chat-approval-keyboard');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel('Message')).toBeFocused();
  await expect(page.getByTestId('msg-markdown').last()).toHaveText('You said no.');
  expect(existsSync(`${root}/denied.txt`)).toBe(false);

  await ask('Write a note I will allow');
  await expect(page.getByTestId('approval-deny')).toBeFocused();
  for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('button', { name: 'Allow once' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel('Message')).toBeFocused();
  await expect(page.getByTestId('msg-markdown').last()).toHaveText('Written.');
  expect(readFileSync(`${root}/allowed.txt`, 'utf8')).toBe('yes');
  // The filesystem's structured content only restates its text: left out; the result has its label.
  const written = page.getByTestId('chat-tool').last();
  await expect(written.getByRole('region', { name: /^Result of / })).toContainText('Result');
  await expect(written.getByTestId('structured-result')).toHaveCount(0);
  await expectAccessible(page, 'the chat');
});

test("the model picker lists the provider's own models with what each takes", async () => {
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByLabel('Model (provider:model)').fill('openai:typed-by-hand');
  await page.getByTestId('model-picker').click();
  const item = page.getByRole('menuitem', { name: /openai:gpt-4o/ });
  await expect(item).toContainText('takes tools · takes images');
  await shot(page, 'chat-model-picker');
  await item.click();
  await expect(page.getByLabel('Model (provider:model)')).toHaveValue('openai:gpt-4o');
  await expect(page.getByTestId('model-takes')).toHaveText('takes tools · takes images');
  // The list came from the provider: the scripted server was asked for it.
  expect(model.requests.some((r) => r.method === 'GET' && r.path === '/v1/models')).toBe(true);
});

// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

test('an attached image reaches a vision model as an image part; a text file goes inline', async () => {
  await page.getByTestId('attach-input').setInputFiles([
    { name: 'square.png', mimeType: 'image/png', buffer: Buffer.from(PNG, 'base64') },
    { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('- buy milk\n') },
    { name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
  ]);
  const tray = page.getByTestId('attachments');
  await expect(tray.getByRole('listitem')).toHaveCount(2);
  await expect(tray.getByRole('alert')).toContainText('tool.exe is neither an image nor a text file');
  await page.getByLabel('Message').fill('What is this?');
  await shot(page, 'chat-attachments');
  await page.getByLabel('Message').press('Enter');
  await expect(page.getByTestId('msg-markdown').last()).toHaveText('A tiny red square, and your notes.');
  await expect(page.getByTestId('msg-user').last().getByTestId('gallery')).toBeVisible();
  const body = model.requests.filter((r) => r.method === 'POST').at(-1)!.body as {
    messages: { role: string; content: { type: string; text?: string; image_url?: { url: string } }[] }[];
  };
  const asked = body.messages.at(-1)!;
  expect(asked.role).toBe('user');
  expect(asked.content.find((p) => p.type === 'image_url')?.image_url?.url).toBe(
    `data:image/png;base64,${PNG}`,
  );
  const text = asked.content.find((p) => p.type === 'text')?.text ?? '';
  expect(text).toContain('What is this?');
  expect(text).toContain('notes.md:\n```\n- buy milk\n```');
});

test('export to Markdown and JSON, import the JSON again; the gallery holds the images', async () => {
  const exportAs = async (label: string) => {
    await page.getByRole('button', { name: 'Conversation actions' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: new RegExp(label) }).click();
    const file = await download;
    return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, 'utf8') };
  };
  const md = await exportAs('Export as Markdown');
  expect(md.name).toBe('What-is-this.md');
  expect(md.text).toContain('## You\n\nWhat is this?');
  expect(md.text).toContain('A tiny red square, and your notes.');
  const json = await exportAs('Export as JSON');
  expect(JSON.parse(json.text)).toMatchObject({ format: 'mooring.conversation', title: 'What is this?' });

  await page.getByRole('button', { name: 'Conversation actions' }).click();
  await page.getByRole('menuitem', { name: /Images \(1\)/ }).click();
  const gallery = page.getByTestId('conversation-gallery');
  await expect(gallery.getByRole('listitem')).toHaveCount(1);
  await shot(page, 'chat-gallery');
  await page.keyboard.press('Escape');

  const before = await page.getByTestId('conversation').count();
  await page.getByTestId('import-input').setInputFiles({
    name: json.name,
    mimeType: 'application/json',
    buffer: Buffer.from(json.text),
  });
  await expect(page.getByTestId('conversation')).toHaveCount(before + 1);
  await expect(page.getByTestId('msg-markdown').last()).toHaveText('A tiny red square, and your notes.');
  await expect(page.getByTestId('msg-user').last().getByTestId('gallery')).toBeVisible();

  await page.getByTestId('import-input').setInputFiles({
    name: 'bad.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"format":"other"}'),
  });
  await expect(page.getByTestId('import-error')).toContainText('not a Mooring conversation');
});

test('Settings > Models without a keychain: an ${env:NAME} reference, or the plain-text file by choice', async () => {
  await page.getByRole('button', { name: 'Models', exact: true }).click();
  await expect(page.getByTestId('no-keychain')).toContainText('plain-text file readable only by you');
  const openai = page.getByTestId('provider-openai');
  await expect(openai.getByLabel('Where to keep the openai key')).toHaveValue('envRef');
  await openai.getByLabel('openai API key').fill('${env:OPENAI_API_KEY}');
  await openai.getByRole('button', { name: 'Use reference' }).click();
  await expect(page.getByTestId('key-source-openai')).toHaveText('— from ${env:OPENAI_API_KEY}');

  const anthropic = page.getByTestId('provider-anthropic');
  // Each provider's field suggests its own variable, not OpenAI's.
  await expect(anthropic.getByLabel('anthropic API key')).toHaveAttribute(
    'placeholder',
    '${env:ANTHROPIC_API_KEY} or a variable name',
  );
  await anthropic.getByLabel('Where to keep the anthropic key').selectOption('file');
  await expect(anthropic).toContainText('written as plain text to');
  await anthropic.getByLabel('anthropic API key').fill('sk-ant-typed');
  await anthropic.getByRole('button', { name: 'Store in file' }).click();
  await expect(page.getByTestId('key-source-anthropic')).toHaveText(
    '— in the plain-text key file (readable only by you)',
  );
  const keys = join(home, 'provider-keys.json');
  expect(JSON.parse(readFileSync(keys, 'utf8'))).toEqual({
    openai: { envRef: 'OPENAI_API_KEY' },
    anthropic: { key: 'sk-ant-typed' },
  });
  expect(statSync(keys).mode & 0o777).toBe(0o600);
  await shot(page, 'settings-models-no-keychain');
  await expectAccessible(page, 'Settings > Models');
  // The chat still reaches the model through the reference.
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await ask('Still there?');
  await expect(page.getByTestId('msg-markdown').last()).toHaveText('Yes.');
  expect(model.requests.filter((r) => r.method === 'POST').at(-1)!.headers.authorization).toBe(
    'Bearer sk-e2e',
  );
});

test('axe: the servers screen has no serious or critical violation', async () => {
  await page.getByRole('button', { name: 'Servers', exact: true }).click();
  await expect(page.getByTestId('server-everything')).toBeVisible();
  await expectAccessible(page, 'the servers screen');
  await shot(page, 'servers-axe');
});

test('Escape stops an answer that hangs', async () => {
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.keyboard.press('Control+Alt+N');
  const aborted = model.nextClientAbort();
  await ask('Think forever');
  await expect(page.locator('[data-streaming="true"]')).toContainText('Thinking for a long while');
  await page.keyboard.press('Escape');
  await aborted;
  await expect(page.getByTestId('msg-note').last()).toHaveText('Cancelled.');
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();
});
