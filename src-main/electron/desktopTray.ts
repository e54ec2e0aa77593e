// The tray / menu-bar icon, when the user keeps it (ShellStateStore.trayEnabled): its menu lists the servers'
// states (trayMenu.ts) and follows every status change, so Mooring can run its servers, and the approval
// relay `mooring serve` uses, with the window closed.
import { join } from 'node:path';
import { Menu, nativeImage, Tray } from 'electron';
import type { SessionStatus } from '@shared/session';
import { trayMenuTemplate, trayTooltip } from './trayMenu';

export interface DesktopTrayOptions {
  resourcesDir: string;
  statuses(): SessionStatus[];
  /** Subscribes to status changes; returns the unsubscribe. */
  onStatusChange(listener: () => void): () => void;
  onShow(): void;
  onHideTray(): void;
  onQuit(): void;
}

export class DesktopTray {
  private readonly tray: Tray;
  private readonly unsubscribe: () => void;
  private pending: NodeJS.Timeout | undefined;

  constructor(private readonly opts: DesktopTrayOptions) {
    const mac = process.platform === 'darwin';
    // macOS tints a template image for light and dark menu bars; elsewhere the colour icon.
    const image = nativeImage.createFromPath(
      join(opts.resourcesDir, mac ? 'trayTemplate.png' : join('icons', '32x32.png')),
    );
    if (mac) image.setTemplateImage(true);
    this.tray = new Tray(process.platform === 'win32' ? image.resize({ width: 16, height: 16 }) : image);
    // Windows and Linux open the window on a click; macOS shows the menu (its convention).
    if (!mac) this.tray.on('click', () => opts.onShow());
    this.unsubscribe = opts.onStatusChange(() => this.refreshSoon());
    this.refresh();
  }

  /** Status changes come in bursts (a reconnect is several): rebuild the menu once per burst. */
  private refreshSoon(): void {
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.refresh();
    }, 250);
  }

  private refresh(): void {
    if (this.tray.isDestroyed()) return;
    const statuses = this.opts.statuses();
    this.tray.setToolTip(trayTooltip(statuses));
    this.tray.setContextMenu(
      Menu.buildFromTemplate(
        trayMenuTemplate({
          statuses,
          onShow: this.opts.onShow,
          onHideTray: this.opts.onHideTray,
          onQuit: this.opts.onQuit,
        }),
      ),
    );
  }

  destroy(): void {
    clearTimeout(this.pending);
    this.unsubscribe();
    if (!this.tray.isDestroyed()) this.tray.destroy();
  }
}
