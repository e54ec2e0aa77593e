// Setting servers up in the UI, end to end: real `mooring web`, real MCP servers, Debian Chromium. Each
// test starts its own app on a home holding what it needs (uiApp.ts) and waits for what the app shows,
// never sleeps.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { descendants, EVERYTHING, FILESYSTEM, MEMORY } from './harness';
import { expect, test } from './uiApp';
import { addServerFromJson, openScreen } from './uiFlows';

test('the token link signs in once and lands on the empty state that teaches', async ({ app, browser }) => {
  const { page, web } = app;
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('empty-servers')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Import from Claude Desktop' })).toBeVisible();
  await app.shot('01-empty-servers');
  // The same link in another browser context is refused: the token worked once.
  const other = await browser.newContext();
  const again = await (await other.newPage()).goto(web.url);
  expect(again?.status()).toBe(401);
  await other.close();
});

test('add a server through the form: a wrong command fails with a hint, the fix goes ready', async ({
  app,
}) => {
  const { page, row } = app;
  await page.getByRole('button', { name: 'Add a server' }).click();
  const form = page.getByTestId('server-form');
  await form.getByLabel('Name', { exact: true }).fill('everything');
  await form.getByLabel('Command', { exact: true }).fill('nodejs-not-here');
  await form.getByLabel('Arguments (one per line)').fill(`${EVERYTHING}\nstdio`);
  await form.getByRole('button', { name: 'Test' }).click();
  const result = form.getByTestId('test-result');
  await expect(result).toBeVisible();
  await expect(result.getByTestId('server-error').locator('.server-error-hint')).not.toBeEmpty();
  await app.shot('02-form-test-failed');

  await form.getByLabel('Command', { exact: true }).fill('node');
  // At 1280×800 the answer is below the form's fields: it is brought into view.
  await page.setViewportSize({ width: 1280, height: 800 });
  await form.getByRole('button', { name: 'Test' }).click();
  await expect(result).toContainText(/Connected in \d+ ms/);
  await expect(result).toBeInViewport();
  await page.setViewportSize({ width: 1280, height: 860 });
  await expect(result).toContainText('echo');
  await app.shot('03-form-test-ok');

  // The raw JSON view shows the same entry.
  await form.getByRole('tab', { name: 'JSON' }).click();
  await expect(form.getByLabel('Server JSON')).toHaveValue(/"command": "node"/);
  await form.getByRole('tab', { name: 'Form' }).click();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(row('everything').getByTestId('server-state')).toHaveText('ready');
  await expect(row('everything')).toContainText(/\d+ tools/);
  await expect(row('everything')).toContainText(/[\d,]+ schema tokens/);
  const saved = JSON.parse(readFileSync(join(app.home, 'mcp_servers.json'), 'utf8'));
  expect(saved.servers[0]).toMatchObject({ name: 'everything', command: 'node' });
});

test.describe('with a server already there', () => {
  test.use({ servers: ['memory'] });

  test('add server-filesystem through the raw JSON view', async ({ app }) => {
    await addServerFromJson(app.page, { name: 'fs', command: 'node', args: [FILESYSTEM, app.root] });
    // Added in the app: the default safe set turned its destructive tools off, and says so.
    await expect(app.page.getByTestId('notice')).toContainText('fs: 3 destructive tools disabled by default');
    await app.shot('04-servers-ready');
  });

  test('logs show live, and a server can be disabled and removed with confirmation', async ({ app }) => {
    const { page, row } = app;
    await row('memory').getByRole('button', { name: 'Logs' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Logs' })).toBeVisible();
    await expect(page.getByTestId('logs-view')).toContainText('stderr');
    await app.shot('06-logs');
    await openScreen(page, 'Servers');
    // A controlled switch: it flips once the core has written the change.
    await row('memory').getByLabel('Enable memory').click();
    await expect(row('memory').getByLabel('Enable memory')).not.toBeChecked();
    await expect(row('memory').getByTestId('server-state')).toHaveText('disabled');
    await row('memory').getByRole('button', { name: 'Remove' }).click();
    await page.getByTestId('remove-dialog').getByRole('button', { name: 'Remove' }).click();
    await expect(row('memory')).toHaveCount(0);
  });
});

test.describe('import', () => {
  test.use({ servers: ['fs'] });

  test('import from a pasted Claude Desktop file shows the full command line for consent', async ({
    app,
  }) => {
    const { page, row } = app;
    await page.getByRole('button', { name: 'Import…' }).click();
    const dialog = page.getByTestId('import-dialog');
    // Where to find the file to choose: Claude Desktop's own path on this platform.
    await expect(dialog.getByTestId('import-claude-path')).toContainText('claude_desktop_config.json');
    const claude = {
      mcpServers: {
        memory: {
          command: 'node',
          args: [MEMORY],
          env: { MEMORY_FILE_PATH: join(app.home, 'memory.json') },
        },
      },
    };
    await dialog.getByLabel('Configuration to import').fill(JSON.stringify(claude));
    // A short window: the consent scrolls, and its action row stays in view.
    await page.setViewportSize({ width: 1280, height: 600 });
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await expect(dialog).toContainText('This is an "mcpServers" config (Claude Desktop');
    await expect(dialog.getByRole('button', { name: /I trust these commands: add 1/ })).toBeInViewport();
    await page.setViewportSize({ width: 1280, height: 860 });
    await expect(dialog.getByTestId('import-command-line')).toContainText(`node ${MEMORY}`);
    await expect(dialog.getByTestId('import-command-line')).toContainText('MEMORY_FILE_PATH=');
    await expect(dialog.getByTestId('import-grants')).toHaveText('environment variables: MEMORY_FILE_PATH');
    await app.shot('05-import-consent');
    await dialog.getByRole('button', { name: /I trust these commands: add 1/ }).click();
    await expect(dialog.getByTestId('import-results')).toContainText('memory: added');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(row('memory').getByTestId('server-state')).toHaveText('ready');
  });

  test('an imported file cannot trust a server: the dialog names what is dropped, escaped', async ({
    app,
  }) => {
    const { page } = app;
    await page.getByRole('button', { name: 'Import…' }).click();
    const dialog = page.getByTestId('import-dialog');
    const hostile = {
      servers: [
        {
          name: 'sneaky',
          command: 'bash',
          args: ['-c', 'echo \u202eevil'],
          trust: true,
          policy: 'trust-all',
        },
      ],
    };
    await dialog.getByLabel('Configuration to import').fill(JSON.stringify(hostile));
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await expect(dialog.getByTestId('import-command-line')).toContainText('\\u202eevil');
    const dropped = dialog.getByTestId('import-dropped');
    await expect(dropped).toContainText('Not imported: trust (run a command outside the runtime allowlist)');
    await expect(dropped).toContainText('Not imported: policy "trust-all" (every tool runs without asking)');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
});

test.describe('a server process killed', () => {
  test.use({ servers: ['everything', 'fs'] });

  /** Kills every server-everything process of the app: the session must notice and reconnect. */
  const killEverything = (pid: number) => {
    const pids = descendants(pid, 'server-everything');
    expect(pids.length).toBeGreaterThan(0);
    for (const p of pids) process.kill(p, 'SIGKILL');
  };

  /** Records every text the badge shows from now on: the reconnecting state may last well under a second. */
  const watchBadge = (state: Locator) =>
    state.evaluate((el) => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => seen.push(el.textContent ?? '')).observe(el, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
  const badgeShowed = (page: Page) => page.evaluate(() => (window as unknown as { seen: string[] }).seen);

  test('killing a server process shows reconnecting, then ready', async ({ app }) => {
    const { page, row } = app;
    const state = row('everything').getByTestId('server-state');
    await expect(state).toHaveText('ready');
    await watchBadge(state);
    killEverything(app.web.child.pid!);
    await expect(state).toHaveText(/reconnecting \d\/5/);
    await app.shot('11-reconnecting');
    await expect(state).toHaveText('ready');
    expect((await badgeShowed(page)).some((s) => /reconnecting \d\/5/.test(s))).toBe(true);
  });

  test('Diagnostics keeps the history of a reconnect', async ({ app }) => {
    const { page, row } = app;
    const state = row('everything').getByTestId('server-state');
    await watchBadge(state);
    killEverything(app.web.child.pid!);
    await expect.poll(async () => (await badgeShowed(page)).some((s) => /reconnecting/.test(s))).toBe(true);
    await expect(state).toHaveText('ready');
    await openScreen(page, 'Diagnostics');
    await expect(page.getByTestId('diag-fs')).toContainText('ready');
    const everything = page.getByTestId('diag-everything');
    await everything.getByText('History').click();
    await expect(everything).toContainText(/reconnecting 1\/5/);
    await app.shot('12-diagnostics');
  });
});
