// What Mooring tells a person when no OS keychain answers, in one place for the app and the terminal: the
// keychain's own words (a D-Bus message such as "Cannot autolaunch D-Bus without X11 $DISPLAY") say why to
// someone who knows D-Bus, and nothing about what to do. So every screen and command leads with these
// sentences and shows the keychain's words only as details.

/** The first line wherever no keychain answered. */
export const NO_KEYCHAIN_TITLE =
  'No keychain is reachable on this machine, so Mooring cannot keep secrets in it.';

/** What works without one: a reference to the environment (the file keeps the variable's name only). */
export const USE_ENV_REFERENCE =
  'Write ${env:NAME} where the secret goes (only the name is saved) and export NAME before starting Mooring.';

/** How to get a keychain that answers. */
export const SET_UP_KEYCHAIN =
  'Or install and unlock a keyring (on Linux, a Secret Service such as gnome-keyring or KWallet on the ' +
  'session D-Bus), then start Mooring again.';

/** Provider API keys only: the file the person may choose instead, named as plain text. */
export const keyFileChoice = (file: string) =>
  `Or keep a provider's key in ${file}, a plain-text file readable only by you (only if you pick it).`;
