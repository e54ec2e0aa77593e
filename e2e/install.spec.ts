// Browse servers and install links end to end: real `mooring web` pointed at the fixture registry
// (test/fixtures/registryServer.ts) and an OSV stand-in, Debian Chromium. The npm entry runs server-everything
// through npx from the repository's node_modules, offline (the entry sets npm_config_offline=true).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startOsvServer, type OsvStub } from '../test/fixtures/osvServer';
import { startFixtureRegistry, type FixtureRegistry } from '../test/fixtures/registryServer';
import { expectAccessible } from './a11y';
import { EVERYTHING, startMooringWeb, type RunningWeb } from './harness';
import { openScreen, sidewaysOverflow } from './uiFlows';

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let registry: FixtureRegistry;
let osv: OsvStub;
let page: Page;
const pageErrors: string[] = [];

test.beforeAll(async ({ browser }) => {
  registry = await startFixtureRegistry();
  osv = await startOsvServer();
  const home = mkdtempSync(join(tmpdir(), 'mooring-e2e-install-'));
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ osvEndpoint: osv.url }));
  web = await startMooringWeb(home, { env: { MOORING_REGISTRY_URL: registry.url } });
  // axe-core needs a page of a context the test made (browser.newPage's implicit one will not do).
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);
});

test.afterAll(async () => {
  await page?.context().close();
  expect(pageErrors).toEqual([]);
  if (web) expect(await web.stop(), web.stderr()).toBe(0);
  await registry?.close();
  await osv?.close();
});

const SHOTS = join(import.meta.dirname, '../test-results/screenshots');
const search = async (words: string) => {
  await page.getByLabel('Search the registry').fill(words);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
};
const result = (name: string) => page.getByTestId('registry-result').filter({ hasText: name });

test('Browse lists the registry’s servers with how each runs; hostile text is shown escaped', async () => {
  await openScreen(page, 'Browse servers');
  await expect(result('io.github.mooring-test/everything')).toContainText(
    'Runs: npm @modelcontextprotocol/server-everything 2026.8.31',
  );
  await expect(page.getByText(`at ${registry.url}`)).toBeVisible();
  const hostile = result('io.github.mooring-test/escape-codes');
  await expect(hostile).toContainText('Nice\\x1b[2J\\x1b]0;pwned\\x07 server\\u202egnp.exe');
  // eslint-disable-next-line no-control-regex -- asserting the absence of raw control characters
  expect(await hostile.innerText()).not.toMatch(/[\u001b\u0007\u202e]/);
  await expect(result('io.github.mooring-test/cargo-only')).toContainText(
    'cargo cargo-mcp 0.9.0 (not installable)',
  );
  await expect(page.getByText('1 entries were not valid and are not listed.')).toBeVisible();
  await search('weather');
  await expect(page.getByTestId('registry-result')).toHaveCount(1);
});

test('Browse at 1280×800 and 900×700: nothing overflows sideways, axe finds nothing serious', async () => {
  mkdirSync(SHOTS, { recursive: true });
  await search('');
  await expect(result('io.github.mooring-test/everything')).toBeVisible();
  for (const [w, h] of [
    [1280, 800],
    [900, 700],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    const overflow = await sidewaysOverflow(page);
    expect(overflow, `Browse at ${w}px overflows sideways`).toBeLessThanOrEqual(0);
    await expectAccessible(page, `Browse servers at ${w}px`);
    await page.screenshot({ path: join(SHOTS, `screen-browse-servers-${w}x${h}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await search('weather');
  await expect(page.getByTestId('registry-result')).toHaveCount(1);
});

test('details of a remote: the URL, the required secret header; Install waits for it', async () => {
  await page.getByRole('button', { name: 'Details of io.github.mooring-test/remote-weather' }).click();
  const consent = page.getByTestId('install-consent');
  await expect(consent.getByTestId('install-command-line')).toHaveText(`HTTP ${registry.url}/remote/mcp`);
  await expect(consent.getByTestId('install-input-header.Authorization')).toContainText(
    'header Authorization (required) — kept in the keychain',
  );
  await expect(consent.getByRole('button', { name: /^Install / })).toBeDisabled();
  await expectAccessible(page, 'the install consent');
  await page.screenshot({ path: join(SHOTS, 'install-consent-1280x800.png') });
  await consent.getByRole('button', { name: 'Cancel' }).click();
  await expect(consent).toBeHidden();
});

test('install an npm entry through the consent; it runs', async () => {
  await search('everything');
  await page.getByRole('button', { name: 'Details of io.github.mooring-test/everything' }).click();
  const consent = page.getByTestId('install-consent');
  await expect(consent.getByTestId('install-command-line')).toHaveText(
    'npm_config_offline=true npx -y @modelcontextprotocol/server-everything@2026.8.31 stdio',
  );
  await expect(consent.getByTestId('install-repository')).toHaveAttribute(
    'href',
    'https://github.com/mooring-test/everything',
  );
  await expect(consent.getByTestId('install-osv')).toContainText(
    'no known vulnerabilities in @modelcontextprotocol/server-everything@2026.8.31',
  );
  await consent.getByRole('button', { name: 'Install everything' }).click();
  await expect(page.getByTestId('install-done')).toContainText('Installed everything');
  await openScreen(page, 'Servers');
  await expect(page.getByTestId('server-everything').getByTestId('server-state')).toHaveText('ready', {
    timeout: 60_000,
  });
});

test('a hostile entry is refused with the reason', async () => {
  await openScreen(page, 'Browse servers');
  await search('shell');
  await page.getByRole('button', { name: 'Details of io.github.mooring-test/shell-identifier' }).click();
  await expect(page.getByTestId('plan-error')).toContainText('npm package name is not valid');
  await expect(page.getByTestId('install-consent')).toBeHidden();
});

test('the three kinds of install link, pasted: each shows where it came from, installs only on Install', async () => {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
  const links: [string, string, string][] = [
    [
      'from-mooring',
      `mooring://install?name=from-mooring&config=${b64({ command: 'node', args: [EVERYTHING, 'stdio'] })}`,
      'From a mooring:// link',
    ],
    [
      'from-cursor',
      `cursor://anysphere.cursor-deeplink/mcp/install?name=from-cursor&config=${b64({ command: 'node', args: [EVERYTHING, 'stdio'] })}`,
      'From a Cursor install link',
    ],
    [
      'from-vscode',
      `vscode:mcp/install?${encodeURIComponent(JSON.stringify({ name: 'from-vscode', command: 'node', args: [EVERYTHING, 'stdio'] }))}`,
      'From a VS Code install link',
    ],
  ];
  for (const [name, link, from] of links) {
    await openScreen(page, 'Browse servers');
    await page.getByLabel('Install link').fill(link);
    await page.getByRole('button', { name: 'Review link' }).click();
    const consent = page.getByTestId('install-consent');
    await expect(consent.getByTestId('install-source')).toContainText(from);
    await expect(consent.getByTestId('install-command-line')).toHaveText(`node ${EVERYTHING} stdio`);
    await consent.getByRole('button', { name: `Install ${name}` }).click();
    await expect(page.getByTestId('install-done')).toContainText(`Installed ${name}`);
    await openScreen(page, 'Servers');
    await expect(page.getByTestId(`server-${name}`).getByTestId('server-state')).toHaveText('ready', {
      timeout: 60_000,
    });
  }
});
