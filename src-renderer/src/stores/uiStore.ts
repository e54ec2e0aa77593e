// UI state only (issue 5): which screen, which server is selected, which dialog is open. Server state
// lives in TanStack Query; this store never holds data that came from the core.
import { create } from 'zustand';

export const ROUTES = [
  'servers',
  'browse',
  'tools',
  'playground',
  'diagnostics',
  'chat',
  'models',
  'workspace',
] as const;
export type Route = (typeof ROUTES)[number];

export type Editing = { mode: 'new' } | { mode: 'edit'; name: string } | null;

export interface UiState {
  route: Route;
  selectedServer: string | null;
  editing: Editing;
  importOpen: boolean;
  logsFor: string | null;
  removing: string | null;
  /** One line for the server list after an action, e.g. "3 destructive tools disabled by default". */
  notice: string | null;
  navigate(route: Route): void;
  selectServer(name: string | null): void;
  edit(editing: Editing): void;
  openImport(open: boolean): void;
  showLogs(name: string | null): void;
  confirmRemove(name: string | null): void;
  notify(notice: string | null): void;
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
  logsFor: null,
  removing: null,
  notice: null,
  navigate: (route) => {
    if (typeof history !== 'undefined') history.replaceState(null, '', `#/${route}`);
    set({ route });
  },
  selectServer: (selectedServer) => set({ selectedServer }),
  edit: (editing) => set({ editing }),
  openImport: (importOpen) => set({ importOpen }),
  showLogs: (logsFor) => set({ logsFor }),
  confirmRemove: (removing) => set({ removing }),
  notify: (notice) => set({ notice }),
}));
