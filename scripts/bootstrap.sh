#!/usr/bin/env bash
# Installs everything Mooring needs on a fresh Debian/Ubuntu machine: system packages (apt, as root),
# then the npm dependencies from the lockfile. Safe to run again: it skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

# libsecret: keytar builds against it; gnome-keyring + dbus: a headless keychain for the tests;
# chromium: browser mode's end-to-end tests; xvfb/xauth: headed runs; bubblewrap, socat, strace, ripgrep:
# confined servers (docs/confinement.md: the sandbox, its way out to the proxy, what it refused).
packages=(libsecret-1-dev gnome-keyring dbus chromium xvfb xauth bubblewrap socat strace ripgrep)
missing=()
if command -v dpkg >/dev/null 2>&1; then
  for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
fi
if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]]; then
    echo "bootstrap: installing system packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "bootstrap: missing system packages: ${missing[*]}" >&2
    echo "bootstrap: run: sudo apt-get install -y ${missing[*]}   (then run this script again)" >&2
    exit 1
  fi
fi

# npm ci never downloads the Electron runtime (it comes from outside the npm registry, and a blocked or
# slow download would fail or stall the whole install). The next step tries Electron's own install once,
# bounded (MOORING_ELECTRON_DOWNLOAD_TIMEOUT seconds, default 90; a refused connection fails in well under
# a second), and says which mode `npm start` will use and why. A failed download is not an error.
if [[ ! -d node_modules || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "bootstrap: npm ci"
  ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
fi
node scripts/electronRuntime.mjs bootstrap
echo "bootstrap: ready"
