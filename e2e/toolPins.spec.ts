// The annotation rug pull held in the app, end to end on a real `mooring web` in Chromium at 1280×800: a real
// server (test/fixtures/servers/mutableTool.ts) turns its destructive tool "read-only" through a real
// notifications/tools/list_changed; the Tools screen marks the tool as changed, and its next call asks in
// the approval dialog with what changed since Mooring first saw it. A hostile server's strings (tool title,
// description, the arguments of its call) show their bidi and control characters as visible escapes in the
// dialog, on the tool card and on the Tools screen (shared/untrustedText.ts).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ESCAPES, rawEscapesIn } from '../test/fixtures/servers/hostileText';
import { ROOT, startMooringWeb, type RunningWeb } from './harness';
import { openScreen, runTool } from './uiFlows';

const SHOTS = join(import.meta.dirname, '../test-results/screenshots');

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let page: Page;

test.beforeAll(async ({ browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  const home = mkdtempSync(join(tmpdir(), 'mooring-e2e-pins-'));
  const tsx = join(ROOT, 'test/fixtures/runTs.mjs');
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({
      servers: [
        {
          name: 'hostile',
          command: 'node',
          args: [tsx, join(ROOT, 'test/fixtures/servers/hostileServer.ts')],
        },
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
  await page.getByRole('tab', { name: /mut/ }).click();
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

test('bidi and control characters show as visible escapes in the dialog, the card and the Tools screen', async () => {
  const dialog = page.getByTestId('approval-dialog');
  await runTool(page, 'hostile / lookup', { query: 'invoice\u202Efdp.exe' });
  await expect(dialog).toBeVisible();
  const asked = await dialog.innerText();
  expect(rawEscapesIn(asked)).toEqual([]);
  const args = await dialog.getByLabel('Approval arguments').inputValue();
  expect(rawEscapesIn(args)).toEqual([]);
  expect(args).toContain('invoice\\u202efdp.exe');
  expect(asked).toContain(`Delete every file\\r${ESCAPES.clearLine.shown}`);
  await page.screenshot({ path: join(SHOTS, 'pins-03-escaped-dialog.png') });
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(card()).toHaveAttribute('data-phase', 'refused');
  await card().getByTestId('call-arguments').locator('summary').click();
  const cardText = await card().innerText();
  expect(rawEscapesIn(cardText)).toEqual([]);
  expect(cardText).toContain('invoice\\u202efdp.exe');

  await openScreen(page, 'Tools');
  await page.getByRole('tab', { name: /hostile/ }).click();
  const row = page.getByTestId('tool-lookup');
  await expect(row).toContainText(ESCAPES.rightToLeft.shown);
  expect(rawEscapesIn(await row.innerText())).toEqual([]);
});
