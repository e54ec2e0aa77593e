#!/usr/bin/env bash
# Every check, in the order a failure is cheapest to find: lint, types, build, unit + integration tests
# (under a real keychain), the MCP conformance client scenarios, the end-to-end browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's header says how long the run has taken so far, so a slow step shows in any CI log.
step() { printf '\n== %s (at %dm%02ds)\n' "$*" $((SECONDS / 60)) $((SECONDS % 60)); }

# Lint and the type checks are single-threaded: two at a time, one per core, each one's output printed
# whole when it ends (in the order started), and the step fails when any of them failed.
side_by_side() {
  local dir n=0 failed=0 i
  dir=$(mktemp -d)
  for cmd in "$@"; do
    while (($(jobs -rp | wc -l) >= 2)); do wait -n || true; done
    (
      set +e
      bash -c "$cmd" >"$dir/$n.log" 2>&1
      echo $? >"$dir/$n.rc"
    ) &
    n=$((n + 1))
  done
  wait
  i=0
  for cmd in "$@"; do
    if [[ $(cat "$dir/$i.rc") == 0 ]]; then printf -- '-- %s: ok\n' "$cmd"; else
      printf -- '-- %s: FAILED\n' "$cmd"
      failed=1
    fi
    cat "$dir/$i.log"
    i=$((i + 1))
  done
  rm -rf "$dir"
  return $failed
}

step "lint, layering and typecheck (everything, then each layer in its own environment)"
side_by_side \
  "npx eslint . --max-warnings=0" \
  "npx tsc -p tsconfig.json" \
  "npx prettier --check . --log-level=warn && npx depcruise src-main shared src-renderer src-preload" \
  "npx tsc -p tsconfig.node.json" \
  "npx tsc -p tsconfig.shared.json && npx tsc -p tsconfig.renderer.json"

step build
npx electron-vite build --logLevel warn

step "electronegativity (built app vs security/electronegativity-findings.json)"
bash scripts/electronegativity.sh --no-build

step "unit and integration tests"
bash scripts/with-keyring.sh npx vitest run

step "MCP conformance (client scenarios)"
bash scripts/conformance.sh

step "end-to-end (browser mode in Chromium)"
npx playwright test --config e2e/playwright.config.ts

step "end-to-end (the desktop app in Electron; skipped, with the reason, where its runtime is missing)"
electron_present() {
  node --input-type=module -e "import { electronRuntimeStatus } from './scripts/electronRuntime.mjs';
    process.exit(electronRuntimeStatus('.').present ? 0 : 1)"
}
if [[ $(uname) == Linux && -z ${DISPLAY:-}${WAYLAND_DISPLAY:-} ]] && command -v xvfb-run >/dev/null && electron_present; then
  xvfb-run -a npx playwright test --config e2e/electron.config.ts
else
  npx playwright test --config e2e/electron.config.ts
fi

step "no test secret on disk (every mooring-* temp home and its logs)"
node scripts/scanSecrets.mjs

# Timings are reported, never judged here (noisy shared machines): the smoke run only proves the
# benchmark suite still runs end to end (it exits non-zero when a contender crashes).
step "benchmark smoke run"
npm run --silent bench -- --quick
step done
