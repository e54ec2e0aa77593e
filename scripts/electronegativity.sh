#!/usr/bin/env bash
# Electronegativity (Doyensec's Electron security lint) over the built app, against the checked-in list of
# explained findings. Builds first unless --no-build (scripts/test.sh builds once, then calls this).
# Offline: the tool's release-list check needs GitHub and is excluded in the list; its translation fetch
# fails fast and falls back to English.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} != --no-build ]]; then
  npx electron-vite build --logLevel warn
else
  shift
fi
exec node scripts/electronegativity.mjs "$@"
