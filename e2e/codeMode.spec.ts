// Code mode in the browser (docs/code-mode.md, "What the person sees"): the person switches it on for a
// new conversation, a scripted model writes one program over real servers, the destructive call inside it
// asks in the usual dialog, and the step shows as one card with the program and its calls nested.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { openaiView } from '../test/helpers/wireViews';
import { chatHome, closeChatApp, openChatApp, scriptedModelSettings, shot } from './chatHarness';
import { FILESYSTEM, MEMORY, type RunningWeb } from './harness';

let web: RunningWeb;
let page: Page;
let model: FakeProviderServer;
const pageErrors: string[] = [];

test.afterAll(() => closeChatApp({ page, model, web, pageErrors }));

test('a program runs its calls through the gate and shows as one card', async ({ browser }) => {
  const { home, root } = chatHome('code-mode', (d) => [
    { name: 'fs', command: 'node', args: [FILESYSTEM, d.root] },
    { name: 'memory', command: 'node', args: [MEMORY], env: { MEMORY_FILE_PATH: join(d.home, 'm.jsonl') } },
  ]);
  model = await startOpenAIServer([
    {
      text: 'I will do it in one program.',
      toolCalls: [
        {
          name: 'run_code',
          arguments: {
            code: `const listing = await tools.mcp__fs__list_directory({ path: ${JSON.stringify(root)} });
const files = listing.content.split('\\n').filter((l) => l.startsWith('[FILE]')).map((l) => l.slice(7));
const sizes = [];
for (const f of files) {
  const info = await tools.mcp__fs__get_file_info({ path: ${JSON.stringify(root)} + '/' + f });
  sizes.push({ f, size: Number(/size: (\\d+)/.exec(info.content)[1]) });
}
await tools.mcp__memory__create_entities({
  entities: [{ name: 'folder', entityType: 'listing', observations: files }],
});
print('sizes', sizes);
return sizes.sort((a, b) => b.size - a.size)[0].f;`,
          },
        },
      ],
    },
    { text: 'The largest file is alpha.txt.' },
  ]);
  writeFileSync(join(home, 'settings.json'), JSON.stringify(scriptedModelSettings(model.url)));
  ({ web, page } = await openChatApp(browser, { home, ready: ['fs', 'memory'], pageErrors }));

  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: /^Project folder and tools/ }).click();
  await page.getByLabel('Code mode').check();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: /code mode/ })).toBeVisible();
  await page.getByLabel('Message').fill('Which file is largest? Note the listing.');
  await page.getByLabel('Message').press('Enter');

  // The program's write to the memory server asks, as a direct call would.
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('create_entities');
  // It shows the program, the line of this call marked.
  await expect(dialog.getByTestId('approval-program')).toContainText('Call 4 of a program the model wrote');
  await expect(dialog.locator('.program-line-call')).toHaveText(/tools\.mcp__memory__create_entities\(/);
  await shot(page, 'code-mode-01-approval');
  await dialog.getByRole('button', { name: 'Allow once' }).click();

  await expect(page.getByTestId('msg-assistant').last()).toContainText('The largest file is alpha.txt.');
  const card = page.getByTestId('program-card');
  await expect(card).toHaveAttribute('data-phase', 'done');
  await expect(card.getByTestId('program-code')).toContainText('tools.mcp__fs__list_directory');
  await expect(card.getByTestId('program-call')).toHaveCount(4);
  await expect(card.getByTestId('program-printed')).toContainText('sizes');
  await card.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot(page, 'code-mode-02-card');
  await card.getByTestId('program-call').last().locator('summary').click();
  await expect(card.getByTestId('program-call').last()).toContainText('"entityType": "listing"');
  await card.getByText('What the model got').click();
  await expect(card.getByTestId('program-to-model')).toContainText('Returned:\nalpha.txt');
  await shot(page, 'code-mode-03-card-opened');

  // The model was offered run_code and read only what the program gave back.
  const posts = model.requests.filter((r) => r.method === 'POST').map((r) => r.body);
  expect(openaiView.toolNames(posts[0])).toContain('run_code');
  const back = openaiView.toolResults(posts[1]).at(-1)!;
  expect(back.text).toContain('alpha.txt');
  expect(back.text).not.toContain('[FILE]');
});
