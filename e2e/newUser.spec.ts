// What a new user met on a walkthrough, end to end on a real `mooring web` with no D-Bus session (no
// keychain): an import that needs one says which server and what to do, where the person looks; a servers
// file with a typo is explained in app terms and reloads once fixed; Models checks the form's unsaved values
// with Save in reach; Diagnostics shows no legend without a chart; Sharing's entry works without npm link.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import { MEMORY, ROOT, startMooringWeb, type RunningWeb } from './harness';
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
  // The server left out is named with the value the keychain could not take, and what to do.
  await expect(dialog.getByTestId('import-left-out')).toContainText(
    'github: not imported; env GITHUB_TOKEN could not be kept without a keychain.',
  );
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
});

test('a servers file with a typo: the Servers screen names the file, line and column, and reloads once fixed', async ({
  browser,
}) => {
  const badHome = mkdtempSync(join(tmpdir(), 'mooring-e2e-badfile-'));
  const file = join(badHome, 'mcp_servers.json');
  writeFileSync(file, '{\n  "servers": [\n    { "name": "memory", "command": "node", }\n  ]\n}\n');
  const badWeb = await startMooringWeb(badHome);
  const p = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await p.goto(badWeb.url);
    await openScreen(p, 'Servers');
    const problem = p.getByTestId('servers-file-invalid');
    await expect(problem.getByTestId('servers-file-path')).toHaveText(file);
    await expect(problem.getByTestId('servers-file-issues')).toHaveText(
      'Line 3, column 44: expected a property name in double quotes',
    );
    await expect(problem).toContainText('loads it again by itself');
    await expect(problem).not.toContainText('mooring mcp list');
    // Fixed in an editor: the screen follows without a reload of the page, even with no server to start.
    writeFileSync(file, '{ "servers": [] }\n');
    await expect(p.getByTestId('empty-servers')).toBeVisible();
    await expect(problem).toHaveCount(0);
    writeFileSync(file, '{ "servers": [ oops ] }\n');
    await expect(problem).toBeVisible();
    writeFileSync(file, JSON.stringify({ servers: [{ name: 'memory', command: 'node', args: [MEMORY] }] }));
    await expect(p.getByTestId('server-memory')).toBeVisible();
    await expect(problem).toHaveCount(0);
  } finally {
    await p.close();
    await badWeb.stop();
  }
});

test('Models: Check tries the unsaved URL in the form, and Save is in view without scrolling', async () => {
  const model = await startOpenAIServer([]);
  try {
    await openScreen(page, 'Models');
    // A fresh home opens the model setup above the form; put aside, the form's Save is in view.
    await page.getByTestId('model-setup').getByRole('button', { name: 'Not now' }).click();
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeInViewport();
    const openai = page.getByTestId('provider-openai');
    await openai.getByLabel('openai base URL').fill(`${model.url}/v1`);
    await openai.getByRole('button', { name: 'Check' }).click();
    await expect(openai.getByTestId('check-openai')).toContainText('Reachable. 1 model: gpt-4o');
    // Nothing was saved by the check.
    await openScreen(page, 'Servers');
    await openScreen(page, 'Models');
    await expect(page.getByTestId('provider-openai').getByLabel('openai base URL')).toHaveValue('');
  } finally {
    await model.close();
  }
});

test('Diagnostics: a server with no calls yet has no chart legend, only a sentence', async () => {
  await openScreen(page, 'Diagnostics');
  const memory = page.getByTestId('diag-memory');
  await expect(memory.getByTestId('diag-no-chart')).toHaveText('Not enough calls for a latency chart yet.');
  await expect(memory.getByTestId('diag-legend')).toHaveCount(0);
  await expect(memory).not.toContainText('p50 p95');
});

test('Sharing: the entry for Claude Desktop names this Node and bin/mooring.mjs by full path', async () => {
  await openScreen(page, 'Sharing');
  const entry = JSON.parse(await page.getByTestId('sharing-client-entry').innerText()) as {
    mcpServers: { mooring: { command: string; args: string[] } };
  };
  expect(entry.mcpServers.mooring).toEqual({
    command: process.execPath,
    args: [join(ROOT, 'bin', 'mooring.mjs'), 'serve', '--stdio'],
  });
  await expect(page.getByTestId('sharing-bare-note')).toContainText('"mooring"');
});
