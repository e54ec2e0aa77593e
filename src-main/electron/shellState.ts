// The desktop shell's own state: window size and position, the last screen, zoom, and whether the tray icon
// is on. It lives in `shell-state.json` in the home through electron-store (whose base library, conf, takes
// the same options, so this is tested in plain Node). The core's settings stay in settings.json, which the
// CLI and browser mode share; nothing here matters to them.
import type Conf from 'conf';
import type { Schema } from 'conf';

export interface SavedWindow {
  width: number;
  height: number;
  /** Absent until the window was moved once, or when the saved place is on no screen any more. */
  x?: number;
  y?: number;
  maximized: boolean;
}

export interface ShellState {
  window: SavedWindow;
  /** The renderer's route (`#/servers`), reopened at the next start. */
  lastScreen: string;
  zoomFactor: number;
  /** Keep a tray / menu-bar icon, so servers and `serve` run on with the window closed. */
  tray: boolean;
}

export const SHELL_STATE_NAME = 'shell-state';
export const MIN_WINDOW = { width: 640, height: 480 };
export const ZOOM_RANGE = { min: 0.5, max: 3 };
const SCREEN_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

const schema: Schema<ShellState> = {
  window: {
    type: 'object',
    properties: {
      width: { type: 'integer', minimum: 1 },
      height: { type: 'integer', minimum: 1 },
      x: { type: 'integer' },
      y: { type: 'integer' },
      maximized: { type: 'boolean' },
    },
    required: ['width', 'height', 'maximized'],
  },
  lastScreen: { type: 'string', pattern: SCREEN_PATTERN.source },
  zoomFactor: { type: 'number', minimum: ZOOM_RANGE.min, maximum: ZOOM_RANGE.max },
  tray: { type: 'boolean' },
};

/**
 * The options electron-store (with `name: SHELL_STATE_NAME`) and conf (with `configName`) are given. A file
 * that is not valid JSON or breaks the schema is replaced by the defaults: it only held window geometry.
 */
export const SHELL_STATE_OPTIONS = {
  schema,
  defaults: {
    window: { width: 1200, height: 800, maximized: false },
    lastScreen: 'servers',
    zoomFactor: 1,
    tray: false,
  } satisfies ShellState,
  clearInvalidConfig: true,
  accessPropertiesByDotNotation: false,
  configFileMode: 0o600,
} as const;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How much of the title bar must lie on a screen for a saved position to be used again. */
const VISIBLE = { width: 100, height: 40 };

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

type Store = Pick<Conf<ShellState>, 'get' | 'set'>;

export class ShellStateStore {
  constructor(private readonly store: Store) {}

  /**
   * The window's bounds for the screens there are now (`workAreas`): the saved size, no larger than the
   * biggest screen and no smaller than MIN_WINDOW; the saved position only while its title bar is still on
   * a screen (a monitor that was unplugged would otherwise open the window off-screen).
   */
  windowBounds(workAreas: Rect[]): {
    width: number;
    height: number;
    x?: number;
    y?: number;
    maximized: boolean;
  } {
    const saved = this.store.get('window');
    const maxW = Math.max(MIN_WINDOW.width, ...workAreas.map((a) => a.width));
    const maxH = Math.max(MIN_WINDOW.height, ...workAreas.map((a) => a.height));
    const width = Math.min(Math.max(saved.width, MIN_WINDOW.width), maxW);
    const height = Math.min(Math.max(saved.height, MIN_WINDOW.height), maxH);
    const out = { width, height, maximized: saved.maximized };
    if (saved.x === undefined || saved.y === undefined) return out;
    const titleBar = { x: saved.x, y: saved.y, width, height: VISIBLE.height };
    const onScreen = workAreas.some((a) => {
      const o = overlap(titleBar, a);
      return o.width >= Math.min(VISIBLE.width, width) && o.height >= VISIBLE.height;
    });
    return onScreen ? { ...out, x: saved.x, y: saved.y } : out;
  }

  /** `bounds` are the normal (not maximized) bounds, so un-maximizing next time restores them. */
  saveWindow(bounds: Rect, maximized: boolean): void {
    const r = (n: number) => Math.round(n);
    this.store.set('window', {
      width: Math.max(1, r(bounds.width)),
      height: Math.max(1, r(bounds.height)),
      x: r(bounds.x),
      y: r(bounds.y),
      maximized,
    });
  }

  lastScreen(): string {
    return this.store.get('lastScreen');
  }

  /** Records the screen from the window's URL (`app://mooring/index.html#/tools`); other URLs are ignored. */
  saveScreenFromUrl(url: string): void {
    const screen = screenFromUrl(url);
    if (screen) this.store.set('lastScreen', screen);
  }

  zoomFactor(): number {
    return this.store.get('zoomFactor');
  }

  saveZoomFactor(factor: number): void {
    if (!Number.isFinite(factor)) return;
    this.store.set('zoomFactor', Math.min(ZOOM_RANGE.max, Math.max(ZOOM_RANGE.min, factor)));
  }

  trayEnabled(): boolean {
    return this.store.get('tray');
  }

  setTrayEnabled(on: boolean): void {
    this.store.set('tray', on);
  }
}

/** The route in a renderer URL's hash, when it looks like one (the renderer falls back on unknown routes). */
export function screenFromUrl(url: string): string | undefined {
  let hash: string;
  try {
    hash = new URL(url).hash;
  } catch {
    return undefined;
  }
  const screen = hash.replace(/^#\/?/, '');
  return SCREEN_PATTERN.test(screen) ? screen : undefined;
}
