// The UI end to end: real `mooring web`, real MCP servers, Debian Chromium.
// One browser session walks the screens in order; each step waits for what the app shows, never sleeps.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  descendants,
  EVERYTHING,
  FILESYSTEM,
  MEMORY,
  ROOT,
  startMooringWeb,
  type RunningWeb,
} from './harness';
import { addServerFromJson, openScreen, runTool as runToolIn } from './uiFlows';

const SHOTS = join(import.meta.dirname, '../test-results/screenshots');
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let home: string;
let root: string;
let page: Page;
const pageErrors: string[] = [];

test.beforeAll(async ({ browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  home = mkdtempSync(join(tmpdir(), 'mooring-e2e-home-'));
  root = mkdtempSync(join(tmpdir(), 'mooring-e2e-files-'));
  web = await startMooringWeb(home);
  page = await browser.newPage();
  // A page error (a React crash) fails the suite in afterAll, with its message.
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);
});

test.afterAll(async () => {
  await page?.close();
  expect(pageErrors).toEqual([]);
  if (!web) return;
  const pid = web.child.pid!;
  const code = await web.stop();
  expect(code, web.stderr()).toBe(0);
  // Ctrl-C/SIGTERM closes every session: no server process outlives the command.
  expect(descendants(pid, 'modelcontextprotocol')).toEqual([]);
});

const row = (name: string) => page.getByTestId(`server-${name}`);

test('the token link signs in once and lands on the empty state that teaches', async ({ browser }) => {
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('empty-servers')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Import from Claude Desktop' })).toBeVisible();
  await shot(page, '01-empty-servers');
  // The same link in another browser context is refused: the token worked once.
  const other = await browser.newContext();
  const again = await (await other.newPage()).goto(web.url);
  expect(again?.status()).toBe(401);
  await other.close();
});

test('add a server through the form: a wrong command fails with a hint, the fix goes ready', async () => {
  await page.getByRole('button', { name: 'Add a server' }).click();
  const form = page.getByTestId('server-form');
  await form.getByLabel('Name', { exact: true }).fill('everything');
  await form.getByLabel('Command', { exact: true }).fill('nodejs-not-here');
  await form.getByLabel('Arguments (one per line)').fill(`${EVERYTHING}\nstdio`);
  await form.getByRole('button', { name: 'Test' }).click();
  const result = form.getByTestId('test-result');
  await expect(result).toBeVisible();
  await expect(result.getByTestId('server-error').locator('.server-error-hint')).not.toBeEmpty();
  await shot(page, '02-form-test-failed');

  await form.getByLabel('Command', { exact: true }).fill('node');
  // At 1280×800 the answer is below the form's fields: it is brought into view.
  await page.setViewportSize({ width: 1280, height: 800 });
  await form.getByRole('button', { name: 'Test' }).click();
  await expect(result).toContainText(/Connected in \d+ ms/);
  await expect(result).toBeInViewport();
  await page.setViewportSize({ width: 1280, height: 860 });
  await expect(result).toContainText('echo');
  await shot(page, '03-form-test-ok');

  // The raw JSON view shows the same entry.
  await form.getByRole('tab', { name: 'JSON' }).click();
  await expect(form.getByLabel('Server JSON')).toHaveValue(/"command": "node"/);
  await form.getByRole('tab', { name: 'Form' }).click();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(row('everything').getByTestId('server-state')).toHaveText('ready');
  await expect(row('everything')).toContainText(/\d+ tools/);
  await expect(row('everything')).toContainText(/[\d,]+ schema tokens/);
  const saved = JSON.parse(readFileSync(join(home, 'mcp_servers.json'), 'utf8'));
  expect(saved.servers[0]).toMatchObject({ name: 'everything', command: 'node' });
});

test('add server-filesystem through the raw JSON view', async () => {
  await addServerFromJson(page, { name: 'fs', command: 'node', args: [FILESYSTEM, root] });
  // Added in the app: the default safe set turned its destructive tools off, and says so.
  await expect(page.getByTestId('notice')).toContainText('fs: 3 destructive tools disabled by default');
  await shot(page, '04-servers-ready');
});

test('the Playground starts from the arguments a tool needs, and runs it', async () => {
  await openScreen(page, 'Playground');
  await page.getByLabel('Tool', { exact: true }).selectOption({ label: 'everything / echo' });
  const args = page.getByLabel('Arguments', { exact: true });
  await expect(args).toHaveValue('{\n  "message": ""\n}');
  await page.getByRole('button', { name: 'Run' }).click();
  // Left empty, it is still a string: the server echoes it. Left out, the check names it.
  await expect(page.getByLabel('Tool calls')).toContainText('Echo:');
  await args.fill('{}');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByText('message is required (string)')).toBeVisible();
  await openScreen(page, 'Servers');
});

test('import from a pasted Claude Desktop file shows the full command line for consent', async () => {
  await page.getByRole('button', { name: 'Import…' }).click();
  const dialog = page.getByTestId('import-dialog');
  // Where to find the file to choose: Claude Desktop's own path on this platform.
  await expect(dialog.getByTestId('import-claude-path')).toContainText('claude_desktop_config.json');
  const claude = {
    mcpServers: {
      memory: { command: 'node', args: [MEMORY], env: { MEMORY_FILE_PATH: join(home, 'memory.json') } },
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
  await shot(page, '05-import-consent');
  await dialog.getByRole('button', { name: /I trust these commands: add 1/ }).click();
  await expect(dialog.getByTestId('import-results')).toContainText('memory: added');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(row('memory').getByTestId('server-state')).toHaveText('ready');
});

test('an imported file cannot trust a server: the dialog names what is dropped, escaped', async () => {
  await page.getByRole('button', { name: 'Import…' }).click();
  const dialog = page.getByTestId('import-dialog');
  const hostile = {
    servers: [
      { name: 'sneaky', command: 'bash', args: ['-c', 'echo \u202eevil'], trust: true, policy: 'trust-all' },
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

test('logs show live, and a server can be disabled and removed with confirmation', async () => {
  await row('memory').getByRole('button', { name: 'Logs' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Logs' })).toBeVisible();
  await expect(page.getByTestId('logs-view')).toContainText('stderr');
  await shot(page, '06-logs');
  await openScreen(page, 'Servers');
  // A controlled switch: it flips once the core has written the change.
  await row('memory').getByLabel('Enable memory').click();
  await expect(row('memory').getByLabel('Enable memory')).not.toBeChecked();
  await expect(row('memory').getByTestId('server-state')).toHaveText('disabled');
  await row('memory').getByRole('button', { name: 'Remove' }).click();
  await page.getByTestId('remove-dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(row('memory')).toHaveCount(0);
});

test('tool selection: the default safe set, badges, search, and a toggle that writes excludeTools', async () => {
  await row('everything').getByRole('button', { name: 'Tools' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tools' })).toBeVisible();
  await page.getByRole('tab', { name: 'fs' }).click();
  await expect(page.getByTestId('tool-write_file')).toContainText('destructive');
  await expect(page.getByTestId('tool-read_text_file')).toContainText('read-only');
  await expect(page.getByTestId('tool-read_text_file').getByRole('switch')).toBeChecked();
  await expect(page.getByTestId('tool-write_file').getByRole('switch')).not.toBeChecked();
  await expect(page.getByTestId('destructive-banner')).toContainText('3 destructive tools disabled');
  await page.getByLabel('Search tools').fill('directory');
  await expect(page.getByTestId('tool-write_file')).toHaveCount(0);
  await expect(page.getByTestId('tool-list_directory')).toBeVisible();
  await page.getByLabel('Search tools').fill('');
  // Turn write_file on: the model may now use it, and each call still asks first.
  await page.getByTestId('tool-write_file').getByRole('switch').click();
  await expect(page.getByTestId('tool-write_file').getByRole('switch')).toBeChecked();
  const fs = JSON.parse(readFileSync(join(home, 'mcp_servers.json'), 'utf8')).servers.find(
    (s: { name: string }) => s.name === 'fs',
  );
  expect(fs.excludeTools).not.toContain('write_file');
  expect(fs.excludeTools).toEqual(expect.arrayContaining(['edit_file', 'move_file']));
  await expect(page.getByTestId('destructive-banner')).toContainText('2 destructive tools disabled');
  await shot(page, '07-tool-selection');
});

test('agents: a named tool set across servers is saved, listed and edited', async () => {
  await openScreen(page, 'Tool sets');
  const panel = page.getByTestId('toolsets');
  await panel.getByRole('button', { name: 'New tool set' }).click();
  const editor = page.getByTestId('toolset-editor');
  await editor.getByLabel('Tool set name').fill('Reader');
  // Grouped by server, searchable.
  await expect(editor.getByRole('group', { name: 'fs' })).toBeVisible();
  await editor.getByLabel('Search tools to add').fill('read_text');
  await editor.getByLabel('Include mcp__fs__read_text_file').check();
  await editor.getByLabel('Search tools to add').fill('');
  await editor.getByLabel('Include mcp__everything__echo').check();
  await editor.getByRole('button', { name: 'Save tool set' }).click();
  await expect(editor).toBeHidden();
  await expect(panel.getByTestId('toolset-Reader')).toContainText('mcp__fs__read_text_file');
  const settings = JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8'));
  expect(settings.toolSets).toEqual([
    { name: 'Reader', tools: ['mcp__fs__read_text_file', 'mcp__everything__echo'] },
  ]);
  await shot(page, '07b-tool-sets');
  // Edited, not only removed: drop echo.
  await panel.getByRole('button', { name: 'Edit Reader' }).click();
  await editor.getByLabel('Include mcp__everything__echo').uncheck();
  await editor.getByRole('button', { name: 'Save tool set' }).click();
  await expect(editor).toBeHidden();
  expect(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')).toolSets).toEqual([
    { name: 'Reader', tools: ['mcp__fs__read_text_file'] },
  ]);
});

const runTool = (tool: string, args: object) => runToolIn(page, tool, args);

test('a destructive call asks; the edited arguments reach the server', async () => {
  const file = join(root, 'approved.txt');
  await runTool('fs / write_file', { path: file, content: 'as the model asked' });
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('write_file');
  await expect(dialog).toContainText('destructive');
  await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'awaiting-approval');
  const editor = dialog.getByLabel('Approval arguments');
  // Invalid against the schema: content must be a string.
  await editor.fill(JSON.stringify({ path: file, content: 42 }));
  await expect(dialog.getByTestId('approval-args-error')).toContainText('content');
  await expect(dialog.getByRole('button', { name: 'Allow once' })).toBeDisabled();
  await editor.fill(JSON.stringify({ path: file, content: 'as the user edited' }, null, 2));
  await shot(page, '08-approval-dialog');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'done');
  expect(readFileSync(file, 'utf8')).toBe('as the user edited');
  await expect(page.getByTestId('call-card').first()).toContainText(
    'Arguments (edited by you before approval)',
  );
  await shot(page, '09-call-done');
});

test('deny leaves the file system untouched', async () => {
  const file = join(root, 'denied.txt');
  await runTool('fs / write_file', { path: file, content: 'never' });
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'refused');
  expect(existsSync(file)).toBe(false);
});

test('an image result shows in the gallery and opens in the lightbox', async () => {
  await runTool('everything / get-tiny-image', {});
  const card = page.getByTestId('call-card').first();
  await expect(card).toHaveAttribute('data-phase', 'done');
  const thumb = card.getByTestId('gallery').getByRole('listitem').first();
  await expect(thumb.locator('img')).toHaveJSProperty('complete', true);
  expect(await thumb.locator('img').evaluate((i: HTMLImageElement) => i.naturalWidth)).toBeGreaterThan(0);
  await thumb.click();
  const box = page.getByTestId('lightbox');
  await expect(box).toBeVisible();
  await expect(box.getByTestId('lightbox-position')).toContainText('1 / 1 · image/png');
  await expect(box.getByRole('link', { name: 'Save to file' })).toHaveAttribute('download', /\.png$/);
  await shot(page, '10-lightbox');
  await page.keyboard.press('Escape');
  await expect(box).toBeHidden();
});

test('killing a server process shows reconnecting, then ready', async () => {
  await openScreen(page, 'Servers');
  const state = row('everything').getByTestId('server-state');
  await expect(state).toHaveText('ready');
  // Record every text the badge shows: the reconnecting state may last well under a second.
  await state.evaluate((el) => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    new MutationObserver(() => seen.push(el.textContent ?? '')).observe(el, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  const pids = descendants(web.child.pid!, 'server-everything');
  expect(pids.length).toBeGreaterThan(0);
  for (const pid of pids) process.kill(pid, 'SIGKILL');
  await expect(state).toHaveText(/reconnecting \d\/5/);
  await shot(page, '11-reconnecting');
  await expect(state).toHaveText('ready');
  const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
  expect(seen.some((s) => /reconnecting \d\/5/.test(s))).toBe(true);
});

test('diagnostics, the chat without a model and the dark theme', async () => {
  await openScreen(page, 'Diagnostics');
  await expect(page.getByTestId('diag-fs')).toContainText('ready');
  const everything = page.getByTestId('diag-everything');
  await everything.getByText('History').click();
  await expect(everything).toContainText(/reconnecting 1\/5/);
  await shot(page, '12-diagnostics');
  await openScreen(page, 'Chat');
  // No model is reachable in this home (nothing on Ollama's port): the chat says so and points to Settings.
  await expect(page.getByTestId('chat-no-model')).toBeVisible();
  await shot(page, '13-chat-no-model');
  await page.emulateMedia({ colorScheme: 'dark' });
  await openScreen(page, 'Servers');
  await expect(row('fs')).toBeVisible();
  await shot(page, '14-servers-dark');
  await openScreen(page, 'Playground');
  await shot(page, '15-playground-dark');
  await page.emulateMedia({ colorScheme: 'light' });
});

test('keyboard: the approval dialog is reachable and answerable without a mouse', async () => {
  await runTool('fs / write_file', { path: join(root, 'keyboard.txt'), content: 'typed' });
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toBeVisible();
  // Focus is trapped inside the dialog; Tab reaches Approve and Enter presses it.
  for (let i = 0; i < 8; i++) {
    const focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
    if (focused === 'Allow once') break;
    await page.keyboard.press('Tab');
  }
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'done');
  expect(readFileSync(join(root, 'keyboard.txt'), 'utf8')).toBe('typed');
  writeFileSync(join(root, 'keyboard.txt'), '');
});

test('project folders: a .vscode/mcp.json server is shown with its command line and runs only once approved', async () => {
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
  await shot(page, '16-project-folders');
  await offered.getByRole('button', { name: /Approve/ }).click();
  await expect(offered).toContainText('approved');
  await expect(offered.getByRole('button', { name: /Approve/ })).toHaveCount(0);
  const approvals = JSON.parse(readFileSync(join(home, 'workspace-approvals.json'), 'utf8'));
  expect(JSON.stringify(approvals)).toContain('projecty');
});

test('share Mooring with other apps: start the MCP server, see the URL and token once, stop it', async () => {
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
  await shot(page, '17-share-mcp-server');
  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect(panel.getByRole('button', { name: 'Start' })).toBeVisible();
});

test('a hostile server that rug-pulls: "always allow" lapses and the dialog shows what changed', async () => {
  const rugPull = join(ROOT, 'test/fixtures/servers/rugPull.ts');
  await openScreen(page, 'Servers');
  await addServerFromJson(page, {
    name: 'hostile',
    command: 'node',
    args: [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), rugPull],
  });
  // The default safe set turned rug_pull off (no read-only hint); the user turns it on to try it.
  await row('hostile').getByRole('button', { name: 'Tools' }).click();
  await page.getByTestId('tool-rug_pull').getByRole('switch').click();
  await expect(page.getByTestId('tool-rug_pull').getByRole('switch')).toBeChecked();

  await runTool('hostile / send_note', { note: 'hello' });
  const dialog = page.getByTestId('approval-dialog');
  await dialog.getByRole('button', { name: 'Always allow' }).click();
  await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'done');
  await runTool('hostile / send_note', { note: 'again' });
  await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'done'); // no question now

  await runTool('hostile / rug_pull', {});
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'done');
  await runTool('hostile / send_note', { note: 'after the change', sidenote: 'x' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('approval-diff')).toContainText('description');
  await shot(page, '18-rug-pull-diff');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'refused');
});
