// What an MCP App view is told about its host, end to end (extension io.modelcontextprotocol/ui, spec
// 2026-01-26, "Host Context" and "Theming"; docs/mcp-apps.md, "MCP Apps"): a real `mooring web` child with
// the apps fixture server, whose views apply the host's theme and style variables with ext-apps' own
// helpers, and a scripted OpenAI-format model. The view's colours come from Mooring's tokens in light and
// dark, an OS theme switch re-themes it live, and its locale, time zone, device and frame size are the
// page's own, with display-mode and size changes sent as context changes.
import { expect, test, type BrowserContext, type Frame, type Page } from '@playwright/test';
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { appViewFrame, chatHome, shot, startWebWithOpenAI } from './chatHarness';
import { APPS_SERVER, type RunningWeb } from './harness';

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let context: BrowserContext;
let page: Page;
let model: FakeProviderServer;
const pageErrors: string[] = [];

test.beforeAll(async ({ browser }) => {
  const { home } = chatHome('apps-context', () => [APPS_SERVER]);
  model = await startOpenAIServer([
    { text: 'Here is a counter.', toolCalls: [{ name: 'mcp__apps__show_counter', arguments: { start: 3 } }] },
    { text: 'The counter is on screen.' },
  ]);
  web = await startWebWithOpenAI(home, model.url);
  // A locale and a time zone that are nobody's default, so the view can only have them from the host.
  context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'de-DE',
    timezoneId: 'Pacific/Auckland',
    colorScheme: 'light',
  });
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);
  await expect(page.getByTestId('server-apps').getByTestId('server-state')).toHaveText('ready');
});

test.afterAll(async () => {
  await context?.close();
  expect(pageErrors).toEqual([]);
  await model?.close();
  if (web) expect(await web.stop(), web.stderr()).toBe(0);
});

/** The view's own frame (inside the sandbox page) of the last app view on the page. */
const viewFrame = () => appViewFrame(page);

/** A token of Mooring's, as the page resolves it now (a colour comes back as the browser's rgb()). */
const hostColour = (token: string) =>
  page.evaluate((t) => {
    const probe = document.body.appendChild(document.createElement('div'));
    probe.style.color = `var(${t})`;
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, token);

/** The view's body colours, as the view's own document computes them. */
const viewColours = (inner: Frame) =>
  inner.evaluate(() => {
    const s = getComputedStyle(document.body);
    return { background: s.backgroundColor, text: s.color, theme: document.documentElement.dataset.theme };
  });

const viewContext = (inner: Frame) =>
  inner.evaluate(() => (window as unknown as { hostContext: McpUiHostContext }).hostContext);
const contextChanges = (inner: Frame) =>
  inner.evaluate(() => (window as unknown as { hostContextChanges: McpUiHostContext[] }).hostContextChanges);
const frameBox = async () => (await page.getByTestId('app-view-frame').last().boundingBox())!;

let inner: Frame;

test("the view gets Mooring's look, the page's locale, time zone and device, and its frame's width", async () => {
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByLabel('Model (provider:model)').fill('openai:gpt-4o');
  await page.getByLabel('Message').fill('Show me a counter');
  await page.getByLabel('Message').press('Enter');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('The counter is on screen.');
  inner = await viewFrame();
  await expect(inner.getByTestId('count')).toHaveText('3');

  const ctx = await viewContext(inner);
  const device = await page.evaluate(() => ({
    touch: navigator.maxTouchPoints > 0 || matchMedia('(any-pointer: coarse)').matches,
    hover: matchMedia('(any-hover: hover)').matches,
  }));
  expect(ctx).toMatchObject({
    theme: 'light',
    displayMode: 'inline',
    locale: 'de-DE',
    timeZone: 'Pacific/Auckland',
    platform: 'web',
    deviceCapabilities: device,
    toolInfo: { tool: { name: 'show_counter' } },
  });
  expect(ctx.userAgent).toMatch(/^Mooring\/\d/);
  expect(ctx.styles?.variables?.['--font-sans']).toContain('system-ui');
  // Inline, the card fixes the width and the view picks its height up to a maximum.
  await expect
    .poll(async () => (await viewContext(inner)).containerDimensions)
    .toEqual({ width: Math.round((await frameBox()).width), maxHeight: 720 });

  // The view's body is drawn in Mooring's surface and text colours, applied by ext-apps' helpers.
  expect(await viewColours(inner)).toEqual({
    background: await hostColour('--color-surface'),
    text: await hostColour('--color-text'),
    theme: 'light',
  });
  await shot(page, 'apps-context-light');
});

test('an OS switch to dark re-themes the view live, and back', async () => {
  const before = (await contextChanges(inner)).length;
  await page.emulateMedia({ colorScheme: 'dark' });
  // The page restyles after the media change: wait for its dark surface before reading the colours.
  await expect.poll(() => hostColour('--color-surface')).not.toBe('rgb(255, 255, 255)');
  const dark = { background: await hostColour('--color-surface'), text: await hostColour('--color-text') };
  await expect.poll(() => viewColours(inner)).toEqual({ ...dark, theme: 'dark' });
  // One notification with only what changed: the theme and the variables, not the locale or the size.
  const changes = (await contextChanges(inner)).slice(before);
  expect(changes.length).toBeGreaterThanOrEqual(1);
  const themed = changes.find((c) => c.theme === 'dark')!;
  expect(Object.keys(themed).sort()).toEqual(['styles', 'theme']);
  expect(themed.styles?.variables?.['--color-background-primary']).toBe('#16191f');
  await shot(page, 'apps-context-dark');

  await page.emulateMedia({ colorScheme: 'light' });
  await expect
    .poll(() => viewColours(inner))
    .toEqual({
      background: await hostColour('--color-surface'),
      text: await hostColour('--color-text'),
      theme: 'light',
    });
});

test('fullscreen and back, and a narrower window: display mode and size reach the view', async () => {
  const view = page.getByTestId('app-view').last();
  const sizeOf = async () => {
    const box = await frameBox();
    return { width: Math.round(box.width), height: Math.round(box.height) };
  };
  await view.getByRole('button', { name: 'Fullscreen' }).click();
  await expect(view).toHaveAttribute('data-mode', 'fullscreen');
  // Fullscreen fixes both sides: the view fills its frame.
  const full = await sizeOf();
  expect(full.width).toBeGreaterThan(1200);
  await expect
    .poll(async () => {
      const c = await viewContext(inner);
      return { mode: c.displayMode, size: c.containerDimensions };
    })
    .toEqual({ mode: 'fullscreen', size: full });
  await shot(page, 'apps-context-fullscreen');

  await view.getByRole('button', { name: 'Exit fullscreen' }).click();
  await expect(view).toHaveAttribute('data-mode', 'inline');
  const inline = await sizeOf();
  await expect
    .poll(async () => {
      const c = await viewContext(inner);
      return { mode: c.displayMode, size: c.containerDimensions };
    })
    .toEqual({ mode: 'inline', size: { width: inline.width, maxHeight: 720 } });

  // The window narrows, the card with it: the view hears its new width.
  await page.setViewportSize({ width: 1000, height: 800 });
  await expect.poll(async () => (await sizeOf()).width).not.toBe(inline.width);
  const narrow = await sizeOf();
  await expect
    .poll(async () => (await viewContext(inner)).containerDimensions)
    .toEqual({ width: narrow.width, maxHeight: 720 });
});
