#!/usr/bin/env bash
# Runs the MCP conformance suite's server scenarios against `mooring serve --http` and prints
# which pass and which fail. Not part of CI: several scenarios need tools, prompts or features that only
# the suite's own reference server has (see the README's Compatibility section).
#
# The suite cannot send an Authorization header, and Mooring's HTTP server always requires one, so a
# tiny loopback proxy in front adds the bearer token; it forwards Host and Origin untouched, so the
# dns-rebinding-protection scenario still tests Mooring's own checks.
#
# Usage: scripts/conformance-server.sh [scenario ...]   (default: the relevant scenarios below)
set -uo pipefail
cd "$(dirname "$0")/.."

SCENARIOS=("$@")
if [ ${#SCENARIOS[@]} -eq 0 ]; then
  SCENARIOS=(server-initialize ping tools-list tools-call-simple-text tools-call-error tools-call-with-progress
    resources-list resources-read-text resources-templates-read logging-set-level completion-complete
    prompts-list server-sse-multiple-streams dns-rebinding-protection)
fi

HOME_DIR=$(mktemp -d)
OUT=$(mktemp)
cleanup() { [ -n "${PROXY_PID:-}" ] && kill "$PROXY_PID" 2>/dev/null; [ -n "${SERVE_PID:-}" ] && kill "$SERVE_PID" 2>/dev/null; rm -rf "$HOME_DIR" "$OUT"; }
trap cleanup EXIT

# One memory entry so the resource scenarios have something to list and read.
printf '%s\n' '{"kind":"add","entry":{"id":"conformance-note","title":"Conformance note","text":"hello from Mooring memory","tags":[],"createdAt":0,"source":"user"}}' >"$HOME_DIR/memory.jsonl"

MOORING=(node bin/mooring.mjs)
MOORING_HOME="$HOME_DIR" MOORING_NO_SHELL_PATH=1 "${MOORING[@]}" serve --http 0 --json --label conformance >"$OUT" 2>/dev/null &
SERVE_PID=$!
for _ in $(seq 1 200); do grep -q url "$OUT" && break; sleep 0.1; done
URL=$(node -e 'const j=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8").split("\n")[0]);console.log(j.url)' "$OUT")
TOKEN=$(node -e 'const j=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8").split("\n")[0]);console.log(j.token)' "$OUT")
TARGET_PORT=$(node -e 'console.log(new URL(process.argv[1]).port)' "$URL")

PROXY_OUT=$(mktemp)
TOKEN="$TOKEN" TARGET_PORT="$TARGET_PORT" node -e '
const http = require("node:http");
const s = http.createServer((req, res) => {
  const up = http.request({ host: "127.0.0.1", port: process.env.TARGET_PORT, path: req.url, method: req.method,
    headers: { ...req.headers, authorization: `Bearer ${process.env.TOKEN}` } }, (r) => {
    res.writeHead(r.statusCode, r.headers); r.pipe(res);
  });
  up.on("error", () => { res.writeHead(502); res.end(); });
  req.pipe(up);
  res.on("close", () => up.destroy());
});
s.listen(0, "127.0.0.1", () => console.log(s.address().port));
' >"$PROXY_OUT" &
PROXY_PID=$!
for _ in $(seq 1 50); do [ -s "$PROXY_OUT" ] && break; sleep 0.1; done
PROXY_URL="http://localhost:$(cat "$PROXY_OUT")/mcp"
rm -f "$PROXY_OUT"
echo "mooring serve at $URL (through the token proxy at $PROXY_URL)"

PASSED=()
FAILED=()
for s in "${SCENARIOS[@]}"; do
  echo "=== $s"
  if npx --no-install conformance server --url "$PROXY_URL" --scenario "$s" 2>&1 | grep -v 'npm warn'; then
    PASSED+=("$s")
  else
    FAILED+=("$s")
  fi
done
echo
echo "passed (${#PASSED[@]}): ${PASSED[*]:-}"
echo "failed (${#FAILED[@]}): ${FAILED[*]:-}"
[ ${#FAILED[@]} -eq 0 ]
