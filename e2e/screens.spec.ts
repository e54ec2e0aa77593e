// The Servers, Tools, Permissions and Logs screens as a new user meets them, end to end: a real
// `mooring web` child on its own MOORING_HOME and a fixture HOME laid out as a Linux home with a Claude
// Desktop config, real reference servers, and a local server speaking the OpenAI wire format that plays a
// scripted model. Each step waits for what the app shows, never sleeps; axe checks every screen.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { expectAccessible } from './a11y';
import { descendants, EVERYTHING, MEMORY, startMooringWeb, type RunningWeb } from './harness';
import { everyScreen, openScreen, runTool } from './uiFlows';

const SHOTS = join(import.meta.dirname, '../test-results/screenshots');
const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) });

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let home: string;
let userHome: string;
let page: Page;
let model: FakeProviderServer;
const pageErrors: string[] = [];
const DELETE = { name: 'mcp__memory__delete_entities', arguments: { entityNames: ['nobody'] } };

const row = (name: string) => page.getByTestId(`server-${name}`);
const servers = () =>
  JSON.parse(readFileSync(join(home, 'mcp_servers.json'), 'utf8')).servers as Array<Record<string, unknown>>;
const serverEntry = (name: string) => servers().find((s) => s.name === name)!;

test.beforeAll(async ({ browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  home = mkdtempSync(join(tmpdir(), 'mooring-e2e-screens-home-'));
  // The person's own home, as Claude Desktop lays it out on Linux.
  userHome = mkdtempSync(join(tmpdir(), 'mooring-e2e-user-'));
  mkdirSync(join(userHome, '.config', 'Claude'), { recursive: true });
  writeFileSync(
    join(userHome, '.config', 'Claude', 'claude_desktop_config.json'),
    JSON.stringify({
      mcpServers: {
        memory: { command: 'node', args: [MEMORY], env: { MEMORY_FILE_PATH: join(home, 'memory.jsonl') } },
      },
    }),
  );
  model = await startOpenAIServer([
    // Conversation A: asks, the user allows it for this conversation; asked again, it runs unasked.
    { toolCalls: [DELETE] },
    { text: 'Deleted.' },
    { toolCalls: [DELETE] },
    { text: 'Deleted again.' },
    // Conversation B: the permission of A does not carry over.
    { toolCalls: [DELETE] },
    { text: 'You said no.' },
  ]);
  web = await startMooringWeb(home, {
    env: {
      HOME: userHome,
      XDG_CONFIG_HOME: undefined,
      APPDATA: undefined,
      MOORING_NO_SHELL_PATH: '1',
      OPENAI_API_KEY: 'sk-e2e',
      MOORING_OPENAI_BASE_URL: `${model.url}/v1`,
      MOORING_MODEL: 'openai:gpt-4o',
    },
  });
  // axe-core needs a page of a context the test made (browser.newPage's implicit one will not do).
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);
});

test.afterAll(async () => {
  await page?.context().close();
  expect(pageErrors).toEqual([]);
  await model?.close();
  if (web) expect(await web.stop(), web.stderr()).toBe(0);
});

test('first launch: the empty state teaches, and a detected Claude Desktop config is imported with the safe set', async () => {
  await expect(page.getByTestId('empty-servers')).toContainText('An MCP server is a small program');
  await expect(page.getByTestId('empty-servers')).toContainText('mooring mcp add');
  // The command is read whole, and its copy button sits beside it, not over its end.
  const cli = page.getByTestId('empty-servers').locator('.code-block');
  const [text, copy] = await Promise.all([
    cli.locator('pre').boundingBox(),
    cli.getByRole('button', { name: 'Copy command' }).boundingBox(),
  ]);
  expect(copy!.x).toBeGreaterThanOrEqual(text!.x + text!.width);
  expect(await cli.locator('pre').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  const claude = page.getByTestId('detected-claude-desktop');
  await expect(claude).toContainText('Claude Desktop');
  await expect(claude).toContainText(join(userHome, '.config', 'Claude', 'claude_desktop_config.json'));
  await expect(claude).toContainText('1 server: memory');
  await expectAccessible(page, 'Servers (empty, detected clients)');
  await shot(page, 'a01-first-launch-detected');

  // The empty state's "Import from Claude Desktop" imports the file found, not a blank chooser.
  await page.getByTestId('empty-servers').getByRole('button', { name: 'Import from Claude Desktop' }).click();
  const dialog = page.getByTestId('import-dialog');
  await expect(dialog).toContainText('claude_desktop_config.json');
  await expect(dialog.getByTestId('import-command-line')).toContainText(`node ${MEMORY}`);
  await dialog.getByRole('button', { name: /I trust these commands: add 1/ }).click();
  await expect(dialog.getByTestId('import-results')).toContainText('memory: added');
  // Which it says depends on whether the server connected before the import answered (on a busy machine
  // it may not have); the notice below says the count either way.
  await expect(dialog.getByTestId('import-results')).toContainText(
    /memory: (3 destructive tools disabled by default|its destructive tools will be off when it first connects)/,
  );
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(row('memory').getByTestId('server-state')).toHaveText('ready');
  // Imported like every other way of adding: its delete_* tools are off, and the notice says so.
  await expect(page.getByTestId('notice')).toContainText('memory: 3 destructive tools disabled by default');
  expect(serverEntry('memory').excludeTools).toEqual(
    expect.arrayContaining(['delete_entities', 'delete_observations', 'delete_relations']),
  );
  await expect(row('memory')).toContainText(/9 tools/);
  await expect(row('memory')).toContainText(/started in \d/);
  await shot(page, 'a02-imported-notice');
});

test('a tool toggled on reconfigures in place: same process, and the notice follows', async () => {
  const before = descendants(web.child.pid!, 'server-memory');
  expect(before).toHaveLength(1);
  await row('memory').getByRole('button', { name: 'Tools' }).click();
  await expect(page.getByRole('tab', { name: /memory/ })).toHaveAttribute('aria-selected', 'true');
  const tool = page.getByTestId('tool-delete_entities');
  // Plain words, not the config's jargon.
  await expect(tool.getByTestId('tool-off-reason')).toContainText(
    'Off by default: it may change or delete things',
  );
  await expect(page.getByTestId('tools-screen')).not.toContainText('excludeTools');
  await expectAccessible(page, 'Tools');
  await tool.getByRole('switch', { name: 'Enable delete_entities' }).click();
  await expect(tool.getByRole('switch', { name: 'Enable delete_entities' })).toBeChecked();
  expect(serverEntry('memory').excludeTools).not.toContain('delete_entities');
  await expect(page.getByTestId('destructive-banner')).toContainText('2 destructive tools disabled');
  // The server process is the same one: the filter changed, the session went on.
  expect(descendants(web.child.pid!, 'server-memory')).toEqual(before);
  await openScreen(page, 'Servers');
  await expect(page.getByTestId('notice')).toContainText('memory: 2 destructive tools disabled by default');
  expect(descendants(web.child.pid!, 'server-memory')).toEqual(before);
});

test('"always allow" revoked from the Permissions screen: the next call asks again', async () => {
  const dialog = page.getByTestId('approval-dialog');
  await runTool(page, 'memory / delete_entities', { entityNames: ['nobody'] });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(
    'Every call, everywhere, until the tool changes or you revoke it in Permissions.',
  );
  // The playground is no conversation: "for this conversation" is not offered.
  await expect(dialog.getByRole('button', { name: 'Allow for this conversation' })).toHaveCount(0);
  await expectAccessible(page, 'approval dialog');
  await shot(page, 'a03-approval-choices');
  await dialog.getByRole('button', { name: 'Always allow' }).click();
  await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'done');
  await runTool(page, 'memory / delete_entities', { entityNames: ['again'] });
  await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'done');
  await expect(dialog).toBeHidden();

  await openScreen(page, 'Permissions');
  const perm = page.getByTestId('perm-tool-memory-delete_entities');
  await expect(perm).toContainText('delete_entities');
  await expect(perm).toContainText(/pinned to [0-9a-f]{12}/);
  await expectAccessible(page, 'Permissions');
  await shot(page, 'a04-permissions');
  await perm.getByRole('button', { name: 'Revoke always allow for delete_entities on memory' }).click();
  await expect(perm).toHaveCount(0);
  expect(JSON.parse(readFileSync(join(home, 'approvals.json'), 'utf8')).approvals).toEqual([]);

  await runTool(page, 'memory / delete_entities', { entityNames: ['once more'] });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByTestId('call-card').first()).toHaveAttribute('data-phase', 'refused');
});

test('"allow for this conversation" lasts for that conversation only', async () => {
  const dialog = page.getByTestId('approval-dialog');
  const ask = async (text: string) => {
    await page.getByLabel('Message').fill(text);
    await page.getByLabel('Message').press('Enter');
  };
  await openScreen(page, 'Chat');
  await page.getByRole('button', { name: 'New conversation' }).click();
  await ask('Forget nobody.');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Every call of this tool in this conversation, until Mooring restarts.');
  await dialog.getByRole('button', { name: 'Allow for this conversation' }).click();
  await expect(page.getByText('Deleted.', { exact: true })).toBeVisible();
  // The same call in the same conversation runs without asking (an unanswered dialog would stall the turn).
  await ask('And again.');
  await expect(page.getByText('Deleted again.', { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: 'New conversation' }).click();
  await ask('Forget nobody here too.');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByText('You said no.', { exact: true })).toBeVisible();

  await openScreen(page, 'Permissions');
  await expect(page.getByRole('region', { name: 'Allowed for a conversation' })).toContainText(
    'delete_entities',
  );
});

test('the mcpServers snippet from a README, pasted into Add, is added after consent', async () => {
  await openScreen(page, 'Servers');
  await page.getByRole('button', { name: 'Add server' }).click();
  const form = page.getByTestId('server-form');
  await form.getByRole('tab', { name: 'JSON' }).click();
  await form
    .getByLabel('Server JSON')
    .fill(
      JSON.stringify(
        { mcpServers: { everything: { command: 'node', args: [EVERYTHING, 'stdio'] } } },
        null,
        2,
      ),
    );
  await expect(form.getByTestId('pasted-config')).toContainText('mcpServers');
  await form.getByRole('button', { name: 'Review servers…' }).click();
  const dialog = page.getByTestId('import-dialog');
  await expect(dialog.getByTestId('import-command-line')).toContainText(`node ${EVERYTHING} stdio`);
  await dialog.getByRole('button', { name: /I trust these commands: add 1/ }).click();
  await expect(dialog.getByTestId('import-results')).toContainText('everything: added');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(row('everything').getByTestId('server-state')).toHaveText('ready');
});

test('a server that fails to start: a short badge, its stderr as a block, and Retry after the fix', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mooring-e2e-late-'));
  const script = join(dir, 'server.mjs');
  await page.getByRole('button', { name: 'Add server' }).click();
  const form = page.getByTestId('server-form');
  await form.getByRole('tab', { name: 'JSON' }).click();
  await form
    .getByLabel('Server JSON')
    .fill(JSON.stringify({ name: 'late', command: 'node', args: [script, 'stdio'] }));
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(row('late').getByTestId('server-state')).toHaveText('failed');
  const error = row('late').getByTestId('server-error');
  await expect(error).toContainText('exited (code 1) before the MCP handshake finished');
  await expect(error.getByTestId('server-stderr')).toContainText('Cannot find module');
  await expect(error).toContainText('Run the command in a terminal');
  await expect(error.getByRole('button', { name: 'Copy stderr' })).toBeVisible();
  await expectAccessible(page, 'Servers (a failed server)');
  await shot(page, 'a05-failed-server');
  // The fix: the script the command names now exists.
  writeFileSync(script, `await import(${JSON.stringify(EVERYTHING)});\n`);
  await row('late').getByRole('button', { name: 'Retry' }).click();
  await expect(row('late').getByTestId('server-state')).toHaveText('ready');
  await expect(row('late').getByTestId('server-error')).toHaveCount(0);
  await expect(page.getByTestId('toast').filter({ hasText: 'late is running' })).toBeVisible();
});

test('the form: Trust shows the exact command line; working folder, policy and message size are fields', async () => {
  await page.getByRole('button', { name: 'Add server' }).click();
  const form = page.getByTestId('server-form');
  await form.getByLabel('Name', { exact: true }).fill('custom');
  await form.getByLabel('Command', { exact: true }).fill('/opt/tools/my-server');
  await form.getByLabel('Arguments (one per line)').fill('--port\n0');
  await form.getByLabel('Working folder').fill('/srv/data');
  await form.getByLabel('Approval policy').selectOption('always-ask');
  // What a first server does not need is folded under Advanced.
  await expect(form.getByLabel('Log level')).toBeHidden();
  await expect(form.getByLabel('Sampling budget (tokens per hour)')).toBeHidden();
  await expect(form.getByLabel('Message size limit (MB)')).toBeHidden();
  await form.getByText('Advanced', { exact: true }).click();
  await form.getByLabel('Message size limit (MB)').fill('16');
  await expect(form.getByTestId('trust-command-line')).toHaveCount(0);
  // The Form/JSON tabs: no scrollbar of their own.
  expect(await form.getByRole('tablist').evaluate((el) => el.scrollHeight <= el.clientHeight)).toBe(true);
  // A small window: the test result shows, and Save stays in view.
  await page.setViewportSize({ width: 900, height: 700 });
  await form.getByRole('button', { name: 'Test' }).click();
  // Outside the runtime allowlist: the hint names the switch this very form has.
  await expect(form.getByTestId('test-result')).toContainText('"Trust this command"');
  await expect(form.getByRole('button', { name: 'Save' })).toBeInViewport();
  await shot(page, 'a06-form-test-900');
  await page.setViewportSize({ width: 1280, height: 800 });
  await form.getByRole('switch', { name: 'Trust this command' }).click();
  await expect(form.getByTestId('trust-command-line')).toContainText(
    'cd /srv/data && /opt/tools/my-server --port 0',
  );
  await expectAccessible(page, 'Add a server');
  await shot(page, 'a06-form-trust');
  await form.getByRole('tab', { name: 'JSON' }).click();
  const entry = JSON.parse(await form.getByLabel('Server JSON').inputValue());
  expect(entry).toMatchObject({ cwd: '/srv/data', policy: 'always-ask', maxMessageMB: 16, trust: true });
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(form).toBeHidden();
  expect(existsSync(join(home, 'mcp_servers.json'))).toBe(true);
  expect(servers().some((s) => s.name === 'custom')).toBe(false);
});

test('Reload tool list says what it did; the Logs view has lifecycle lines and, on request, the JSON-RPC traffic', async () => {
  await openScreen(page, 'Logs');
  await page.getByRole('tab', { name: 'memory' }).click();
  const log = page.getByRole('log', { name: 'Log of memory' });
  await expect(log).toContainText('handshake done in');
  await expect(log).toContainText('tools listed: 9');
  await page.getByRole('switch', { name: 'Record JSON-RPC traffic' }).click();
  await expect(page.getByRole('switch', { name: 'Record JSON-RPC traffic' })).toBeChecked();
  await openScreen(page, 'Servers');
  // Named for what it does: the server is asked for its tools again, it is not restarted.
  await expect(row('memory').getByRole('button', { name: 'Refresh' })).toHaveCount(0);
  await row('memory').getByRole('button', { name: 'Reload tool list' }).click();
  await expect(
    page.getByTestId('toast').filter({ hasText: 'Reloaded the tool list of memory' }),
  ).toContainText('9 tools listed; the server kept running');
  await openScreen(page, 'Logs');
  await page.getByRole('tab', { name: 'memory' }).click();
  await expect(log).toContainText('→ {"method":"tools/list"');
  await expect(log).toContainText('← {"jsonrpc":"2.0"');
  await page.getByLabel('Filter log lines').fill('handshake');
  await expect(log).not.toContainText('tools/list');
  await expect(log).toContainText('handshake done');
  await expectAccessible(page, 'Logs');
  await page.getByLabel('Filter log lines').fill('');
});

test('every screen at 1280×800 and 900×700: nothing overflows sideways, axe finds nothing serious', async () => {
  await everyScreen(page, async (label, w, h) => {
    if (w === 1280) await expectAccessible(page, label);
    await shot(page, `screen-${label.toLowerCase().replace(/ /g, '-')}-${w}x${h}`);
  });
  // Dark mode has its own suite over every screen (darkMode.spec.ts).
});
