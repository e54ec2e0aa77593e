// Steps both end-to-end suites take through the UI (browser mode in Chromium, the desktop app in Electron):
// the same screens, so the same clicks.
import { expect, type Page } from '@playwright/test';
import { SCREENS as SCREEN_TABLE } from '../src-renderer/src/shell/screens';

/** Adds a server through the form's raw JSON view (the list already has one) and waits until it is ready. */
export async function addServerFromJson(page: Page, entry: { name: string } & Record<string, unknown>) {
  await page.getByRole('button', { name: 'Add server' }).click();
  const form = page.getByTestId('server-form');
  await form.getByRole('tab', { name: 'JSON' }).click();
  await form.getByLabel('Server JSON').fill(JSON.stringify(entry));
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByTestId(`server-${entry.name}`).getByTestId('server-state')).toHaveText('ready');
}

/** Every screen's title, as the sidebar lists it (src-renderer/src/shell/screens.ts declares them), in its order. */
export const SCREENS = SCREEN_TABLE.map((s) => s.title);

/** Opens a screen from the sidebar by its label. */
export async function openScreen(page: Page, label: string) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: label, exact: true })
    .click();
  // Every page's title is its sidebar label; the chat's is the open conversation's.
  if (label !== 'Chat')
    await expect(page.getByRole('heading', { level: 1, name: label, exact: true })).toBeVisible();
}

/**
 * Opens every screen at 1280×800 and at 900×700, checks nothing overflows sideways, then runs `each` on it
 * (axe, a screenshot).
 */
export async function everyScreen(page: Page, each: (label: string, w: number, h: number) => Promise<void>) {
  for (const [w, h] of [
    [1280, 800],
    [900, 700],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    for (const label of SCREENS) {
      await openScreen(page, label);
      expect(await sidewaysOverflow(page), `${label} at ${w}px overflows sideways`).toBeLessThanOrEqual(0);
      await each(label, w, h);
    }
  }
}

/** Runs `server / tool` from the Playground with these arguments. */
export async function runTool(page: Page, tool: string, args: object) {
  await openScreen(page, 'Playground');
  await page.getByLabel('Tool', { exact: true }).selectOption({ label: tool });
  await page.getByLabel('Arguments').fill(JSON.stringify(args));
  await page.getByRole('button', { name: 'Run' }).click();
}

/** How far the page's content is wider than its column (0 or less: nothing overflows sideways). */
export const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => {
    const c = document.querySelector('main.content')!;
    return c.scrollWidth - c.clientWidth;
  });
