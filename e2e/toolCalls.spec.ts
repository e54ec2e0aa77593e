// Tools and their calls in the UI, end to end: real `mooring web`, real MCP servers, Debian Chromium.
// Each test starts its own app on a home holding what it needs (uiApp.ts) and waits for what the app
// shows, never sleeps.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FILESYSTEM, ROOT } from './harness';
import { expect, test } from './uiApp';
import { addServerFromJson, openScreen, runTool } from './uiFlows';

test.describe('everything alone', () => {
  test.use({ servers: ['everything'] });

  test('the Playground starts from the arguments a tool needs, and runs it', async ({ app }) => {
    const { page } = app;
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
  });

  test('an image result shows in the gallery and opens in the lightbox', async ({ app }) => {
    const { page } = app;
    await runTool(page, 'everything / get-tiny-image', {});
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
    await app.shot('10-lightbox');
    await page.keyboard.press('Escape');
    await expect(box).toBeHidden();
  });

  test('tool selection: the default safe set, badges, search, and a toggle that writes excludeTools', async ({
    app,
  }) => {
    const { page, row } = app;
    // Added in the app, so the default safe set applies to it.
    await addServerFromJson(page, { name: 'fs', command: 'node', args: [FILESYSTEM, app.root] });
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
    const fs = JSON.parse(readFileSync(join(app.home, 'mcp_servers.json'), 'utf8')).servers.find(
      (s: { name: string }) => s.name === 'fs',
    );
    expect(fs.excludeTools).not.toContain('write_file');
    expect(fs.excludeTools).toEqual(expect.arrayContaining(['edit_file', 'move_file']));
    await expect(page.getByTestId('destructive-banner')).toContainText('2 destructive tools disabled');
    await app.shot('07-tool-selection');
  });
});

test.describe('everything and server-filesystem', () => {
  test.use({ servers: ['everything', 'fs'] });

  test('tool sets: a named tool set across servers is saved, listed and edited', async ({ app }) => {
    const { page } = app;
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
    const settings = () => JSON.parse(readFileSync(join(app.home, 'settings.json'), 'utf8'));
    expect(settings().toolSets).toEqual([
      { name: 'Reader', tools: ['mcp__fs__read_text_file', 'mcp__everything__echo'] },
    ]);
    await app.shot('07b-tool-sets');
    // Edited, not only removed: drop echo.
    await panel.getByRole('button', { name: 'Edit Reader' }).click();
    await editor.getByLabel('Include mcp__everything__echo').uncheck();
    await editor.getByRole('button', { name: 'Save tool set' }).click();
    await expect(editor).toBeHidden();
    expect(settings().toolSets).toEqual([{ name: 'Reader', tools: ['mcp__fs__read_text_file'] }]);
  });
});

test.describe('server-filesystem with write_file on', () => {
  test.use({ servers: ['fs'] });

  test('a destructive call asks; the edited arguments reach the server', async ({ app }) => {
    const { page } = app;
    const file = join(app.root, 'approved.txt');
    await runTool(page, 'fs / write_file', { path: file, content: 'as the model asked' });
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
    await app.shot('08-approval-dialog');
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'done');
    expect(readFileSync(file, 'utf8')).toBe('as the user edited');
    await expect(page.getByTestId('call-card').first()).toContainText(
      'Arguments (edited by you before approval)',
    );
    await app.shot('09-call-done');
  });

  test('deny leaves the file system untouched', async ({ app }) => {
    const { page } = app;
    const file = join(app.root, 'denied.txt');
    await runTool(page, 'fs / write_file', { path: file, content: 'never' });
    const dialog = page.getByTestId('approval-dialog');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Deny' }).click();
    await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'refused');
    expect(existsSync(file)).toBe(false);
  });

  test('keyboard: the approval dialog is reachable and answerable without a mouse', async ({ app }) => {
    const { page } = app;
    const file = join(app.root, 'keyboard.txt');
    await runTool(page, 'fs / write_file', { path: file, content: 'typed' });
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
    expect(readFileSync(file, 'utf8')).toBe('typed');
  });

  test('a hostile server that rug-pulls: "always allow" lapses and the dialog shows what changed', async ({
    app,
  }) => {
    const { page, row } = app;
    const rugPull = join(ROOT, 'test/fixtures/servers/rugPull.ts');
    await addServerFromJson(page, {
      name: 'hostile',
      command: 'node',
      args: [join(ROOT, 'test/fixtures/runTs.mjs'), rugPull],
    });
    // The default safe set turned rug_pull off (no read-only hint); the user turns it on to try it.
    await row('hostile').getByRole('button', { name: 'Tools' }).click();
    await page.getByTestId('tool-rug_pull').getByRole('switch').click();
    await expect(page.getByTestId('tool-rug_pull').getByRole('switch')).toBeChecked();

    await runTool(page, 'hostile / send_note', { note: 'hello' });
    const dialog = page.getByTestId('approval-dialog');
    await dialog.getByRole('button', { name: 'Always allow' }).click();
    await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'done');
    await runTool(page, 'hostile / send_note', { note: 'again' });
    await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'done'); // no question now
    // It says why it did not ask: the "Always allow" given above.
    await expect(page.getByTestId('call-card').first().getByTestId('call-grant')).toHaveText(
      '✓ Always allow',
    );

    await runTool(page, 'hostile / rug_pull', {});
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'done');
    await runTool(page, 'hostile / send_note', { note: 'after the change', sidenote: 'x' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('approval-diff')).toContainText('description');
    await app.shot('18-rug-pull-diff');
    await dialog.getByRole('button', { name: 'Deny' }).click();
    await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'refused');
  });
});
