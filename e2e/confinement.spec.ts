// Confined servers in the app (docs/confinement.md), end to end in Chromium: a real `mooring web` whose
// server-filesystem, server-everything (both from node_modules) and the probe fixture run confined under a
// managed policy; a chat turn through the two reference servers with a scripted model; a refused write shown
// on the card and allowed with one click, after which the same write works; every consent screen's one line
// (add, import, registry, install link, project folder); and a kill -9 of Mooring that leaves no confined
// process. Screenshots in test-results/screenshots/confine/.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startOsvServer, type OsvStub } from '../test/fixtures/osvServer';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { startFixtureRegistry, type FixtureRegistry } from '../test/fixtures/registryServer';
import { chatHome, closeChatApp, scriptedModelSettings } from './chatHarness';
import { descendants, EVERYTHING, FILESYSTEM, ROOT, startMooringWeb, type RunningWeb } from './harness';
import { openScreen } from './uiFlows';

test.describe.configure({ mode: 'serial' });
test.skip(process.platform !== 'linux', 'confinement end to end runs on Linux (bubblewrap)');

const SHOTS = join(import.meta.dirname, '../test-results/screenshots/confine');
const RUN_TS = join(ROOT, 'test/fixtures/runTs.mjs');
const PROBE = join(ROOT, 'test/fixtures/servers/sandboxProbe.ts');

let web: RunningWeb | undefined;
let model: FakeProviderServer;
let registry: FixtureRegistry;
let osv: OsvStub;
let page: Page;
let root: string;
let userHome: string;
const pageErrors: string[] = [];

const shot = async (name: string) => {
  await page.evaluate(
    () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))),
  );
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
};
const card = (name: string) => page.getByTestId(`server-${name}`);
const ask = async (text: string) => {
  await page.getByLabel('Message').fill(text);
  await page.getByLabel('Message').press('Enter');
};
const lastTool = () => page.getByTestId('chat-tool').last();

test.beforeAll(async ({ browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  userHome = mkdtempSync(join(tmpdir(), 'mooring-e2e-confine-user-'));
  registry = await startFixtureRegistry();
  osv = await startOsvServer();
  const policy = join(mkdtempSync(join(tmpdir(), 'mooring-e2e-policy-')), 'policy.json');
  writeFileSync(
    policy,
    JSON.stringify({
      managedBy: 'Example Corp IT',
      deniedServers: [{ command: 'docker' }],
      confinement: { required: true },
      yolo: false,
    }),
  );
  const made = chatHome('confine', (d) => [
    {
      name: 'fs',
      command: 'node',
      args: [FILESYSTEM, d.root],
      sandboxEnabled: true,
      sandbox: { filesystem: { allowWrite: [d.root] } },
    },
    { name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'], sandboxEnabled: true },
    {
      name: 'probe',
      command: 'node',
      args: [RUN_TS, PROBE],
      env: { HOME: userHome },
      policy: 'trust-all',
      sandboxEnabled: true,
    },
  ]);
  root = made.root;
  const note = join(userHome, 'note.txt');
  model = await startOpenAIServer([
    { toolCalls: [{ name: 'mcp__fs__list_directory', arguments: { path: root } }] },
    { text: 'Your folder holds alpha.txt and beta.md.' },
    {
      toolCalls: [{ name: 'mcp__everything__echo', arguments: { message: 'hello from inside the sandbox' } }],
    },
    { text: 'The echo came back.' },
    { toolCalls: [{ name: 'mcp__probe__write_file', arguments: { path: note, content: 'first try' } }] },
    { text: 'The write was refused.' },
    { toolCalls: [{ name: 'mcp__probe__write_file', arguments: { path: note, content: 'second try' } }] },
    { text: 'Now it was written.' },
  ]);
  writeFileSync(
    join(made.home, 'settings.json'),
    JSON.stringify({ ...scriptedModelSettings(model.url), osvEndpoint: osv.url }),
  );
  web = await startMooringWeb(made.home, {
    env: { OPENAI_API_KEY: 'sk-e2e', MOORING_POLICY_FILE: policy, MOORING_REGISTRY_URL: registry.url },
  });
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);
  for (const name of ['fs', 'everything', 'probe'])
    await expect(card(name).getByTestId('server-state')).toHaveText('ready', { timeout: 60_000 });
});

test.afterAll(async () => {
  await closeChatApp({ page, model, ...(web ? { web } : {}), pageErrors });
  await registry?.close();
  await osv?.close();
});

test('the servers run confined: each card says what it may write and reach; the policy says who manages it', async () => {
  await expect(card('fs').getByTestId('confinement-fs')).toContainText(
    `Runs confined: writes only to ${root}; reaches no network.`,
  );
  await expect(card('everything').getByTestId('confinement-everything')).toContainText(
    'Runs confined: writes nowhere but its own temporary folder; reaches no network.',
  );
  const banner = page.getByTestId('managed-policy');
  await expect(banner).toContainText('Managed by Example Corp IT');
  await expect(banner).toContainText('Every local server runs confined.');
  await shot('01-servers-confined');
});

test('a chat turn through confined server-filesystem and server-everything', async () => {
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await ask('What is in my folder?');
  await expect(lastTool()).toHaveAttribute('data-state', 'done');
  await expect(lastTool().getByTestId('tool-result')).toContainText('alpha.txt');
  await expect(page.getByTestId('msg-assistant').last()).toContainText(
    'Your folder holds alpha.txt and beta.md.',
  );
  await ask('Echo something');
  // The conversation has read the folder; echo could carry it to another server, so it asks and names
  // the flow (docs/trust.md). Allowed once here.
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog.getByTestId('approval-flow')).toContainText(
    'This call sends data to everything (echo)',
  );
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(lastTool()).toHaveAttribute('data-state', 'done');
  await expect(lastTool().getByTestId('tool-result')).toContainText('hello from inside the sandbox');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('The echo came back.');
  await shot('02-chat-turn-confined');
});

test('a refused write shows on the card; "Allow this path" makes the next write work', async () => {
  const note = join(userHome, 'note.txt');
  await ask('Write a note in my home');
  await expect(lastTool().getByTestId('tool-result')).toContainText('error: EROFS');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('The write was refused.');
  await openScreen(page, 'Servers');
  const line = card('probe').getByTestId('confinement-probe');
  await line.getByRole('button', { name: '1 refused' }).click();
  const refused = line.getByTestId('violation');
  await expect(refused).toContainText(`write: open for writing ${note}`);
  await refused.scrollIntoViewIfNeeded();
  await shot('03-refused-write-on-card');
  await refused.getByRole('button', { name: 'Allow this path' }).click();
  await expect(line).toContainText(`writes only to ${note}`);
  await expect(line.getByTestId('violation')).toHaveCount(0);
  await expect(card('probe').getByTestId('server-state')).toHaveText('ready', { timeout: 60_000 });
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await ask('Try the note again');
  await expect(lastTool().getByTestId('tool-result')).toContainText(`ok: wrote ${note}`);
  expect(readFileSync(note, 'utf8')).toBe('second try');
});

test('every consent says in one line what a server can write and reach', async () => {
  await openScreen(page, 'Servers');
  await page.getByRole('button', { name: 'Add server' }).click();
  const form = page.getByTestId('server-form');
  await form.getByLabel('Command', { exact: true }).fill('npx');
  await form.getByLabel('Arguments (one per line)').fill('-y\n@modelcontextprotocol/server-memory');
  // The managed policy requires confinement: the switch is on and stays on, starting from npx's profile.
  const confined = form.getByRole('switch', { name: 'Run confined' });
  await expect(confined).toBeChecked();
  await expect(confined).toBeDisabled();
  await expect(form.getByTestId('confinement-summary')).toHaveText(
    'Runs confined: writes only to ~/.npm; reaches only registry.npmjs.org.',
  );
  await form.getByTestId('confinement-summary').scrollIntoViewIfNeeded();
  await shot('04-consent-add-form');
  await form.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: 'Import…' }).click();
  const dialog = page.getByTestId('import-dialog');
  await dialog.getByLabel('Configuration to import').fill(
    JSON.stringify({
      servers: {
        notes: {
          type: 'stdio',
          command: 'node',
          args: [EVERYTHING, 'stdio'],
          sandboxEnabled: true,
          sandbox: {
            filesystem: { allowWrite: ['~/notes'] },
            network: { allowedDomains: ['api.example.com'] },
          },
        },
      },
    }),
  );
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog.getByTestId('import-confinement')).toHaveText(
    'Runs confined: writes only to ~/notes; reaches only api.example.com.',
  );
  await shot('05-consent-import');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await openScreen(page, 'Browse servers');
  await page.getByLabel('Search the registry').fill('everything');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByRole('button', { name: 'Details of io.github.mooring-test/everything' }).click();
  const consent = page.getByTestId('install-consent');
  await expect(consent.getByTestId('install-confinement')).toHaveText(
    'Runs confined: writes only to ~/.npm; reaches only registry.npmjs.org.',
  );
  await shot('06-consent-registry');
  await consent.getByRole('button', { name: 'Cancel' }).click();
  // A fill does not wait for a dialog to go the way a click does: the link goes to the page once it has.
  await expect(consent).toBeHidden();

  const link = `vscode:mcp/install?${encodeURIComponent(JSON.stringify({ name: 'linked', command: 'node', args: [EVERYTHING, 'stdio'] }))}`;
  await page.getByLabel('Install link').fill(link);
  await page.getByRole('button', { name: 'Review link' }).click();
  await expect(consent.getByTestId('install-confinement')).toHaveText(
    'Runs confined: writes nowhere but its own temporary folder; reaches no network.',
  );
  await shot('07-consent-install-link');
  await consent.getByRole('button', { name: 'Cancel' }).click();

  const project = mkdtempSync(join(tmpdir(), 'mooring-e2e-confine-project-'));
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
  await expect(page.getByTestId('offered-projecty').getByTestId('offered-confinement')).toHaveText(
    'Runs unconfined: it can read and write everything you can and reach any host.',
  );
  await shot('08-consent-project-folder');
});

test('kill -9 of mooring web leaves no confined process', async () => {
  const running = web!;
  const pid = running.child.pid!;
  const inside = [
    ...descendants(pid, 'bwrap'),
    ...descendants(pid, FILESYSTEM),
    ...descendants(pid, EVERYTHING),
  ];
  expect(inside.length).toBeGreaterThanOrEqual(4);
  const exited = new Promise((r) => running.child.once('exit', r));
  running.child.kill('SIGKILL');
  await exited;
  web = undefined;
  const alive = (p: number) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
    } catch {
      return false;
    }
  };
  await expect.poll(() => inside.filter(alive), { timeout: 5000 }).toEqual([]);
});
