// mooring:// links reach the app three ways: as a launch argument (Windows, Linux: the installers register
// the scheme and start `Mooring mooring://…`), in a second launch's arguments (handed to the first instance
// by the single-instance lock), and on macOS through the `open-url` event. Each goes to the core's install
// inbox (core/install), which parses it and waits for the user's consent.
export const LINK_SCHEME = 'mooring';

/** The mooring: links among process arguments (Chromium switches and the app path are skipped). */
export function installLinksFromArgv(argv: readonly string[]): string[] {
  return argv.filter((a) => a.toLowerCase().startsWith(`${LINK_SCHEME}:`));
}
