#!/usr/bin/env bash
# Runs the MCP conformance suite's client scenarios against Mooring's engine (conformance:client).
# Every scenario must pass; the suite's own exit status and its summary decide.
set -euo pipefail
cd "$(dirname "$0")/.."
# auth/*: OAuth 2.1 through Mooring's provider on the session engine (src-main/core/auth).
auth_scenarios=(auth/metadata-default auth/metadata-var1 auth/metadata-var2 auth/metadata-var3 auth/basic-cimd
  auth/scope-from-www-authenticate auth/scope-from-scopes-supported auth/scope-omitted-when-undefined
  auth/scope-step-up auth/scope-retry-limit auth/token-endpoint-auth-basic auth/token-endpoint-auth-post
  auth/token-endpoint-auth-none auth/resource-mismatch auth/pre-registration
  auth/2025-03-26-oauth-metadata-backcompat auth/2025-03-26-oauth-endpoint-fallback
  auth/client-credentials-jwt auth/client-credentials-basic)
scenarios=(initialize tools_call sse-retry "${auth_scenarios[@]}" elicitation-sep1034-client-defaults ${EXTRA_CONFORMANCE_SCENARIOS:-})
failed=()
for s in "${scenarios[@]}"; do
  out=$(npx --no-install conformance client --command "npm run --silent conformance:client --" --scenario "$s" 2>&1) || failed+=("$s")
  summary=$(printf '%s\n' "$out" | grep -E 'Passed:|Failed:|Warnings:' | tr '\n' ' ')
  printf 'conformance %-45s %s\n' "$s" "$summary"
  if printf '%s\n' "$out" | grep -qE '(^|[^0-9])[1-9][0-9]* failed'; then [[ " ${failed[*]} " == *" $s "* ]] || failed+=("$s"); printf '%s\n' "$out" | grep -E 'FAIL|✗|error' | head -20; fi
done
if ((${#failed[@]})); then echo "conformance: failed: ${failed[*]}" >&2; exit 1; fi
echo "conformance: all ${#scenarios[@]} client scenarios passed"
