// Who may talk to the router (docs/desktop-shell.md, "The desktop shell": every IPC message's sender is checked):
// only the top frame of one of our windows, showing our own origin. An iframe, a navigated-away page, or a
// devtools extension frame is refused. Pure, so it is tested without Electron.
export const APP_SCHEME = 'app';
export const APP_HOST = 'mooring';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

export interface SenderFacts {
  /** The frame that sent the message (null when it is gone). */
  frameUrl: string | null;
  /** Whether the sending frame is its window's top frame. */
  isTopFrame: boolean;
  /** Whether the sending webContents is one of our windows. */
  isOurWindow: boolean;
}

export function isTrustedSender(f: SenderFacts): boolean {
  if (!f.isOurWindow || !f.isTopFrame || !f.frameUrl) return false;
  try {
    const u = new URL(f.frameUrl);
    return `${u.protocol}//${u.host}` === APP_ORIGIN;
  } catch {
    return false;
  }
}

/** Links the app may hand to the system browser: https only, and only after isSafeExternalUrl. */
export function isAllowedExternalLink(url: string, isSafeExternalUrl: (u: string) => boolean): boolean {
  return isSafeExternalUrl(url) && url.startsWith('https://');
}
