// The shell's window state on conf 15, the library electron-store 11 is built on, with the very options the
// shell gives electron-store: a real file in a temp home, read back by a second instance.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Conf from 'conf';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MIN_WINDOW,
  screenFromUrl,
  SHELL_STATE_NAME,
  SHELL_STATE_OPTIONS,
  ShellStateStore,
  type ShellState,
} from './shellState';

let home: string;
const open = () =>
  new ShellStateStore(
    new Conf<ShellState>({ ...SHELL_STATE_OPTIONS, configName: SHELL_STATE_NAME, cwd: home }),
  );
const file = () => join(home, `${SHELL_STATE_NAME}.json`);
const screen1 = { x: 0, y: 0, width: 1920, height: 1080 };
const screen2 = { x: 1920, y: 0, width: 1280, height: 1024 };

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mooring-shellstate-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('ShellStateStore on conf', () => {
  it('first start: the defaults, centred (no position), servers screen, zoom 1, no tray', () => {
    const s = open();
    expect(s.windowBounds([screen1])).toEqual({ width: 1200, height: 800, maximized: false });
    expect(s.lastScreen()).toBe('servers');
    expect(s.zoomFactor()).toBe(1);
    expect(s.trayEnabled()).toBe(false);
  });

  it('everything saved is there at the next start, in shell-state.json (0600) in the home', () => {
    const s = open();
    s.saveWindow({ x: 2000.4, y: 100, width: 1000, height: 700.6 }, true);
    s.saveScreenFromUrl('app://mooring/index.html#/tools');
    s.saveZoomFactor(1.25);
    s.setTrayEnabled(true);
    const next = open();
    expect(next.windowBounds([screen1, screen2])).toEqual({
      x: 2000,
      y: 100,
      width: 1000,
      height: 701,
      maximized: true,
    });
    expect(next.lastScreen()).toBe('tools');
    expect(next.zoomFactor()).toBe(1.25);
    expect(next.trayEnabled()).toBe(true);
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file(), 'utf8'))).toMatchObject({ lastScreen: 'tools', tray: true });
  });

  it('a window saved on a screen that is gone opens centred on the screens there are', () => {
    const s = open();
    s.saveWindow({ x: 2000, y: 100, width: 1000, height: 700 }, false);
    expect(s.windowBounds([screen1])).toEqual({ width: 1000, height: 700, maximized: false });
    // Only the title bar's edge on screen is not enough to grab it.
    s.saveWindow({ x: 1900, y: 100, width: 1000, height: 700 }, false);
    expect(s.windowBounds([screen1])).toEqual({ width: 1000, height: 700, maximized: false });
    s.saveWindow({ x: 1700, y: 100, width: 1000, height: 700 }, false);
    expect(s.windowBounds([screen1])).toMatchObject({ x: 1700, y: 100 });
  });

  it('the size is kept between the minimum and the largest screen', () => {
    const s = open();
    s.saveWindow({ x: 0, y: 0, width: 10, height: 10 }, false);
    expect(s.windowBounds([screen1])).toMatchObject(MIN_WINDOW);
    s.saveWindow({ x: 0, y: 0, width: 5000, height: 4000 }, false);
    expect(s.windowBounds([screen1, screen2])).toMatchObject({ width: 1920, height: 1080 });
  });

  it('zoom is clamped; odd URLs do not become a screen', () => {
    const s = open();
    s.saveZoomFactor(10);
    expect(s.zoomFactor()).toBe(3);
    s.saveZoomFactor(Number.NaN);
    expect(s.zoomFactor()).toBe(3);
    for (const url of [
      'app://mooring/index.html',
      'app://mooring/index.html#/<script>',
      'not a url',
      'https://x/#/a/b',
    ])
      s.saveScreenFromUrl(url);
    expect(s.lastScreen()).toBe('servers');
    expect(screenFromUrl('app://mooring/index.html#/chat')).toBe('chat');
  });

  it('a damaged or hand-edited file that breaks the schema falls back to the defaults instead of crashing', () => {
    writeFileSync(file(), '{ not json');
    expect(open().lastScreen()).toBe('servers');
    writeFileSync(file(), JSON.stringify({ lastScreen: 42, zoomFactor: 99 }));
    expect(open().zoomFactor()).toBe(1);
  });
});
