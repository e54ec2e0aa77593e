// The Electron main process (issue 4 "The Electron shell", issue 5 "The bridge"): thin. It opens the
// core, serves the renderer from app://mooring with a strict CSP, locks the window down, and answers
// router messages from our own top frame only. Everything testable lives in the core.
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, ipcMain, protocol, session, shell, type WebContents } from 'electron';
import { createIpcDispatcher, type IpcDispatcher } from '../core/api/ipcDispatcher';
import { IPC_CHANNEL } from '../../shared/ipc';
import { appRouter, createApiContext } from '../core/api/router';
import { resolveHome } from '../core/home';
import { MooringCore } from '../core/mooringCore';
import { MCP_SERVER_FLAG, runMcpServer } from './mcpServerMode';
import { isSafeExternalUrl } from '../core/safety/ssrfGuard';
import { SECURITY_HEADERS } from '../core/web/contentSecurity';
import { APP_HOST, APP_ORIGIN, APP_SCHEME, isAllowedExternalLink, isTrustedSender } from './senderCheck';

const here = fileURLToPath(new URL('.', import.meta.url));
const RENDERER_DIR = join(here, '../renderer');
const PRELOAD = join(here, '../preload/index.cjs');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

// One home for the app and the CLI (ARCHITECTURE.md "Data on disk").
const home = resolveHome();
app.setPath('userData', home);

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

const windows = new Set<number>();
const dispatchers = new Map<number, IpcDispatcher>();
let core: MooringCore | undefined;
let api: ReturnType<typeof createApiContext> | undefined;

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
      headers: { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', ...SECURITY_HEADERS },
    });
  } catch {
    return new Response('Not found', { status: 404 });
  }
}

/** The one way out to the system browser: https links that pass isSafeExternalUrl, checked here whoever
 * asks (the window, or the core after the user's consent), since a server-supplied URL once gave RCE
 * (CVE-2025-6514; issue 4: only https/http URLs ever reach the system browser). */
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

function createWindow(): void {
  const win = new BrowserWindow({
    width: 1200,
    height: 800,
    title: 'Mooring',
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
  windows.add(win.webContents.id);
  const id = win.webContents.id;
  win.on('closed', () => windows.delete(id));
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${APP_ORIGIN}/index.html`);
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

app.whenReady().then(async () => {
  if (process.argv.includes(MCP_SERVER_FLAG)) return runMcpServer(home);
  // Deny every permission (camera, notifications, geolocation, …) unless a feature asks for one.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  protocol.handle(APP_SCHEME, serveRenderer);
  core = await MooringCore.open({ home, openExternal: openExternalLink });
  api = createApiContext(core);
  // `mooring serve` processes relay their approvals here, so this window's dialog answers them.
  relay = await core.listenForRelayedApprovals().catch((err: Error) => {
    console.warn(`approval relay not started: ${err.message}`);
    return undefined;
  });
  createWindow();
  void core.start({ watch: true });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin' && !process.argv.includes(MCP_SERVER_FLAG)) app.quit();
});

let closing = false;
let relay: { close(): Promise<void> } | undefined;
app.on('before-quit', (event) => {
  if (closing || !core) return;
  // Close every session (staged shutdown of each server's process group) before the app exits.
  event.preventDefault();
  closing = true;
  for (const d of dispatchers.values()) d.dispose();
  api?.dispose();
  // The core's close also stops the MCP server the app started and any chat turn still running.
  void Promise.resolve(relay?.close())
    .then(() => core!.close())
    .finally(() => app.quit());
});
