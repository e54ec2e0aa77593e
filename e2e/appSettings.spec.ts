// Project folders, sharing Mooring with other apps, the chat without a model and the dark theme, end to
// end: real `mooring web`, real MCP servers, Debian Chromium. Each test starts its own app on a home
// holding what it needs (uiApp.ts) and waits for what the app shows, never sleeps.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVERYTHING } from './harness';
import { expect, test } from './uiApp';
import { openScreen } from './uiFlows';

test('project folders: a .vscode/mcp.json server is shown with its command line and runs only once approved', async ({
  app,
}) => {
  const { page } = app;
  const project = mkdtempSync(join(tmpdir(), 'mooring-e2e-project-'));
  mkdirSync(join(project, '.vscode'));
  writeFileSync(
    join(project, '.vscode', 'mcp.json'),
    JSON.stringify({
      servers: { projecty: { type: 'stdio', command: 'node', args: [EVERYTHING, 'stdio'] } },
    }),
  );
  await openScreen(page, 'Project folders');
  await page.getByRole('textbox', { name: 'Project folder path' }).fill(project);
  await page.getByRole('button', { name: 'Look' }).click();
  const offered = page.getByTestId('offered-projecty');
  await expect(offered).toContainText('not approved');
  await expect(offered).toContainText(`node ${EVERYTHING} stdio`);
  await app.shot('16-project-folders');
  await offered.getByRole('button', { name: /Approve/ }).click();
  await expect(offered).toContainText('approved');
  await expect(offered.getByRole('button', { name: /Approve/ })).toHaveCount(0);
  const approvals = JSON.parse(readFileSync(join(app.home, 'workspace-approvals.json'), 'utf8'));
  expect(JSON.stringify(approvals)).toContain('projecty');
});

test('share Mooring with other apps: start the MCP server, see the URL and token once, stop it', async ({
  app,
}) => {
  const { page } = app;
  // Its own place in Settings, not the first screen.
  await openScreen(page, 'Sharing');
  const panel = page.getByTestId('mcp-server-panel');
  await panel.getByRole('button', { name: 'Start' }).click();
  await expect(panel.getByTestId('mcp-server-token')).toContainText('Authorization');
  const snippet = await panel.getByTestId('mcp-server-token').locator('pre').textContent();
  const { url, headers } = JSON.parse(snippet!);
  const unauthorised = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(unauthorised.status).toBe(401);
  expect(headers.Authorization).toMatch(/^Bearer .{20,}/);
  await app.shot('17-share-mcp-server');
  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect(panel.getByRole('button', { name: 'Start' })).toBeVisible();
});

test.describe('with a server', () => {
  test.use({ servers: ['fs'] });

  test('the chat without a model points to Settings; the screens in the dark theme', async ({ app }) => {
    const { page, row } = app;
    await openScreen(page, 'Chat');
    // No model chosen in this home and nothing on Ollama's port: the chat says a model is needed first.
    await expect(page.getByTestId('chat-setup')).toBeVisible();
    await app.shot('13-chat-no-model');
    await page.emulateMedia({ colorScheme: 'dark' });
    await openScreen(page, 'Servers');
    await expect(row('fs')).toBeVisible();
    await app.shot('14-servers-dark');
    await openScreen(page, 'Playground');
    await app.shot('15-playground-dark');
  });
});
