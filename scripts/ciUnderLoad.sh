#!/usr/bin/env bash
# The README's test command on a clean clone of this checkout's HEAD, N times in a row, with a CPU hog
# busy on one core beside it (`node -e 'for(;;){}'`): the suite must pass every time on a loaded machine.
# Usage: bash scripts/ciUnderLoad.sh [N=3]   Logs: /tmp/ci-load-K-COMMIT.log; one summary line per run;
# a failed run's Playwright results are kept in /tmp/ci-load-K-results.
set -uo pipefail
runs=${1:-3}
src=$(cd "$(dirname "$0")/.." && pwd)
# Every run tests the commit checked out when the script started, whatever is committed meanwhile.
commit=$(git -C "$src" rev-parse --short HEAD)
node -e 'for(;;){}' &
hog=$!
trap 'kill $hog 2>/dev/null' EXIT
command -v taskset >/dev/null && taskset -pc 0 $hog >/dev/null
failed=0
for k in $(seq 1 "$runs"); do
  dir=$(mktemp -d /tmp/ci-load-XXXXXX)
  git clone -q "$src" "$dir/clone" && git -C "$dir/clone" checkout -q "$commit"
  start=$SECONDS
  (cd "$dir/clone" && bash .ci/run) >"/tmp/ci-load-$k-$commit.log" 2>&1
  rc=$?
  echo "run $k of $runs, commit $commit, hog pid $hog: exit $rc in $((SECONDS - start)) s"
  if ((rc != 0)); then
    failed=1
    # A failed run keeps its Playwright traces and screenshots for a look afterwards.
    [[ -d "$dir/clone/test-results" ]] && rm -rf "/tmp/ci-load-$k-results" &&
      cp -r "$dir/clone/test-results" "/tmp/ci-load-$k-results" &&
      echo "run $k: its test-results are in /tmp/ci-load-$k-results"
  fi
  rm -rf "$dir"
done
exit $failed
