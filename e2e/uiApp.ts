// One fresh app per test for the UI specs: a temp MOORING_HOME holding the servers the test names, a real
// `mooring web` on it, and a page of its own signed in through the one-time link. A test sets up what it
// needs and no failure hides the next test's steps. At the end: no page error, a clean exit, and no server
// process left behind.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import {
  descendants,
  EVERYTHING,
  FILESYSTEM,
  MEMORY,
  running,
  startMooringWeb,
  type RunningWeb,
} from './harness';

export { expect };

const SHOTS = join(import.meta.dirname, '../test-results/screenshots');

/** The servers a test may start with, written to mcp_servers.json before the app starts. */
export type Seeded = 'everything' | 'fs' | 'memory';

export interface UiApp {
  home: string;
  /** server-filesystem's root (empty at the start). */
  root: string;
  web: RunningWeb;
  page: Page;
  /** A server's row on the Servers screen. */
  row(name: string): Locator;
  shot(name: string): Promise<void>;
}

const entry = (name: Seeded, home: string, root: string) =>
  ({
    everything: { name, command: 'node', args: [EVERYTHING, 'stdio'] },
    fs: { name, command: 'node', args: [FILESYSTEM, root] },
    memory: { name, command: 'node', args: [MEMORY], env: { MEMORY_FILE_PATH: join(home, 'memory.json') } },
  })[name];

/** A process's command line, its arguments joined by spaces (empty once it is gone). */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** The watchdog runs as `node -e <its script> <owner pid>` (mcp/processWatchdog.ts). */
const isWatchdog = (command: string) => /^\S+ -e /.test(command);

export const test = base.extend<{ servers: Seeded[]; app: UiApp }>({
  servers: [[], { option: true }],
  app: async ({ browser, servers }, use) => {
    mkdirSync(SHOTS, { recursive: true });
    const home = mkdtempSync(join(tmpdir(), 'mooring-e2e-home-'));
    const root = mkdtempSync(join(tmpdir(), 'mooring-e2e-files-'));
    if (servers.length)
      writeFileSync(
        join(home, 'mcp_servers.json'),
        JSON.stringify({ servers: servers.map((s) => entry(s, home, root)) }),
      );
    const web = await startMooringWeb(home);
    let stopped = false;
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
      const page = await context.newPage();
      // A page error (a React crash) fails the test, with its message.
      const pageErrors: string[] = [];
      page.on('pageerror', (e) => pageErrors.push(e.message));
      await page.goto(web.url);
      const row = (name: string) => page.getByTestId(`server-${name}`);
      for (const s of servers) await expect(row(s).getByTestId('server-state')).toHaveText('ready');
      const shot = async (name: string) => {
        await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
      };

      await use({ home, root, web, page, row, shot });

      await context.close();
      expect(pageErrors).toEqual([]);
      // Ctrl-C/SIGTERM closes every session: no server process outlives the command, and the process
      // watchdog (docs/sessions.md, "Server processes never outlive Mooring"), which may finish its
      // clean-up after the command exits, ends too.
      const started = descendants(web.child.pid!, '').map((pid) => ({
        pid,
        command: commandOf(pid).slice(0, 160),
      }));
      stopped = true;
      expect(await web.stop(), web.stderr()).toBe(0);
      const left = () => started.filter((p) => running(p.pid));
      expect(left().filter((p) => !isWatchdog(p.command))).toEqual([]);
      await expect.poll(left).toEqual([]);
    } finally {
      if (!stopped) await web.stop();
    }
  },
});
