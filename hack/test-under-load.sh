#!/usr/bin/env bash
# `make test` on fresh clones of HEAD, one after the other, each while another process keeps one core busy for the
# whole run: the suite must pass on a machine that is not its own. Appends one row per run to
# docs/test-times/loaded.csv (commit, start, wall time, exit code, forks, cores) and keeps each run's per-class times
# (hack/test-times.sh) as docs/test-times/loaded-<start>.csv. Needs the control plane installed (make control-plane).
#
#   hack/test-under-load.sh [RUNS]     RUNS: how many runs in a row (default 3); stops at the first red one
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
RUNS=${1:-3}
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "RUNS must be a positive number, got '$RUNS'" >&2; exit 2; }
OUT=$ROOT/docs/test-times
CSV=$OUT/loaded.csv
COMMIT=$(git rev-parse --short HEAD)
[ -z "$(git status --porcelain --untracked-files=no)" ] || echo "note: uncommitted changes are not in the clone" >&2
[ -f "$CSV" ] || echo "commit,started_utc,wall_s,exit,it_forks,cores,load" > "$CSV"

busy=
cleanup() { [ -z "$busy" ] || kill "$busy" 2>/dev/null || true; }
trap cleanup EXIT

for run in $(seq 1 "$RUNS"); do
  clone=$(mktemp -d "${TMPDIR:-/tmp}/kyma-operator-loaded.XXXXXX")
  git clone -q "$ROOT" "$clone"
  started=$(date -u +%Y%m%dT%H%M%SZ)
  # one core kept busy for the whole run; ended by the trap or after two hours whatever happens
  timeout 2h sh -c 'while :; do :; done' &
  busy=$!
  begin=$(date +%s)
  set +e
  (cd "$clone" && make test) > "$clone.log" 2>&1
  rc=$?
  set -e
  wall=$(( $(date +%s) - begin ))
  cleanup
  busy=
  forks=$(sed -n 's:.*<it.forks>\(.*\)</it.forks>.*:\1:p' "$clone/manager/pom.xml" | head -1)
  echo "$COMMIT,$started,$wall,$rc,$forks,$(nproc),one core busy (sh loop)" >> "$CSV"
  (cd "$clone" && hack/test-times.sh) > "$OUT/loaded-$started.csv"
  echo "run $run of $RUNS at $COMMIT: exit $rc after $wall s (log: $clone.log)"
  if [ "$rc" -ne 0 ]; then
    grep -E "Tests run:.*(Fail|Err)|FAIL|ERROR\]" "$clone.log" | grep -v "Failures: 0, Errors: 0" | head -20 || true
    exit "$rc"
  fi
  rm -rf "$clone"
done
