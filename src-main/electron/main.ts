// The Electron main process (docs/desktop-shell.md, "The desktop shell"): thin. It opens the core, serves the
// renderer from app://mooring with a strict CSP, locks every window down, answers router messages from our
// own top frame only, and does what a desktop app owes its user (menu, single instance, mooring:// links,
// notifications, tray, remembered window). Everything testable lives in modules beside this one or in the core.
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  app,
  BrowserWindow,
  ipcMain,
  Menu,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
  type WebContents,
} from 'electron';
import ElectronStore from 'electron-store';
import { createIpcDispatcher, type IpcDispatcher } from '../core/api/ipcDispatcher';
import { IPC_CHANNEL } from '../../shared/ipc';
import { appRouter, createApiContext } from '../core/api/router';
import { resolveHome } from '../core/home';
import { MooringCore } from '../core/mooringCore';
import { FallbackSecretStore } from '../core/secrets/fallbackSecretStore';
import { KeytarSecretStore } from '../core/secrets/secretStore';
import { isSafeExternalUrl } from '../core/safety/ssrfGuard';
import { SECURITY_HEADERS, securityHeadersFraming } from '../core/web/contentSecurity';
import { appMenuTemplate } from './appMenu';
import { startAttentionNotifier } from './attentionNotifier';
import { installLinksFromArgv, LINK_SCHEME } from './deepLinks';
import { DesktopTray } from './desktopTray';
import { MCP_SERVER_FLAG, runMcpServer } from './mcpServerMode';
import { SafeStorageSecretStore } from './safeStorageSecretStore';
import { APP_HOST, APP_ORIGIN, APP_SCHEME, isAllowedExternalLink, isTrustedSender } from './senderCheck';
import { allowViewPermission, checkAsk, requestAsk } from './viewPermissions';
import { serveViewPage, VIEW_SCHEME, viewSandboxHost } from './viewScheme';
import { SHELL_STATE_NAME, SHELL_STATE_OPTIONS, ShellStateStore, type ShellState } from './shellState';

const here = fileURLToPath(new URL('.', import.meta.url));
const RENDERER_DIR = join(here, '../renderer');
const PRELOAD = join(here, '../preload/index.cjs');
/** resources/ ships inside the app (electron-builder.yml `files`), so this path holds packaged too. */
const RESOURCES = join(here, '../../resources');
const WINDOW_ICON = join(RESOURCES, 'icons', '512x512.png');
const SPEC_URL = 'https://modelcontextprotocol.io/specification';
const FRAMING_CSP = securityHeadersFraming(`${VIEW_SCHEME}:`)['content-security-policy']!;
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

// One home for the app and the CLI (docs/data-on-disk.md "Data on disk"). Set before the single-instance lock,
// which is keyed on it: one app per home.
const home = resolveHome();
app.setPath('userData', home);
const mcpServerMode = process.argv.includes(MCP_SERVER_FLAG);

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  // MCP App views' sandbox pages (viewScheme.ts): an origin per view, nothing more.
  { scheme: VIEW_SCHEME, privileges: { standard: true, secure: true } },
]);

// A second launch hands its arguments (a mooring:// link) to the first and exits; `--mcp-server` runs beside
// the app as another MCP client's child, so it never takes the lock.
const primary = mcpServerMode || app.requestSingleInstanceLock();
if (!primary) app.exit(0);

const windows = new Set<number>();
const dispatchers = new Map<number, IpcDispatcher>();
let core: MooringCore | undefined;
let api: ReturnType<typeof createApiContext> | undefined;
let mainWindow: BrowserWindow | undefined;
let tray: DesktopTray | undefined;
let shellState: ShellStateStore | undefined;
/** Links that arrived before the core was open (a link that launched the app, an early open-url). */
const earlyLinks: string[] = [];

/** Serves out/renderer under app://mooring/ — files under that folder only, with the CSP header. */
async function serveRenderer(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.host !== APP_HOST) return new Response('Not found', { status: 404 });
  const rel = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
  const file = normalize(join(RENDERER_DIR, rel));
  if (!file.startsWith(RENDERER_DIR + sep)) return new Response('Not found', { status: 404 });
  try {
    const body = await readFile(file);
    return new Response(body, {
      headers: {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        ...SECURITY_HEADERS,
        // The app may frame MCP App views' sandbox pages, on their own scheme, and nothing else.
        'content-security-policy': FRAMING_CSP,
      },
    });
  } catch {
    return new Response('Not found', { status: 404 });
  }
}

/** The one way out to the system browser: https links that pass isSafeExternalUrl, checked here whoever
 * asks (the window, the Help menu, or the core after the user's consent), since a server-supplied URL once
 * gave RCE (CVE-2025-6514): only https URLs ever reach the system browser. */
async function openExternalLink(url: string): Promise<void> {
  if (!isAllowedExternalLink(url, isSafeExternalUrl))
    throw new Error(`Mooring opens only https links, not ${url}`);
  await shell.openExternal(url);
}

function lockDown(contents: WebContents): void {
  // Navigation away from the app and new windows are denied; an allow-listed external link goes to
  // the system browser, checked first (a server-supplied URL once gave RCE: CVE-2025-6514).
  contents.on('will-navigate', (event, url) => {
    if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalLink(url, isSafeExternalUrl)) void openExternalLink(url).catch(() => undefined);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

function dispatcherFor(contents: WebContents): IpcDispatcher {
  let d = dispatchers.get(contents.id);
  if (!d) {
    const ctx = api!;
    d = createIpcDispatcher({
      router: appRouter,
      createContext: () => ({ core: ctx.core, history: ctx.history }),
      reply: (m) => {
        if (!contents.isDestroyed()) contents.send(IPC_CHANNEL, m);
      },
    });
    dispatchers.set(contents.id, d);
    const drop = () => {
      dispatchers.get(contents.id)?.dispose();
      dispatchers.delete(contents.id);
    };
    contents.once('destroyed', drop);
    // A reload starts a new page: its subscriptions start over.
    contents.on('did-start-navigation', (details) => {
      if (details.isMainFrame && !details.isSameDocument) drop();
    });
  }
  return d;
}

function createWindow(): BrowserWindow {
  const state = shellState!;
  const bounds = state.windowBounds(screen.getAllDisplays().map((d) => d.workArea));
  const win = new BrowserWindow({
    width: bounds.width,
    height: bounds.height,
    x: bounds.x,
    y: bounds.y,
    minWidth: 640,
    minHeight: 480,
    title: 'Mooring',
    icon: process.platform === 'darwin' ? undefined : WINDOW_ICON,
    show: false,
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      spellcheck: false,
      // Middle-click (auxclick) on a link would ask for a new window; the open handler denies it
      // anyway, this removes the path altogether (Electronegativity AUXCLICK_JS_CHECK).
      disableBlinkFeatures: 'Auxclick',
    },
  });
  if (bounds.maximized) win.maximize();
  const id = win.webContents.id;
  windows.add(id);
  win.webContents.on('did-finish-load', () => win.webContents.setZoomFactor(state.zoomFactor()));
  win.webContents.on('did-navigate-in-page', (_event, url) => state.saveScreenFromUrl(url));
  // Remembered as it closes: size and place (the normal bounds, so un-maximizing restores them), zoom, screen.
  win.on('close', () => {
    state.saveWindow(win.getNormalBounds(), win.isMaximized());
    state.saveZoomFactor(win.webContents.getZoomFactor());
    state.saveScreenFromUrl(win.webContents.getURL());
  });
  win.on('closed', () => {
    windows.delete(id);
    if (mainWindow === win) mainWindow = undefined;
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${APP_ORIGIN}/index.html#/${state.lastScreen()}`);
  mainWindow = win;
  return win;
}

/** Brings the window to the front, opening it again when it was closed to the tray. */
function showWindow(): void {
  if (!core) return;
  const win = mainWindow ?? createWindow();
  if (win.isMinimized()) win.restore();
  if (!win.isVisible()) win.show();
  win.focus();
}

/** A mooring:// link for the install consent screen: into the core's inbox, and the window to the front. */
function receiveLink(url: string): void {
  if (!core) {
    earlyLinks.push(url);
    return;
  }
  core.installLinks.offer(url);
  showWindow();
}

function setTray(on: boolean): void {
  shellState!.setTrayEnabled(on);
  if (on && !tray && core) {
    const c = core;
    tray = new DesktopTray({
      resourcesDir: RESOURCES,
      statuses: () => c.servers.statuses(),
      onStatusChange: (listener) => {
        const sub = c.on('status', listener);
        return () => void sub.dispose();
      },
      onShow: showWindow,
      onHideTray: () => setTray(false),
      onQuit: () => app.quit(),
    });
  } else if (!on && tray) {
    tray.destroy();
    tray = undefined;
  }
  buildMenu();
}

function buildMenu(): void {
  // The README ships beside the app (electron-builder.yml extraResources) and opens in the user's viewer.
  const readme = app.isPackaged ? join(process.resourcesPath, 'README.md') : join(here, '../../README.md');
  const template = appMenuTemplate({
    platform: process.platform,
    appName: app.name,
    isPackaged: app.isPackaged,
    trayEnabled: shellState!.trayEnabled(),
    onToggleTray: setTray,
    onOpenReadme: () => void shell.openPath(readme),
    onOpenSpec: () => void openExternalLink(SPEC_URL).catch(() => undefined),
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

ipcMain.on(IPC_CHANNEL, (event, message: unknown) => {
  const frame = event.senderFrame;
  const trusted = isTrustedSender({
    frameUrl: frame?.url ?? null,
    isTopFrame: !!frame && frame === event.sender.mainFrame,
    isOurWindow: windows.has(event.sender.id),
  });
  if (!trusted || !api) return;
  dispatcherFor(event.sender).handle(message);
});

app.on('web-contents-created', (_event, contents) => lockDown(contents));

// Links: macOS delivers them as open-url (also the one that launched the app, hence before ready); Windows
// and Linux as arguments, of this launch or of a second one.
app.on('open-url', (event, url) => {
  event.preventDefault();
  receiveLink(url);
});
app.on('second-instance', (_event, argv) => {
  const links = installLinksFromArgv(argv);
  for (const link of links) receiveLink(link);
  if (links.length === 0) showWindow();
});
for (const link of installLinksFromArgv(process.argv)) earlyLinks.push(link);

/** The OS keychain while keytar loads; else the file encrypted by the OS key (safeStorage). */
function secretStore(): FallbackSecretStore {
  return new FallbackSecretStore({
    keychain: new KeytarSecretStore(),
    fallback: new SafeStorageSecretStore({ home, cipher: safeStorage }),
    onChoice: (c) => {
      if (c.store === 'fallback')
        console.warn(`secrets: the OS keychain is unavailable (${c.keychainUnavailable}); using secrets.enc`);
    },
  });
}

let stopNotifier: (() => void) | undefined;

app.whenReady().then(async () => {
  if (!primary) return;
  if (mcpServerMode) return runMcpServer({ home, secretStore: secretStore() });
  // Deny every permission (camera, notifications, geolocation, …) unless a feature asks for one: the only
  // one that does is an MCP App view's declared permissions, once the person allowed them for its server
  // (viewPermissions.ts). `core` is set below, before any window (so any view) exists.
  session.defaultSession.setPermissionRequestHandler((_wc, permission, callback, details) => {
    if (!core) return callback(false);
    const views = core.apps;
    callback(allowViewPermission(requestAsk(permission, details), (id) => views.registered(id)));
  });
  session.defaultSession.setPermissionCheckHandler((_wc, permission, origin, details) =>
    core
      ? allowViewPermission(checkAsk(permission, origin, details), (id) => core!.apps.registered(id))
      : false,
  );
  protocol.handle(APP_SCHEME, serveRenderer);
  // Registered by the installers too; an unpackaged run leaves the system's handler alone.
  if (app.isPackaged) app.setAsDefaultProtocolClient(LINK_SCHEME);
  shellState = new ShellStateStore(
    new ElectronStore<ShellState>({ ...SHELL_STATE_OPTIONS, name: SHELL_STATE_NAME, cwd: home }),
  );
  // electron-store answers a synchronous IPC query for its paths, meant for its renderer API, which this app
  // does not use: no channel but the router's stays open to the page.
  ipcMain.removeAllListeners('electron-store-get-data');
  core = await MooringCore.open({
    home,
    openExternal: openExternalLink,
    secretStore: secretStore(),
    offerAppViews: true,
    // The installed app serves MCP itself (mcpServerMode.ts); an unpackaged run uses Node and bin/mooring.mjs.
    ...(app.isPackaged ? { selfLaunch: { command: process.execPath, args: [MCP_SERVER_FLAG] } } : {}),
  });
  api = createApiContext(core);
  const apps = core.apps;
  protocol.handle(VIEW_SCHEME, (request) => serveViewPage(apps, request.url));
  apps.setSandbox(viewSandboxHost, APP_ORIGIN);
  // `mooring serve` processes relay their approvals here, so this window's dialog answers them; `mooring
  // mcp list` reads the servers' live status here.
  relay = await core.listenForRelayedApprovals({ app: 'the desktop app' }).catch((err: Error) => {
    console.warn(`approval relay not started: ${err.message}`);
    return undefined;
  });
  stopNotifier = startAttentionNotifier({
    core,
    icon: process.platform === 'darwin' ? undefined : WINDOW_ICON,
    showWindow,
    windowFacts: () => ({
      exists: !!mainWindow,
      visible: !!mainWindow?.isVisible(),
      minimized: !!mainWindow?.isMinimized(),
      focused: !!mainWindow?.isFocused(),
    }),
  });
  createWindow();
  setTray(shellState.trayEnabled());
  for (const link of earlyLinks.splice(0)) receiveLink(link);
  // An unreadable mcp_servers.json: the window shows the error, and the file is watched (MooringCore.start).
  core
    .start({ watch: true, resumeTasks: true })
    .catch((err: Error) => console.warn(`servers not started: ${err.message}`));
  // Schedules run in one process per home (docs/schedules.md, "Schedules"): the app, unless another has them.
  void core.schedules.own('the desktop app').catch((err: Error) => {
    console.warn(`schedules will not run here: ${err.message}`);
  });
  app.on('activate', () => showWindow());
});

app.on('window-all-closed', () => {
  // With the tray icon kept, the servers (and the approval relay) run on with no window.
  if (process.platform !== 'darwin' && !mcpServerMode && !tray) app.quit();
});

let closing = false;
let relay: { close(): Promise<void> } | undefined;
app.on('before-quit', (event) => {
  if (closing || !core) return;
  // Close every session (staged shutdown of each server's process group) before the app exits.
  event.preventDefault();
  closing = true;
  stopNotifier?.();
  tray?.destroy();
  for (const d of dispatchers.values()) d.dispose();
  api?.dispose();
  // The core's close also stops the MCP server the app started and any chat turn still running.
  void Promise.resolve(relay?.close())
    .then(() => core!.close())
    .finally(() => app.quit());
});
