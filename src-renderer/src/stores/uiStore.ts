// UI state only (ARCHITECTURE.md, the renderer): which screen, which server is selected, which dialog is
// open. Server state lives in TanStack Query; this store never holds data that came from the core.
import { create } from 'zustand';
import { SCREENS, type Route } from '../shell/screens';

/** Every screen's route (shell/screens.ts declares them). */
export const ROUTES: readonly Route[] = SCREENS.map((s) => s.route);
export type { Route };

export type Editing = { mode: 'new' } | { mode: 'edit'; name: string } | null;

/** What the import dialog opens with: pasted JSON from the Add form, or a detected client's file. */
export interface ImportSeed {
  text: string;
  fileName: string;
}

/** The notice after servers were added: names the servers; the count of tools still off is read live. */
export interface SafeDefaultsNotice {
  servers: string[];
}

export interface UiState {
  route: Route;
  selectedServer: string | null;
  editing: Editing;
  importOpen: boolean;
  importSeed: ImportSeed | null;
  detectOpen: boolean;
  removing: string | null;
  notice: SafeDefaultsNotice | null;
  navigate(route: Route): void;
  selectServer(name: string | null): void;
  edit(editing: Editing): void;
  openImport(open: boolean, seed?: ImportSeed): void;
  openDetect(open: boolean): void;
  /** Opens the Logs screen on one server. */
  showLogs(name: string): void;
  confirmRemove(name: string | null): void;
  notify(notice: SafeDefaultsNotice | null): void;
}

const routeFromHash = (): Route => {
  const h = typeof location === 'undefined' ? '' : location.hash.replace(/^#\/?/, '');
  return (ROUTES as readonly string[]).includes(h) ? (h as Route) : 'servers';
};

export const useUi = create<UiState>((set) => ({
  route: routeFromHash(),
  selectedServer: null,
  editing: null,
  importOpen: false,
  importSeed: null,
  detectOpen: false,
  removing: null,
  notice: null,
  navigate: (route) => {
    if (typeof history !== 'undefined') history.replaceState(null, '', `#/${route}`);
    set({ route });
  },
  selectServer: (selectedServer) => set({ selectedServer }),
  edit: (editing) => set({ editing }),
  openImport: (importOpen, seed) => set({ importOpen, importSeed: importOpen ? (seed ?? null) : null }),
  openDetect: (detectOpen) => set({ detectOpen }),
  showLogs: (name) => {
    if (typeof history !== 'undefined') history.replaceState(null, '', '#/logs');
    set({ route: 'logs', selectedServer: name });
  },
  confirmRemove: (removing) => set({ removing }),
  notify: (notice) => set({ notice }),
}));
