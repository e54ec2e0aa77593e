// Images returned inside a program (docs/code-mode.md, "What the person sees"): a program calls
// server-everything's get-tiny-image twice and echo once; each image shows under the row of the call that
// returned it in the program card, and both join the conversation's gallery as a direct call's do.
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { chatHome, closeChatApp, openChatApp, scriptedModelSettings, shot } from './chatHarness';
import { EVERYTHING, type RunningWeb } from './harness';

let web: RunningWeb;
let page: Page;
let model: FakeProviderServer;
const pageErrors: string[] = [];

test.afterAll(() => closeChatApp({ page, model, web, pageErrors }));

test("a program's images show under their calls in the card and in the conversation's gallery", async ({
  browser,
}) => {
  model = await startOpenAIServer([
    {
      toolCalls: [
        {
          name: 'run_code',
          arguments: {
            code: `const first = await tools.mcp__everything__get_tiny_image({});
const echoed = await tools.mcp__everything__echo({ message: 'between' });
const second = await tools.mcp__everything__get_tiny_image({});
return [first.text.length > 0, echoed.text, second.text.length > 0];`,
          },
        },
      ],
    },
    { text: 'Two tiny images.' },
  ]);
  const { home } = chatHome(
    'code-images',
    () => [{ name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'] }],
    {
      ...scriptedModelSettings(model.url),
      titlesFromModel: false,
    },
  );
  ({ web, page } = await openChatApp(browser, { home, ready: ['everything'], pageErrors }));
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: /^Project folder and tools/ }).click();
  await page.getByRole('checkbox', { name: 'Code mode' }).check();
  await page.keyboard.press('Escape');
  await page.getByLabel('Message').fill('Show me the tiny image twice');
  await page.getByLabel('Message').press('Enter');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Two tiny images.');

  const card = page.getByTestId('program-card');
  await expect(card).toHaveAttribute('data-phase', 'done');
  const rows = card.getByTestId('program-call');
  await expect(rows).toHaveCount(3);
  // Each image under the call that returned it; the echo has none.
  for (const [i, count] of [1, 0, 1].entries())
    await expect(rows.nth(i).getByTestId('gallery').getByRole('listitem')).toHaveCount(count);
  const thumb = rows.first().getByTestId('gallery').locator('img');
  await expect(thumb).toHaveJSProperty('complete', true);
  expect(await thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await card.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot(page, 'code-mode-images-01-card');

  await page.getByRole('button', { name: 'Conversation actions' }).click();
  await page.getByRole('menuitem', { name: /Images \(2\)/ }).click();
  await expect(page.getByTestId('conversation-gallery').getByRole('listitem')).toHaveCount(2);
  await shot(page, 'code-mode-images-02-gallery');
  await page.keyboard.press('Escape');
});
