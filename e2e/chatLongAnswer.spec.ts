// A long answer streamed as a fast local model streams it (docs/chat.md, "A turn in the chat"; the
// streaming view: docs/decisions/010-streaming-markdown.md): 40 KB of Markdown (tables, code in six
// languages, math, lists) in 4-character deltas at 300 a second, from a scripted OpenAI-compatible model
// (test/fixtures/providers/pacedOpenAI.ts), against a real `mooring web` child. What is checked is what a
// person notices: the composer keeps the focus after the first message of a new conversation and takes the
// next question while the answer streams, and the finished answer is the model's text, saved and shown
// exactly as the same text shows when the conversation is opened again. How fast is the bench's question
// (bench/suites/uiStream.ts).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { END_MARK, markdownAnswer } from '../test/fixtures/markdownAnswer';
import { startPacedOpenAIServer, type PacedModel } from '../test/fixtures/providers/pacedOpenAI';
import { chatHome, closeChatApp, openChatApp, scriptedModelSettings, shot } from './chatHarness';
import type { RunningWeb } from './harness';

test.describe.configure({ mode: 'serial' });

const LONG = markdownAnswer(40 * 1024);
let web: RunningWeb;
let page: Page;
let home: string;
let model: PacedModel;
const pageErrors: string[] = [];

test.beforeAll(async ({ browser }) => {
  ({ home } = chatHome('longanswer', () => []));
  model = await startPacedOpenAIServer([{ text: 'Hello there.' }, { text: LONG }]);
  writeFileSync(join(home, 'settings.json'), JSON.stringify(scriptedModelSettings(model.url)));
  ({ web, page } = await openChatApp(browser, { home, ready: [], pageErrors }));
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
});

test.afterAll(() => closeChatApp({ page, model, web, pageErrors }));

const composer = () => page.getByLabel('Message');
const answer = () => page.getByTestId('msg-assistant').last();

/** The saved text of the conversation's last answer, read from its file in the home. */
function savedAnswer(): string {
  const dir = join(home, 'conversations');
  const [file] = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  const lines = readFileSync(join(dir, file!), 'utf8').trim().split('\n');
  const messages = lines.map(
    (l) => JSON.parse(l) as { kind: string; message?: { role: string; text?: string } },
  );
  return messages.filter((r) => r.message?.role === 'assistant').at(-1)!.message!.text!;
}

/**
 * The answer's markup, white space between tags aside (blocks side by side have none, a whole text some),
 * and empty style attributes (a task list's checkbox rendered open, then finished, keeps a `style=""`
 * with nothing in it, which changes nothing shown).
 */
const markup = (p: Page) =>
  p
    .getByTestId('msg-markdown')
    .last()
    .evaluate((el) =>
      el.innerHTML
        .replace(/>\s+/g, '>')
        .replace(/\s+</g, '<')
        .replace(/ style=""/g, ''),
    );

test('after the first message of a new conversation the composer keeps the focus, and keys typed at once arrive', async () => {
  await page.getByRole('button', { name: 'New conversation' }).click();
  await expect(composer()).toBeFocused();
  await composer().fill('Say hello');
  await composer().press('Enter');
  // Typed straight after Enter, while the message is being sent and the conversation created.
  await page.keyboard.type('And then');
  await expect(answer()).toContainText('Hello there.');
  await expect(composer()).toBeFocused();
  await expect(composer()).toHaveValue('And then');
  await page.keyboard.type(' some more');
  await expect(composer()).toHaveValue('And then some more');
});

test('a 40 KB answer at 300 deltas a second: the composer takes the next question while it streams, and the end is the model’s text', async () => {
  await composer().fill('Write the whole plan');
  await composer().press('Enter');
  const streaming = page.locator('[data-testid="msg-assistant"][data-streaming="true"]');
  await expect(streaming.getByTestId('msg-markdown')).toBeVisible();
  await expect(composer()).toBeFocused();
  await page.keyboard.type('Thanks, now the summary');
  await expect(composer()).toHaveValue('Thanks, now the summary');
  // The keys arrived while the answer was still streaming.
  await expect(streaming).toHaveCount(1);
  await shot(page, 'chat-long-answer-streaming');

  await expect(answer()).toContainText(END_MARK, { timeout: 120_000 });
  await expect(streaming).toHaveCount(0);
  expect(model.streams.at(-1)!.deltas).toBe(Math.ceil(LONG.length / 4));
  expect(savedAnswer()).toBe(LONG);
  await expect(composer()).toHaveValue('Thanks, now the summary');

  // Shown as the same text shows when the conversation is opened afresh (math and code highlighted once
  // the page is idle; compared until then).
  const fresh = await page.context().newPage();
  fresh.on('pageerror', (e) => pageErrors.push(e.message));
  await fresh.goto(new URL(web.url).origin);
  await fresh.getByRole('button', { name: 'Chat', exact: true }).click();
  await fresh.getByTestId('conversation').first().getByRole('button').first().click();
  // A conversation opened renders its text whole (only a streaming answer renders in blocks).
  await expect(fresh.getByTestId('msg-assistant').last()).toContainText(END_MARK, { timeout: 90_000 });
  const expected = await markup(fresh);
  expect(expected).toContain('class="katex"');
  expect(expected).toContain('hljs-keyword');
  await expect.poll(() => markup(page), { timeout: 60_000 }).toBe(expected);
  await fresh.close();
  await shot(page, 'chat-long-answer-done');
});
