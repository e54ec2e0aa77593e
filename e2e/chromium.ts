// Debian's Chromium as every browser test and the UI bench launch it: Playwright's own browser download is
// blocked on these machines, so /usr/bin/chromium with these flags (headless, no GPU, nothing phoning home).
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
