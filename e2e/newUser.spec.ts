// What a new user met on a walkthrough, end to end on a real `mooring web`: an import on a machine without
// a keychain (no D-Bus session) names the server that needs one and says what to do, where the person looks.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { MEMORY, startMooringWeb, type RunningWeb } from './harness';
import { openScreen } from './uiFlows';

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let home: string;
let page: Page;

test.beforeAll(async ({ browser }) => {
  home = mkdtempSync(join(tmpdir(), 'mooring-e2e-newuser-'));
  // No D-Bus session and no display: libsecret reaches no Secret Service.
  web = await startMooringWeb(home, {
    env: { DBUS_SESSION_BUS_ADDRESS: undefined, DISPLAY: undefined, WAYLAND_DISPLAY: undefined },
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(web.url);
});

test.afterAll(async () => {
  await page?.close();
  await web?.stop();
});

test('without a keychain, an import names the server with a secret, unchecks it, and imports the rest', async () => {
  await openScreen(page, 'Servers');
  await page.getByRole('button', { name: 'Import…' }).click();
  const dialog = page.getByTestId('import-dialog');
  const file = {
    mcpServers: {
      github: { command: 'node', args: ['x.js'], env: { GITHUB_TOKEN: 'ghp_secret123456' } },
      memory: { command: 'node', args: [MEMORY], env: { MEMORY_FILE_PATH: join(home, 'memory.jsonl') } },
    },
  };
  await dialog.getByLabel('Configuration to import').fill(JSON.stringify(file));
  await dialog.getByRole('button', { name: 'Preview' }).click();
  const note = dialog.getByTestId('import-no-keychain');
  await expect(note).toContainText('cannot keep its secrets: github');
  await expect(note).toContainText('${env:NAME}');
  await expect(dialog.getByTestId('import-needs-keychain')).toHaveText(
    'Needs the keychain for env GITHUB_TOKEN',
  );
  // Checked anyway: the error appears beside the button, in view, with the servers named first.
  await dialog.getByRole('checkbox').first().check();
  await dialog.getByRole('button', { name: /I trust these commands: add 2/ }).click();
  const error = dialog.getByTestId('import-error');
  await expect(error).toBeInViewport();
  await expect(error.locator('strong')).toHaveText(
    '"github" has secrets to keep in the keychain, and no keychain is reachable here, so nothing was imported.',
  );
  await expect(error.locator('details')).not.toHaveAttribute('open');
  // Unchecked again: the error goes, and the others are imported.
  await dialog.getByRole('checkbox').first().uncheck();
  await expect(error).toHaveCount(0);
  await dialog.getByRole('button', { name: /I trust these commands: add 1/ }).click();
  await expect(dialog.getByTestId('import-results')).toContainText('memory: added');
});
