// Moving around by keyboard: the first tab stop skips the sidebar, and choosing a screen in the sidebar
// puts focus on that screen, not back in the sidebar.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startMooringWeb, type RunningWeb } from './harness';

let web: RunningWeb;

test.beforeAll(async () => {
  web = await startMooringWeb(mkdtempSync(join(tmpdir(), 'mooring-e2e-keys-')));
});
test.afterAll(async () => {
  await web?.stop();
});

test('a skip link first; a sidebar choice moves focus to the page it opened', async ({ page }) => {
  await page.goto(web.url);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Logs', exact: true })
    .focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Logs' })).toBeVisible();
  await expect(page.locator('main')).toBeFocused();
  // The next Tab goes into the page, not further down the sidebar.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true);
});
