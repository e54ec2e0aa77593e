// Resources and completions in the app, end to end: a real `mooring web` child on its own MOORING_HOME with
// server-everything (a real process from node_modules), driven in Chromium. A resource is read, followed
// (its updates counted live on the badge), a template's variable is completed and read, bytes are offered
// to save, and a prompt's form in the composer offers the server's completions with the context of the
// argument before. Each step waits for what the app shows, never sleeps; axe checks the screen.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { LOG_LEVELS } from '../shared/settings';
import { expectAccessible } from './a11y';
import { EVERYTHING, ROOT, startMooringWeb, type RunningWeb } from './harness';
import { openScreen, runTool } from './uiFlows';

const SHOTS = join(import.meta.dirname, '../test-results/screenshots');

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let home: string;
let page: Page;
const pageErrors: string[] = [];
const ARCHITECTURE = 'demo://resource/static/document/architecture.md';

test.beforeAll(async ({ browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  home = mkdtempSync(join(tmpdir(), 'mooring-e2e-resources-'));
  // trust-all: the suite runs the server's toggle tool from the Playground without an approval step.
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({
      servers: [
        { name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'], policy: 'trust-all' },
        {
          name: 'catalog',
          command: 'node',
          args: [join(ROOT, 'test/fixtures/runTs.mjs'), join(ROOT, 'test/fixtures/servers/catalogServer.ts')],
        },
      ],
    }),
  );
  web = await startMooringWeb(home);
  page = await (await browser.newContext()).newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);
  for (const name of ['everything', 'catalog'])
    await expect(page.getByTestId(`server-${name}`).getByTestId('server-state')).toHaveText('ready');
});

test.afterAll(async () => {
  await page?.close();
  await web?.stop();
  expect(pageErrors).toEqual([]);
});

test('a resource is read into the viewer and followed: each update counts on its badge', async () => {
  await openScreen(page, 'Resources');
  const row = page.getByTestId('resource-row').filter({ hasText: ARCHITECTURE });
  await row.getByRole('button', { name: 'Read architecture.md' }).click();
  const viewer = page.getByTestId('resource-viewer');
  await expect(viewer).toContainText(ARCHITECTURE);
  await expect(viewer.getByTestId('resource-text')).toContainText('Architecture');

  await row.getByRole('button', { name: 'Follow architecture.md' }).click();
  await expect(row).toContainText('Following');
  await expectAccessible(page, 'Resources');
  await page.screenshot({ path: join(SHOTS, 'resources-1-read-and-follow.png') });

  // The server sends notifications/resources/updated for what is subscribed once this is on.
  await runTool(page, 'everything / toggle-subscriber-updates', {});
  await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'done');
  await openScreen(page, 'Resources');
  await expect(row).toContainText(/Updated \d+×/);

  await row.getByRole('button', { name: 'Stop following architecture.md' }).click();
  await expect(row.getByRole('button', { name: 'Follow architecture.md' })).toBeVisible();
});

test('in a 900-pixel window, where the viewer sits under the list, Read brings what it read into view', async () => {
  const before = page.viewportSize()!;
  await page.setViewportSize({ width: 900, height: 700 });
  try {
    await openScreen(page, 'Resources');
    await page.getByRole('tab', { name: 'everything' }).click();
    const row = page
      .getByTestId('resource-row')
      .filter({ hasText: 'demo://resource/static/document/features.md' });
    await row.getByRole('button', { name: 'Read features.md' }).click();
    const viewer = page.getByTestId('resource-viewer');
    await expect(viewer).toContainText('features.md');
    await expect(viewer.getByTestId('resource-text')).toBeInViewport();
    await page.screenshot({ path: join(SHOTS, 'resources-narrow-read.png') });
  } finally {
    await page.setViewportSize(before);
  }
});

test("a template's variables take the server's completions, and the expanded URI is read", async () => {
  await openScreen(page, 'Resources');
  await page.getByRole('tab', { name: 'catalog' }).click();
  const form = page.getByTestId('template-form').filter({ hasText: 'catalog://{shelf}/{item}' });
  const shelf = form.getByRole('combobox', { name: 'shelf' });
  await shelf.fill('m');
  const shelves = form.getByRole('listbox', { name: 'Suggestions for shelf' });
  await expect(shelves.getByRole('option')).toHaveText(['maps', 'music']);
  await shelves.getByRole('option', { name: 'maps' }).click();
  await expect(shelf).toHaveValue('maps');
  // The item's suggestions are those of the shelf chosen (the completion request's context).
  await form.getByRole('combobox', { name: 'item' }).focus();
  const items = form.getByRole('listbox', { name: 'Suggestions for item' });
  await expect(items.getByRole('option')).toHaveText(['harbour', 'highlands']);
  await page.screenshot({ path: join(SHOTS, 'resources-2-template-completions.png') });
  await items.getByRole('option', { name: 'highlands' }).click();
  await form.getByRole('button', { name: 'Read' }).click();
  const viewer = page.getByTestId('resource-viewer');
  await expect(viewer).toContainText('catalog://maps/highlands');
  await expect(viewer.getByTestId('resource-text')).toContainText('The highlands from maps.');
  await expectAccessible(page, 'Resources, a template');
});

test('an image resource is shown as an image, with its bytes offered to save', async () => {
  await page
    .getByTestId('resource-row')
    .filter({ hasText: 'catalog://cover.png' })
    .getByRole('button', { name: 'Read Catalog cover' })
    .click();
  const viewer = page.getByTestId('resource-viewer');
  await expect(viewer.getByRole('img', { name: 'Image contents of catalog://cover.png' })).toBeVisible();
  await expect(viewer).toContainText('image/png');
  await expect(viewer.getByRole('link', { name: 'Save' })).toHaveAttribute('href', /^blob:/);
});

test("a prompt's form offers the server's completions, narrowed by the argument before", async () => {
  await openScreen(page, 'Chat');
  await page.getByRole('button', { name: 'New conversation' }).click();
  await page.getByLabel('Message').fill('/completable');
  await page
    .getByTestId('slash-list')
    .getByRole('option', { name: /completable-prompt/ })
    .click();
  const form = page.getByTestId('prompt-form');
  const department = form.getByRole('combobox', { name: 'department' });
  await department.fill('S');
  const departments = form.getByRole('listbox', { name: 'Suggestions for department' });
  await expect(departments.getByRole('option')).toHaveText(['Sales', 'Support']);
  await departments.getByRole('option', { name: 'Sales' }).click();
  await expect(department).toHaveValue('Sales');

  await form.getByRole('combobox', { name: 'name' }).focus();
  const names = form.getByRole('listbox', { name: 'Suggestions for name' });
  await expect(names.getByRole('option')).toHaveText(['David', 'Eve', 'Frank']);
  await page.screenshot({ path: join(SHOTS, 'resources-3-prompt-completions.png') });
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(form.getByRole('combobox', { name: 'name' })).toHaveValue('David');
  await form.getByRole('button', { name: 'Insert prompt' }).click();
  await expect(page.getByLabel('Message')).toHaveValue(/David.*Sales/);
});

test("a server's own log level and sampling budget in its form; the default level on the Logs screen", async () => {
  await openScreen(page, 'Servers');
  await page.getByTestId('server-catalog').getByRole('button', { name: 'Edit' }).click();
  const form = page.getByTestId('server-form');
  await form.getByText('Advanced', { exact: true }).click();
  await form.getByLabel('Log level').selectOption('notice');
  await form.getByLabel('Sampling budget (tokens per hour)').fill('500');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  const entry = () =>
    (
      JSON.parse(readFileSync(join(home, 'mcp_servers.json'), 'utf8')).servers as Array<
        Record<string, unknown>
      >
    ).find((s) => s.name === 'catalog');
  expect(entry()).toMatchObject({ logLevel: 'notice', samplingTokensPerHour: 500 });

  await openScreen(page, 'Logs');
  const level = page.getByLabel('Servers log at');
  await expect(level.locator('option')).toHaveText([...LOG_LEVELS]);
  expect(LOG_LEVELS).toHaveLength(8);
  await level.selectOption('critical');
  await expect
    .poll(() => {
      const file = join(home, 'settings.json');
      return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')).logLevel as string) : undefined;
    })
    .toBe('critical');
  await expectAccessible(page, 'Logs');
});
