// What an MCP App view hears of its tool call, end to end (docs/decisions/005-app-view-updates.md;
// docs/mcp-apps.md, "MCP Apps"): a real `mooring web` child with the apps fixture server's recorder view
// (test/fixtures/servers/appsServer.ts), which records every notification the host sends it, and a
// scripted OpenAI-format model held mid-arguments until the view has shown what arrived. The view gets
// partial input before the complete input and the result; a cancellation after a Deny, a Stop while the
// call runs, and a Stop while the model still writes the call; and a view whose resource the server
// changes is torn down and reloaded with the same call's data.
import { expect, test, type Frame, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { appViewFrame, chatHome, startWebWithOpenAI } from './chatHarness';
import { APPS_SERVER, type RunningWeb } from './harness';

test.describe.configure({ mode: 'serial' });

const TITLE = 'A title long enough to arrive in many pieces';

/** A promise the test resolves: the model's stream waits on it halfway through a call's arguments. */
function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
const streamed = gate();
const stoppedWhileWriting = gate();

let web: RunningWeb;
let page: Page;
let model: FakeProviderServer;
const pageErrors: string[] = [];
const consoleLines: string[] = [];

test.beforeAll(async ({ browser }) => {
  const { home } = chatHome('apps-lifecycle', () => [APPS_SERVER]);
  model = await startOpenAIServer([
    {
      toolCalls: [{ name: 'mcp__apps__show_recorder', arguments: { title: TITLE }, gate: streamed.promise }],
    },
    { text: 'Recorded.' },
    { toolCalls: [{ name: 'mcp__apps__place_order', arguments: { title: 'one lamp' } }] },
    { text: 'Not ordered.' },
    { toolCalls: [{ name: 'mcp__apps__show_recorder', arguments: { title: 'held', hold: true } }] },
    {
      text: 'Writing a call.',
      toolCalls: [
        {
          name: 'mcp__apps__show_recorder',
          arguments: { title: TITLE },
          gate: stoppedWhileWriting.promise,
        },
      ],
    },
  ]);
  web = await startWebWithOpenAI(home, model.url);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => consoleLines.push(m.text()));
  await page.goto(web.url);
  await expect(page.getByTestId('server-apps').getByTestId('server-state')).toHaveText('ready');
});

test.afterAll(async () => {
  streamed.open();
  stoppedWhileWriting.open();
  await page?.close();
  expect(pageErrors).toEqual([]);
  await model?.close();
  if (web) expect(await web.stop(), web.stderr()).toBe(0);
});

const send = async (text: string) => {
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByLabel('Model (provider:model)').fill('openai:gpt-4o');
  await page.getByLabel('Message').fill(text);
  await page.getByLabel('Message').press('Enter');
};

/** The view's own frame (inside the sandbox page) of the last app view on the page. */
async function viewFrame(): Promise<Frame> {
  await expect(page.getByTestId('app-view-frame').last()).toBeVisible();
  return appViewFrame(page);
}

type Received = { method: string; params: Record<string, unknown> }[];
const received = (frame: Frame) =>
  frame.evaluate(() => (window as unknown as { received?: Received }).received ?? []);
const methodsOf = async (frame: Frame) => (await received(frame)).map((r) => r.method);

test('the view gets the arguments while the model writes them, then the complete input, then the result', async () => {
  await send('Record this');
  // The model is held halfway through the arguments: the view is up and has what arrived so far.
  const inner = await viewFrame();
  await expect.poll(() => methodsOf(inner)).toContain('tool-input-partial');
  expect(await methodsOf(inner)).not.toContain('tool-input');
  await expect(page.getByTestId('msg-assistant').last()).toHaveAttribute('data-streaming', 'true');
  streamed.open();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Recorded.');
  // The same view (its record kept) got the complete input and the result after the partial input.
  await expect.poll(() => methodsOf(inner)).toContain('tool-result');
  const got = await received(inner);
  const methods = got.map((r) => r.method);
  const partials = got.filter((r) => r.method === 'tool-input-partial');
  expect(methods.indexOf('tool-input')).toBeGreaterThan(methods.lastIndexOf('tool-input-partial'));
  expect(methods.indexOf('tool-result')).toBeGreaterThan(methods.indexOf('tool-input'));
  expect(methods).not.toContain('tool-cancelled');
  // Each partial's title is the start of the whole one; at least one was cut short (the held stream).
  const titles = partials.map((p) => (p.params.arguments as { title?: string }).title ?? '');
  for (const t of titles) expect(TITLE.startsWith(t), t).toBe(true);
  expect(titles.some((t) => t.length < TITLE.length)).toBe(true);
  expect(got.find((r) => r.method === 'tool-input')!.params).toEqual({ arguments: { title: TITLE } });
  expect(JSON.stringify(got.find((r) => r.method === 'tool-result')!.params)).toContain(`Recorded ${TITLE}`);
});

test('a view whose resource the server changes is torn down and reloaded with the same call', async () => {
  const before = await viewFrame();
  await expect(before.getByTestId('version')).toHaveText('recorder v1');
  await before.getByRole('button', { name: 'Update this view' }).click();
  await expect.poll(() => consoleLines).toContain('recorder v1: teardown');
  const after = await viewFrame();
  await expect(after.getByTestId('version')).toHaveText('recorder v2');
  await expect.poll(() => methodsOf(after)).toEqual(['tool-input', 'tool-result']);
  expect((await received(after))[0]!.params).toEqual({ arguments: { title: TITLE } });
});

test('a call that asks gives its view none of its arguments; denied, the view hears only the cancellation', async () => {
  await send('Order a lamp');
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toBeVisible();
  const inner = await viewFrame();
  await dialog.getByRole('button', { name: 'Deny' }).click();
  // A view may send what it hears to its declared domains: arguments the person refused never reach it,
  // neither streamed while the model wrote them nor whole while the dialog was open.
  await expect.poll(() => methodsOf(inner)).toEqual(['tool-cancelled']);
  const got = await received(inner);
  expect(String(got.at(-1)!.params.reason)).toMatch(/declin|den/i);
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Not ordered.');
});

test('Stop while the call runs cancels it in its view', async () => {
  await send('Hold on');
  const inner = await viewFrame();
  await expect.poll(() => methodsOf(inner)).toContain('tool-input');
  await expect(page.getByTestId('chat-tool').last()).toHaveAttribute('data-state', 'running');
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect.poll(() => methodsOf(inner)).toContain('tool-cancelled');
  expect(await methodsOf(inner)).not.toContain('tool-result');
  expect(String((await received(inner)).at(-1)!.params.reason)).toContain('cancelled');
});

test('Stop while the model still writes the call cancels it in its view, which stays', async () => {
  await send('Start writing');
  const inner = await viewFrame();
  await expect.poll(() => methodsOf(inner)).toContain('tool-input-partial');
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect.poll(() => methodsOf(inner)).toContain('tool-cancelled');
  expect(await methodsOf(inner)).not.toContain('tool-input');
  const card = page.getByTestId('chat-tool').last();
  await expect(card).toHaveAttribute('data-state', 'failed');
  await expect(card).toContainText('Not run');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Writing a call.');
});
