#!/usr/bin/env bash
# Installs everything Mooring needs on a fresh Debian/Ubuntu machine: system packages (apt, as root),
# then the npm dependencies from the lockfile. Safe to run again: it skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

# libsecret: keytar builds against it; gnome-keyring + dbus: a headless keychain for the tests;
# chromium: browser mode's end-to-end tests; xvfb/xauth: headed runs.
packages=(libsecret-1-dev gnome-keyring dbus chromium xvfb xauth)
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

# The Electron binary is downloaded from outside the npm registry; where that is blocked the install
# would fail. Skip it here; `npm start` fetches it on demand or falls back to browser mode.
export ELECTRON_SKIP_BINARY_DOWNLOAD="${ELECTRON_SKIP_BINARY_DOWNLOAD:-1}"
if [[ ! -d node_modules || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "bootstrap: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
echo "bootstrap: ready"
