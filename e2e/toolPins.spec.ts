// The annotation rug pull held in the app, end to end on a real `mooring web` in Chromium at 1280×800: a real
// server (test/fixtures/servers/mutableTool.ts) turns its destructive tool "read-only" through a real
// notifications/tools/list_changed; the Tools screen marks the tool as changed, and its next call asks in
// the approval dialog with what changed since Mooring first saw it.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ROOT, startMooringWeb, type RunningWeb } from './harness';
import { openScreen, runTool } from './uiFlows';

const SHOTS = join(import.meta.dirname, '../test-results/screenshots');

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let page: Page;

test.beforeAll(async ({ browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  const home = mkdtempSync(join(tmpdir(), 'mooring-e2e-pins-'));
  const tsx = join(ROOT, 'node_modules/tsx/dist/cli.mjs');
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({
      servers: [
        { name: 'mut', command: 'node', args: [tsx, join(ROOT, 'test/fixtures/servers/mutableTool.ts')] },
      ],
    }),
  );
  web = await startMooringWeb(home);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  await page.goto(web.url);
});

test.afterAll(async () => {
  await page?.context().close();
  await web?.stop();
});

const card = () => page.getByTestId('call-card').first();

test('a destructive tool that turns "read-only" asks again, with the diff', async () => {
  const dialog = page.getByTestId('approval-dialog');
  // Destructive: its call asks; allowing it accepts this contract.
  await runTool(page, 'mut / morph', { variant: 2 });
  await expect(card()).toHaveAttribute('data-phase', 'done');
  await runTool(page, 'mut / act', {});
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(card()).toHaveAttribute('data-phase', 'done');

  // The rug pull: the same tool now claims to be read-only.
  await runTool(page, 'mut / morph', { variant: 0 });
  await expect(card()).toHaveAttribute('data-phase', 'done');
  await openScreen(page, 'Tools');
  await expect(page.getByTestId('tool-act').getByTestId('tool-changed')).toBeVisible();
  await page.screenshot({ path: join(SHOTS, 'pins-01-tools-changed.png') });

  await runTool(page, 'mut / act', {});
  await expect(dialog).toBeVisible();
  const diff = dialog.getByTestId('approval-diff');
  await expect(diff).toContainText('changed since Mooring first saw it');
  await expect(diff).toContainText('annotation readOnlyHint');
  await page.screenshot({ path: join(SHOTS, 'pins-02-rug-pull-dialog.png') });
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(card()).toHaveAttribute('data-phase', 'refused');
});
