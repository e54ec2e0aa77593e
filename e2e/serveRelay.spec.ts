// Sampling and elicitation from a server behind `mooring serve`, answered in the running app
// (docs/sharing.md, "`mooring serve` and the running app"): a real `mooring web` child in Chromium and a
// real `mooring serve --stdio` child on the same MOORING_HOME, launched by the SDK's own client as Claude
// Desktop would launch it. The client calls server-everything's triggers through serve; the requests
// server-everything sends back appear in the app's dialogs, labelled with the process they came through,
// and what the user answers there reaches the server. The sampling completion is made by serve with the
// home's default model, a local server speaking the OpenAI wire format (test/fixtures/providers).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect, test, type Page } from '@playwright/test';
import { startOpenAIServer } from '../test/fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../test/fixtures/providers/scriptedServer';
import { startWebWithEnv } from './chatHarness';
import { EVERYTHING, ROOT, type RunningWeb } from './harness';

const SHOTS = join(import.meta.dirname, '../test-results/screenshots');
const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) });

test.describe.configure({ mode: 'serial' });

let web: RunningWeb;
let page: Page;
let model: FakeProviderServer;
let client: Client;
let serveStderr = '';
const pageErrors: string[] = [];

const text = (r: { content?: unknown }) =>
  ((r.content ?? []) as { type: string; text?: string }[])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');

test.beforeAll(async ({ browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  const home = mkdtempSync(join(tmpdir(), 'mooring-e2e-serve-home-'));
  model = await startOpenAIServer([{ text: 'Leaves fall quietly' }]);
  writeFileSync(
    join(home, 'mcp_servers.json'),
    // trust-all: the triggers are not read-only; this suite is about their requests, not approvals.
    JSON.stringify({
      servers: [{ name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'], policy: 'trust-all' }],
    }),
  );
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({ providers: { default: 'openai', openai: { baseUrl: `${model.url}/v1` } } }),
  );
  web = await startWebWithEnv(home, { OPENAI_API_KEY: 'sk-e2e' });
  page = await browser.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(web.url);

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'bin/mooring.mjs'), 'serve', '--stdio'],
    env: {
      ...(process.env as Record<string, string>),
      MOORING_HOME: home,
      MOORING_NO_SHELL_PATH: '1',
      OPENAI_API_KEY: 'sk-e2e',
    },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d: Buffer) => (serveStderr += d.toString()));
  client = new Client({ name: 'e2e-desktop-client', version: '1.0.0' });
  await client.connect(transport);
});

test.afterAll(async () => {
  await client?.close();
  await page?.close();
  expect(pageErrors).toEqual([]);
  await model?.close();
  if (web) expect(await web.stop(), web.stderr()).toBe(0);
});

test("an elicitation from a server behind mooring serve is answered in the app's form", async () => {
  const call = client.callTool(
    { name: 'mcp__everything__trigger-elicitation-request', arguments: {} },
    { timeout: 120_000 },
  );
  const dialog = page.getByTestId('interaction-elicitation-form');
  await expect(dialog, serveStderr).toBeVisible();
  await expect(dialog).toContainText('everything (via mooring serve --stdio)');
  await expect(dialog.getByLabel('String with default')).toHaveValue('It was a dark and stormy night.');
  await shot(page, 'serve-01-elicitation-from-serve');
  await dialog.getByLabel('String *').fill('Ada Lovelace');
  await dialog.getByLabel('String with email format').fill('ada@example.com');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog).toBeHidden();
  const r = await call;
  expect(text(r)).toContain('User provided the requested information');
  expect(text(r)).toContain('Ada Lovelace');
  expect(text(r)).toContain('ada@example.com');
});

test('a sampling request from a server behind mooring serve is approved in the app and answered', async () => {
  const call = client.callTool(
    {
      name: 'mcp__everything__trigger-sampling-request',
      arguments: { prompt: 'Write a haiku', maxTokens: 100 },
    },
    { timeout: 120_000 },
  );
  const dialog = page.getByTestId('interaction-sampling');
  await expect(dialog, serveStderr).toBeVisible();
  await expect(dialog).toContainText('everything (via mooring serve --stdio)');
  await expect(dialog.getByLabel('Sampling message 1')).toHaveValue(/Write a haiku/);
  await shot(page, 'serve-02-sampling-from-serve');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog).toBeHidden();
  const r = await call;
  expect(r.isError, text(r)).toBeFalsy();
  expect(text(r)).toContain('Leaves fall quietly');
  const sampled = model.requests.find((q) =>
    JSON.stringify(q.body?.messages ?? '').includes('Write a haiku'),
  );
  expect(sampled, 'the approved request reached the model').toBeTruthy();
});
