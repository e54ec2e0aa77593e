// A second browser, or the same one after its cookie is gone, gets in without restarting anything:
// `mooring web --link` asks the running instance for a new one-time link (web/webInstance.ts). A real
// `mooring web` child with a real server; the turned-away page says what to run.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { EVERYTHING, ROOT, startMooringWeb, type RunningWeb } from './harness';

const run = promisify(execFile);
let web: RunningWeb;
let home: string;

/** `mooring web --link` on the same home, as a person runs it in a second terminal. */
async function link(args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [join(ROOT, 'bin/mooring.mjs'), 'web', '--link', ...args], {
      env: { ...process.env, MOORING_HOME: home },
    });
    return { code: 0, ...r };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The everything server's process id, as the page's own session reads it from the router. */
async function serverPid(page: Page): Promise<number | undefined> {
  return page.evaluate(async () => {
    const res = await fetch('/trpc/servers.list');
    const body = (await res.json()) as {
      result: { data: Array<{ config: { name: string }; status: { pid?: number } | null }> };
    };
    return body.result.data.find((r) => r.config.name === 'everything')?.status?.pid;
  });
}

test.beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'mooring-e2e-weblink-'));
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({ servers: [{ name: 'everything', command: 'node', args: [EVERYTHING] }] }),
  );
  web = await startMooringWeb(home);
});

test.afterAll(async () => {
  await web?.stop();
});

test('another browser is turned away with what to run; `mooring web --link` lets it in, servers untouched', async ({
  browser,
}) => {
  const first = await browser.newPage();
  await first.goto(web.url);
  await expect(first.getByTestId('server-everything').getByTestId('server-state')).toHaveText('ready');
  const pid = await serverPid(first);
  expect(pid).toBeGreaterThan(0);

  // Another browser (its own cookie jar), with the printed link already used.
  const other = await browser.newContext();
  const page = await other.newPage();
  const refused = await page.goto(web.url);
  expect(refused?.status()).toBe(401);
  await expect(page.locator('body')).toContainText('run `mooring web --link` in a terminal');

  const text = await link();
  expect(text.code, text.stderr).toBe(0);
  expect(text.stdout).toMatch(
    /A new link to the Mooring on port \d+ \(it works once\):\n {2}http:\/\/127\.0\.0\.1:/,
  );
  const { url } = JSON.parse((await link(['--json'])).stdout) as { url: string };
  await page.goto(url);
  await expect(page.getByTestId('server-everything').getByTestId('server-state')).toHaveText('ready');
  // The same server process: nothing restarted.
  expect(await serverPid(page)).toBe(pid);
  // The link worked once.
  const third = await (await browser.newContext()).newPage();
  expect((await third.goto(url))?.status()).toBe(401);
  await other.close();
});

test('with no instance running, --link says so and what to do, exit code not_found', async () => {
  expect(await web.stop()).toBe(0);
  const r = await link(['--json']);
  expect(r.code).not.toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, code: 'not_found' });
  const t = await link();
  expect(t.stderr).toContain('No browser-mode Mooring is running with this home');
  expect(t.stderr).toContain('mooring web');
});
