// The desktop app end to end: the built app (out/) in the real Electron runtime through Playwright's Electron
// driver, on a temp home, with real MCP servers. One app walks the steps in order; each step waits for what
// the app shows or emits, never sleeps. Skipped, with the reason, where the runtime or a display is missing
// (electronSuite.ts).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { securityHeadersFraming } from '../../src-main/core/web/contentSecurity';
import { descendants, EVERYTHING, FILESYSTEM, ROOT, running } from '../harness';
import { addServerFromJson, runTool } from '../uiFlows';
import { electronSuitePlan } from './electronSuite';

const plan = electronSuitePlan({ root: ROOT, env: process.env, platform: process.platform });
test.skip(!plan.run, plan.run ? '' : plan.reason);
test.describe.configure({ mode: 'serial' });

let app: ElectronApplication;
let page: Page;
let home: string;
let files: string;
const pageErrors: string[] = [];
const row = (name: string) => page.getByTestId(`server-${name}`);

test.beforeAll(async () => {
  if (!plan.run) return;
  home = mkdtempSync(join(tmpdir(), 'mooring-e2e-electron-home-'));
  files = mkdtempSync(join(tmpdir(), 'mooring-e2e-electron-files-'));
  app = await electron.launch({
    executablePath: plan.executablePath,
    // Chromium refuses to start as root without --no-sandbox (CI containers); the window's own
    // webPreferences (sandbox, contextIsolation) are what these tests check.
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), ROOT],
    env: { ...process.env, MOORING_HOME: home },
  });
  page = await app.firstWindow();
  page.on('pageerror', (e) => pageErrors.push(e.message));
});

test.afterAll(async () => {
  if (!app) return;
  // Its servers, looked up while it runs: once it has quit they have another parent.
  const servers = descendants(app.process().pid!, 'modelcontextprotocol');
  await app.close();
  expect(pageErrors).toEqual([]);
  // Quitting closes every session: no server process outlives the app.
  expect(servers.filter(running)).toEqual([]);
});

test('the window opens on the servers screen, from app://mooring', async () => {
  await expect(page).toHaveURL(/^app:\/\/mooring\/index\.html#\/servers$/);
  await expect(page.getByTestId('empty-servers')).toBeVisible();
  expect(await page.title()).toBe('Mooring');
  expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
});

test('the renderer has no Node and exactly one bridge', async () => {
  const seen = await page.evaluate(() => {
    const w = window as unknown as Record<string, unknown>;
    return {
      node: ['require', 'process', 'module', 'Buffer', 'global', 'electron', 'ipcRenderer'].filter(
        (k) => typeof w[k] !== 'undefined',
      ),
      bridge: Object.keys((w.mooring ?? {}) as object).sort(),
    };
  });
  expect(seen).toEqual({ node: [], bridge: ['onMessage', 'send'] });
});

test('a navigation away is prevented and window.open is denied', async () => {
  // A listener added after the app's own sees the app's decision on the event (event.defaultPrevented).
  const decided = app.evaluate(
    ({ BrowserWindow }) =>
      new Promise<{ url: string; prevented: boolean }>((resolve) => {
        BrowserWindow.getAllWindows()[0]!.webContents.once('will-navigate', (e) =>
          resolve({ url: e.url, prevented: e.defaultPrevented }),
        );
      }),
  );
  await page.evaluate(() => {
    location.href = 'https://example.com/';
  });
  expect(await decided).toEqual({ url: 'https://example.com/', prevented: true });
  expect(await page.evaluate(() => location.origin)).toBe('app://mooring');

  expect(await page.evaluate(() => window.open('https://example.com/', '_blank') === null)).toBe(true);
  expect(await page.evaluate(() => window.open('app://mooring/index.html') === null)).toBe(true);
  expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
});

test('app:// responses carry the Content Security Policy header', async () => {
  const headers = await page.evaluate(async () => {
    const r = await fetch('app://mooring/index.html');
    return { status: r.status, csp: r.headers.get('content-security-policy') };
  });
  // The app's policy, framing only MCP App views' own scheme.
  expect(headers).toEqual({
    status: 200,
    csp: securityHeadersFraming('mooring-view:')['content-security-policy'],
  });
});

test('a server added through the form is tested, saved and goes ready', async () => {
  await page.getByRole('button', { name: 'Add a server' }).click();
  const form = page.getByTestId('server-form');
  await form.getByLabel('Name', { exact: true }).fill('everything');
  await form.getByLabel('Command', { exact: true }).fill('node');
  await form.getByLabel('Arguments (one per line)').fill(`${EVERYTHING}\nstdio`);
  await form.getByRole('button', { name: 'Test' }).click();
  const result = form.getByTestId('test-result');
  await expect(result).toContainText(/Connected in \d+ ms/);
  await expect(result).toContainText('echo');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(row('everything').getByTestId('server-state')).toHaveText('ready');
  const saved = JSON.parse(readFileSync(join(home, 'mcp_servers.json'), 'utf8'));
  expect(saved.servers[0]).toMatchObject({ name: 'everything', command: 'node' });
});

test('a destructive call raises the approval dialog', async () => {
  await addServerFromJson(page, { name: 'fs', command: 'node', args: [FILESYSTEM, files] });
  // Destructive tools start disabled: turn write_file on, then call it from the playground.
  await row('fs').getByRole('button', { name: 'Tools' }).click();
  await page.getByRole('tab', { name: 'fs' }).click();
  await page.getByTestId('tool-write_file').getByRole('switch').click();
  await expect(page.getByTestId('tool-write_file').getByRole('switch')).toBeChecked();
  await runTool(page, 'fs / write_file', { path: join(files, 'x.txt'), content: 'no' });
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('write_file');
  await expect(dialog).toContainText('destructive');
  await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
  await expect(dialog).toBeHidden();
});
