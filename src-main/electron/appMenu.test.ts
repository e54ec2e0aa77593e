// The application menu's template per platform: the standard roles are there (so copy/paste and zoom work
// everywhere), the app menu only on macOS, developer items only unpackaged, and the custom items act.
import type { MenuItem, MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { appMenuTemplate, type AppMenuOptions } from './appMenu';

const options = (over: Partial<AppMenuOptions> = {}): AppMenuOptions => ({
  platform: 'linux',
  appName: 'Mooring',
  isPackaged: true,
  trayEnabled: false,
  onToggleTray: vi.fn(),
  onOpenReadme: vi.fn(),
  onOpenSpec: vi.fn(),
  ...over,
});

const sub = (m: MenuItemConstructorOptions) => (m.submenu ?? []) as MenuItemConstructorOptions[];
const roles = (m: MenuItemConstructorOptions) => sub(m).flatMap((i) => (i.role ? [i.role] : []));
const menu = (t: MenuItemConstructorOptions[], label: string) => {
  const m = t.find((x) => x.label === label || x.role === label);
  if (!m) throw new Error(`no ${label} menu in ${t.map((x) => x.label ?? x.role).join(', ')}`);
  return m;
};
const click = (item: MenuItemConstructorOptions, checked = false) =>
  (item.click as (i: MenuItem) => void)({ checked } as MenuItem);

describe('appMenuTemplate', () => {
  it('Windows and Linux: File (tray, quit), Edit, View, Window, Help; no app menu', () => {
    for (const platform of ['linux', 'win32'] as const) {
      const t = appMenuTemplate(options({ platform }));
      expect(t.map((m) => m.label ?? m.role)).toEqual(['File', 'Edit', 'View', 'windowMenu', 'help']);
      expect(roles(menu(t, 'File'))).toEqual(['quit']);
      expect(roles(menu(t, 'Edit'))).toEqual(['undo', 'redo', 'cut', 'copy', 'paste', 'delete', 'selectAll']);
      expect(roles(menu(t, 'View'))).toEqual(['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']);
      expect(roles(menu(t, 'windowMenu'))).toEqual(['minimize', 'close']);
    }
  });

  it('macOS: the app menu first, named for the app, with about, services, hide and quit', () => {
    const t = appMenuTemplate(options({ platform: 'darwin' }));
    expect(t[0]!.label).toBe('Mooring');
    expect(roles(t[0]!)).toEqual(['about', 'services', 'hide', 'hideOthers', 'unhide', 'quit']);
    expect(roles(menu(t, 'File'))).toEqual(['close']);
    expect(roles(menu(t, 'Edit'))).toContain('pasteAndMatchStyle');
    expect(roles(menu(t, 'windowMenu'))).toEqual(['minimize', 'zoom', 'front']);
  });

  it('reload and devtools only in an unpackaged run', () => {
    expect(roles(menu(appMenuTemplate(options({ isPackaged: false })), 'View'))).toEqual(
      expect.arrayContaining(['reload', 'toggleDevTools']),
    );
    expect(roles(menu(appMenuTemplate(options()), 'View'))).not.toContain('toggleDevTools');
  });

  it('Help opens the README and the MCP specification', () => {
    const o = options();
    const [readme, spec] = sub(menu(appMenuTemplate(o), 'help'));
    expect(readme!.label).toBe('Mooring README');
    click(readme!);
    click(spec!);
    expect(o.onOpenReadme).toHaveBeenCalledTimes(1);
    expect(o.onOpenSpec).toHaveBeenCalledTimes(1);
  });

  it('the tray item shows the saved choice and reports a change', () => {
    for (const platform of ['darwin', 'linux'] as const) {
      const o = options({ platform, trayEnabled: true });
      const t = appMenuTemplate(o);
      const tray = t.flatMap(sub).find((i) => i.id === 'tray')!;
      expect(tray).toMatchObject({ type: 'checkbox', checked: true });
      expect(tray.label).toBe(
        platform === 'darwin' ? 'Keep Mooring in the Menu Bar' : 'Keep Mooring in the Tray',
      );
      click(tray, false);
      expect(o.onToggleTray).toHaveBeenCalledWith(false);
    }
  });
});
