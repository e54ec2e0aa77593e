// The native application menu: the standard roles every desktop app owes its user (Edit's undo, cut, copy,
// paste work in every text field only when the menu has them on macOS; View's zoom; Window; Help), and on
// macOS the app menu. A pure template, so it is tested without Electron; main.ts builds the Menu from it.
import type { MenuItemConstructorOptions } from 'electron';

export interface AppMenuOptions {
  platform: NodeJS.Platform;
  appName: string;
  /** Developer items (reload, devtools) only in an unpackaged run. */
  isPackaged: boolean;
  trayEnabled: boolean;
  onToggleTray(on: boolean): void;
  onOpenReadme(): void;
  onOpenSpec(): void;
}

const sep: MenuItemConstructorOptions = { type: 'separator' };

export function appMenuTemplate(o: AppMenuOptions): MenuItemConstructorOptions[] {
  const mac = o.platform === 'darwin';
  const trayLabel = mac ? 'Keep Mooring in the Menu Bar' : 'Keep Mooring in the Tray';
  const tray: MenuItemConstructorOptions = {
    id: 'tray',
    label: trayLabel,
    type: 'checkbox',
    checked: o.trayEnabled,
    click: (item) => o.onToggleTray(item.checked),
  };
  const appMenu: MenuItemConstructorOptions = {
    label: o.appName,
    submenu: [
      { role: 'about' },
      sep,
      tray,
      sep,
      { role: 'services' },
      sep,
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      sep,
      { role: 'quit' },
    ],
  };
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: mac ? [{ role: 'close' }] : [tray, sep, { role: 'quit' }],
  };
  const edit: MenuItemConstructorOptions = {
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      sep,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      sep,
      { role: 'selectAll' },
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      ...(o.isPackaged ? [] : [{ role: 'reload' } as const, { role: 'toggleDevTools' } as const, sep]),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      sep,
      { role: 'togglefullscreen' },
    ],
  };
  const windowMenu: MenuItemConstructorOptions = {
    role: 'windowMenu',
    submenu: mac
      ? [{ role: 'minimize' }, { role: 'zoom' }, sep, { role: 'front' }]
      : [{ role: 'minimize' }, { role: 'close' }],
  };
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [
      { label: 'Mooring README', click: () => o.onOpenReadme() },
      { label: 'Model Context Protocol Specification', click: () => o.onOpenSpec() },
    ],
  };
  return [...(mac ? [appMenu] : []), file, edit, view, windowMenu, help];
}
