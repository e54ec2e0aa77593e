// Settings > Limits as a person reaches it from a message that names it: each limit with what it does and
// the command that sets it; a refused value says what it takes; a saved one is in settings.json. Light and
// dark, 1280×800 and 900×700, axe on each.
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './a11y';
import { startMooringWeb, type RunningWeb } from './harness';
import { openScreen } from './uiFlows';

const SHOTS = join(import.meta.dirname, '../test-results/screenshots');
let web: RunningWeb;
let home: string;

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  home = mkdtempSync(join(tmpdir(), 'mooring-e2e-limits-'));
  web = await startMooringWeb(home);
});
test.afterAll(async () => {
  await web?.stop();
});

const settingsFile = () =>
  JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')) as Record<string, unknown>;

async function look(page: Page, name: string) {
  for (const [w, h] of [
    [1280, 800],
    [900, 700],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: join(SHOTS, `${name}-${w}x${h}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('every limit a message names, with its command; a refused value says why; a saved one is in the file', async ({
  page,
}) => {
  await page.goto(web.url);
  await openScreen(page, 'Limits');
  const steps = page.getByTestId('limit-maxToolIterations');
  await expect(steps.getByLabel('Tool steps per message')).toHaveValue('25');
  await expect(steps.locator('code')).toHaveText('mooring settings set maxToolIterations 25');
  await expect(page.getByTestId('limit-deferredToolThreshold-tools').getByRole('textbox')).toHaveValue('40');
  await expect(page.getByTestId('limit-registryUrl').getByRole('textbox')).toHaveValue('');
  await expectAccessible(page, 'Limits');
  await look(page, 'limits');

  await steps.getByLabel('Tool steps per message').fill('0');
  await steps.getByRole('button', { name: 'Save' }).click();
  await expect(steps.getByTestId('limit-maxToolIterations-error')).toContainText('must be at least 1');

  await steps.getByLabel('Tool steps per message').fill('60');
  await expect(steps.locator('code')).toHaveText('mooring settings set maxToolIterations 60');
  await steps.getByRole('button', { name: 'Save' }).click();
  await expect(steps.getByRole('status')).toHaveText('Saved.');
  expect(settingsFile().maxToolIterations).toBe(60);

  // An optional limit emptied is unset, not written as an empty string.
  const chars = page.getByTestId('limit-largeResults-maxChars');
  await chars.getByRole('textbox').fill('50000');
  await chars.getByRole('button', { name: 'Save' }).click();
  await expect(chars.getByRole('status')).toHaveText('Saved.');
  expect(settingsFile().largeResults).toMatchObject({ maxChars: 50000 });
  await chars.getByRole('textbox').fill('');
  await expect(chars.locator('code')).toHaveText('mooring settings unset largeResults.maxChars');
  await chars.getByRole('button', { name: 'Save' }).click();
  await expect(chars.getByRole('status')).toHaveText('Saved.');
  expect(settingsFile().largeResults).not.toHaveProperty('maxChars');

  await page.emulateMedia({ colorScheme: 'dark' });
  await expectAccessible(page, 'Limits (dark)');
  await look(page, 'limits-dark');
});
