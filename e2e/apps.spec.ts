// MCP Apps end to end (docs/mcp-apps.md, "MCP Apps"): a real `mooring web` child with the apps fixture
// server (test/fixtures/servers/appsServer.ts) and a scripted OpenAI-format model. The chat renders the
// counter view from the model's tool call, in a frame on another origin; a click runs the app-only tool;
// the model never gets that tool; a destructive call from the view asks for approval labelled as the
// app's; the escape view gets out nowhere and the app keeps answering.
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { appViewFrame, chatHome, closeChatApp, shot, startWebWithOpenAI } from './chatHarness';
import { APPS_SERVER, type RunningWeb } from './harness';

test.describe.configure({ mode: 'serial' });

/** tsx as Node's loader: `node` is a known runtime to the stdio allowlist, tsx's own binary is not. */

let web: RunningWeb;
let page: Page;
let model: FakeProviderServer;
const pageErrors: string[] = [];

test.beforeAll(async ({ browser }) => {
  const { home } = chatHome('apps', () => [APPS_SERVER]);
  model = await startOpenAIServer([
    { text: 'Here is a counter.', toolCalls: [{ name: 'mcp__apps__show_counter', arguments: { start: 3 } }] },
    { text: 'The counter is on screen.' },
    { text: 'Noted.' },
    { toolCalls: [{ name: 'mcp__apps__show_escape', arguments: {} }] },
    { text: 'The escape view ran.' },
    { toolCalls: [{ name: 'mcp__apps__show_form', arguments: {} }] },
    { text: 'Fill in the form.' },
    { text: 'I got your note from the form.' },
    { text: 'The form says hello.' },
  ]);
  web = await startWebWithOpenAI(home, model.url);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);
  await expect(page.getByTestId('server-apps').getByTestId('server-state')).toHaveText('ready');
});

test.afterAll(() => closeChatApp({ page, model, web, pageErrors }));

const send = async (text: string, fresh = false) => {
  if (fresh) {
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByLabel('Model (provider:model)').fill('openai:gpt-4o');
  }
  await page.getByLabel('Message').fill(text);
  await page.getByLabel('Message').press('Enter');
};
/** The chat requests the model got, as the tool names each listed. */
const toolsSent = () =>
  model.requests
    .filter((r) => r.method === 'POST')
    .map((r) =>
      ((r.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name),
    );

/** The view's own frame (the inner one, inside the sandbox page) of the last app view on the page. */
const viewFrame = () => appViewFrame(page);

test('the counter view renders on another origin, and a click runs the app-only tool', async () => {
  await send('Show me a counter', true);
  await expect(page.getByTestId('msg-assistant').last()).toContainText('The counter is on screen.');
  const view = page.getByTestId('app-view').last();
  await expect(view).toBeVisible();
  // The frame is on the sandbox origin, not the app's.
  const appOrigin = new URL(web.url).origin;
  const src = await page.getByTestId('app-view-frame').last().getAttribute('src');
  const frameOrigin = new URL(src!).origin;
  expect(frameOrigin).not.toBe(appOrigin);
  const inner = await viewFrame();
  // The view's own document is opaque-origin (sandboxed without allow-same-origin).
  expect(await inner.evaluate(() => window.origin)).toBe('null');
  await expect(inner.getByTestId('count')).toHaveText('3');
  // The card shows the text once and the structured content once, as JSON: not again as the line the
  // model read it in.
  const result = page
    .locator('[data-testid="chat-tool"][data-tool="show_counter"]')
    .getByTestId('tool-result');
  await expect(result).toContainText('The counter is at 3.');
  await expect(result).not.toContainText('Structured result (JSON)');
  await expect(result.getByTestId('structured-result')).toContainText('"count": 3');
  await inner.getByRole('button', { name: 'Increment' }).click();
  await expect(inner.getByTestId('count')).toHaveText('4');
  await expect(inner.getByTestId('status')).toHaveText('incremented by the app-only tool');
  await shot(page, 'apps-counter');
  // Picture in picture floats clear of the composer: Send stays visible and clickable.
  await view.getByRole('button', { name: 'Picture in picture' }).click();
  await expect(view).toHaveAttribute('data-mode', 'pip');
  const sendButton = page.getByRole('button', { name: 'Send', exact: true });
  const [pip, sendBox] = [await view.boundingBox(), await sendButton.boundingBox()];
  const overlaps =
    pip!.x < sendBox!.x + sendBox!.width &&
    sendBox!.x < pip!.x + pip!.width &&
    pip!.y < sendBox!.y + sendBox!.height &&
    sendBox!.y < pip!.y + pip!.height;
  expect(overlaps, 'the floating view covers Send').toBe(false);
  await shot(page, 'apps-counter-pip');
  await view.getByRole('button', { name: 'Back into the card' }).click();
  await expect(view).toHaveAttribute('data-mode', 'inline');
});

test("the model's requests never list the app-only tool", async () => {
  await send('Thanks');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Noted.');
  const lists = toolsSent();
  expect(lists.length).toBeGreaterThanOrEqual(3);
  for (const names of lists) {
    expect(names).toContain('mcp__apps__show_counter');
    expect(names).not.toContain('mcp__apps__increment');
  }
});

test('a destructive tool called by the view asks for approval, labelled as from the app', async () => {
  const inner = await viewFrame();
  await inner.getByRole('button', { name: 'Reset (destructive)' }).click();
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('asked by the apps app (its show_counter view)');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(inner.getByTestId('status')).toContainText('refused');
  await expect(inner.getByTestId('count')).toHaveText('4');
});

test('the escape view achieves none of its escapes, and the app stays responsive', async () => {
  await send('Try to escape', true);
  await expect(page.getByTestId('msg-assistant').last()).toContainText('The escape view ran.');
  const inner = await viewFrame();
  await expect(inner.getByTestId('log')).toContainText('done: yes', { timeout: 60_000 });
  const escapes = await inner.evaluate(
    () => (window as unknown as { escapes: Record<string, string> }).escapes,
  );
  console.log('escape attempts:', JSON.stringify(escapes, null, 2));
  for (const name of [
    'fetch-undeclared',
    'fetch-metadata',
    'fetch-app',
    'parent-document',
    'top-document',
    'cookies',
    'local-storage',
    'top-navigation',
    'popup',
    'nested-frame',
    'unknown-method',
    'oversized-message',
    'flood',
  ])
    expect(escapes[name], name).toMatch(/^blocked: /);
  expect(escapes['unknown-method']).toContain('method not found');
  expect(escapes.flood).toMatch(/refused/);
  // The page is still the app, and it still answers.
  expect(new URL(page.url()).origin).toBe(new URL(web.url).origin);
  expect(page.context().pages()).toHaveLength(1);
  await expect(page.getByTestId('app-view-dropped').last()).toContainText('169.254.169.254');
  await expect(page.getByTestId('app-view-permissions').last()).toContainText('camera');
  await page.getByRole('button', { name: 'Servers', exact: true }).click();
  await expect(page.getByTestId('server-apps').getByTestId('server-state')).toHaveText('ready');
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
});

test('a message from the form view shows in the conversation as the app’s, not the user’s', async () => {
  await send('Show me the form', true);
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Fill in the form.');
  const inner = await viewFrame();
  await inner.getByRole('button', { name: 'Send to chat' }).click();
  const fromApp = page.getByTestId('msg-app').last();
  await expect(fromApp).toContainText('Hello from the form');
  await expect(fromApp.getByTestId('msg-app-label')).toContainText(
    'Sent by the apps app (show_form view), not by you',
  );
  // Readable on the bubble's colour (it was a muted grey on the accent, 1.6:1).
  const ratio = await fromApp.getByTestId('msg-app-label').evaluate((label) => {
    // WCAG 2.1 contrast of the label's text colour on its bubble's background (both opaque rgb()).
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const lum = (c: string) => {
      const [r, g, b] = rgb(c).map((v) => {
        const x = v / 255;
        return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const fg = lum(getComputedStyle(label).color);
    const bg = lum(getComputedStyle(label.closest('.msg')!).backgroundColor);
    return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
  });
  expect(ratio).toBeGreaterThanOrEqual(4.5);
  await expect(page.getByTestId('msg-assistant').last()).toContainText('I got your note from the form.');
  const last = model.requests.filter((r) => r.method === 'POST').at(-1)!.body as {
    messages: { role: string; content: unknown }[];
  };
  expect(JSON.stringify(last.messages.at(-1))).toContain(
    "[Sent by the apps app's show_form view, not typed by the user]",
  );
  // A context update reaches the model with the next turn, labelled as the app's. The turn has ended first:
  // while the answer streams the chat scrolls, and a click into the moving view can land beside its button.
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0);
  await inner.getByRole('button', { name: 'Update context' }).click();
  await expect(inner.getByTestId('status')).toHaveText('context updated');
  await send('What does the form say?');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('The form says hello.');
  const next = JSON.stringify(model.requests.filter((r) => r.method === 'POST').at(-1)!.body);
  expect(next).toContain('Context from the apps (show_form view), not from the user');
  expect(next).toContain('The form says: Hello from the form');
  // The person can close the view and keep the text result; a reload keeps it closed.
  await page.getByTestId('app-view-close').last().click();
  await expect(page.getByTestId('app-view-reopen').last()).toBeVisible();
  await page.reload();
  await page.getByTestId('conversation').first().getByRole('button').first().click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('The form says hello.');
  await expect(page.getByTestId('app-view-reopen').last()).toBeVisible();
  await expect(page.getByTestId('app-view')).toHaveCount(0);
});

test('the Playground shows the view of a tool it ran', async () => {
  await page.getByRole('button', { name: 'Playground', exact: true }).click();
  await page.getByLabel('Tool', { exact: true }).selectOption({ label: 'apps / show_counter' });
  await page.getByLabel('Arguments', { exact: true }).fill('{"start": 7}');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByTestId('app-view')).toHaveCount(1);
  const inner = await viewFrame();
  await expect(inner.getByTestId('count')).toHaveText('7');
  await inner.getByRole('button', { name: 'Increment' }).click();
  await expect(inner.getByTestId('count')).toHaveText('8');
  // Fullscreen on request, and back.
  await page.getByTestId('app-view').getByRole('button', { name: 'Fullscreen', exact: true }).click();
  await expect(page.getByTestId('app-view')).toHaveAttribute('data-mode', 'fullscreen');
  await page.getByTestId('app-view').getByRole('button', { name: 'Exit fullscreen', exact: true }).click();
  await expect(page.getByTestId('app-view')).toHaveAttribute('data-mode', 'inline');
  // Escape leaves fullscreen too.
  await page.getByTestId('app-view').getByRole('button', { name: 'Fullscreen', exact: true }).click();
  await expect(page.getByTestId('app-view')).toHaveAttribute('data-mode', 'fullscreen');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('app-view')).toHaveAttribute('data-mode', 'inline');
});
