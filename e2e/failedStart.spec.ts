// A server that fails at its start leads somewhere (docs/sessions.md; mcp/stderrHeadline.ts): its card
// names the stderr line that says why (a FATAL line, not the notice before it), and its Logs hold the
// failed start with its cause, where the card's "see Logs" points.
import { expect, test, type Page } from '@playwright/test';
import { chatHome, closeChatApp, openChatApp, shot } from './chatHarness';
import { FILESYSTEM, type RunningWeb } from './harness';

let web: RunningWeb;
let page: Page;
const pageErrors: string[] = [];

// A notice, the reason, then a line after it, and an exit before the handshake.
const BROKEN = [
  "console.error('No valid root directories provided, using the current one');",
  "console.error('FATAL: settings.toml is missing');",
  "console.error('Shutting down');",
  'process.exit(3);',
].join(' ');

test.beforeAll(async ({ browser }) => {
  const { home } = chatHome('failed-start', (d) => [
    { name: 'fs', command: 'node', args: [FILESYSTEM, d.root] },
    { name: 'broken', command: 'node', args: ['-e', BROKEN] },
  ]);
  ({ web, page } = await openChatApp(browser, { home, ready: ['fs'], pageErrors }));
});

test.afterAll(() => closeChatApp({ page, web, pageErrors }));

test('a server that exits at its start: the card names the FATAL line, and its Logs say it could not start', async () => {
  // The entry counts the failed server ("Servers 1 failed").
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: /^Servers/ })
    .click();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Servers 1 failed' }),
  ).toBeVisible();
  const card = page.getByTestId('server-broken');
  await expect(card.getByTestId('server-state')).toHaveText('failed');
  // The headline is the reason; the stderr lines stay below it, whole.
  const headline = card.getByTestId('server-error').locator('.server-error-summary');
  await expect(headline).toContainText('FATAL: settings.toml is missing');
  await expect(headline).not.toContainText('No valid root directories');
  await shot(page, 'failed-start-card');
  await card.getByRole('button', { name: 'Logs' }).click();
  const logs = page.getByTestId('logs-view');
  await expect(logs).toContainText('could not start');
  await expect(logs).toContainText('FATAL: settings.toml is missing');
  await shot(page, 'failed-start-logs');
});
