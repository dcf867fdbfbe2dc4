#!/usr/bin/env bash
# Runs the README's commands end to end on a second embedded control plane (its own ports and directory, so a
# `make run` in progress is left alone): the control-plane script, the CRDs and their printer columns, the operator
# jar with the samples, the metrics and probe endpoints, the sample-data script and every Makefile target the README
# shows: build-installer, help, install, sample-data, deploy, undeploy, remote-server, manifests, docker-build/push,
# chaos (dry run), run (and its refusal without CRDs), bench, bench-serialization, bench-charts and stop.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

work=$(mktemp -d)
export CONTROL_PLANE_DIR=$work/control-plane CONTROL_PLANE_KUBECONFIG=$work/kubeconfig
export APISERVER_PORT=16443 ETCD_PORT=12379 ETCD_PEER_PORT=12380
export KUBECONFIG=$CONTROL_PLANE_KUBECONFIG
k() { kubectl --kubeconfig "$KUBECONFIG" "$@"; }
step() { printf '\n== [%4ss] %s\n' "$SECONDS" "$*"; }
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -- "$pid" 2>/dev/null || true; done
  hack/control-plane.sh down >/dev/null 2>&1 || true
  rm -rf "$work"
}
# The log that tells why a step failed; set by each step that starts something.
relevant_log=
show_log() {
  [ -n "$relevant_log" ] && [ -f "$relevant_log" ] || return 0
  echo "readme-smoke: the last 60 lines of $(basename "$relevant_log"):" >&2
  tail -n 60 "$relevant_log" | sed 's/^/  | /' >&2
}
# The waits catch a hang; they time nothing. A loaded machine (make test runs this after every other test) may take
# many times longer than an idle one, so each allows minutes: a step that fails for real fails as it did, only later.
wait_for() { # seconds (at least; each try and a 1 s pause count one), description, command...
  local seconds=$1 what=$2; shift 2
  for _ in $(seq 1 "$seconds"); do "$@" >/dev/null 2>&1 && return 0; sleep 1; done
  echo "readme-smoke: timed out waiting for $what" >&2
  show_log
  return 1
}
trap 'status=$?; [ $status -ne 0 ] && echo "readme-smoke: failed (exit $status)" >&2; cleanup' EXIT

step "hack/control-plane.sh install / up / status"
hack/control-plane.sh install
hack/control-plane.sh up
hack/control-plane.sh status

step "make build-installer and --version"
DIST=$work/dist make --no-print-directory build-installer IMG=registry.example/kyma-operator:0.1.0 > /dev/null
grep -q 'image: registry.example/kyma-operator:0.1.0' "$work/dist/install.yaml"
grep -q '^kind: PrometheusRule' "$work/dist/monitoring.yaml"
java -jar manager/target/kyma-operator.jar --version | grep -Eq '^kyma-operator [0-9]+[.][0-9]+[.][0-9]+ [(]commit '

step "make help"
help_text=$(make --no-print-directory help)
grep -q 'sample-data' <<< "$help_text"
grep -q 'chaos' <<< "$help_text"

step "make chaos runs every fault scenario at full size, then renders the tables (dry run: it takes minutes)"
chaos_plan=$(make --no-print-directory -n chaos)
grep -q -- '-Dchaos.full=true' <<< "$chaos_plan"
grep -q -- "-Dit.test='\*\*/chaos/\*IT'" <<< "$chaos_plan"
grep -q 'ChaosDocTest -Dchaos.write=true' <<< "$chaos_plan"

step "make install; kubectl get kymas shows the printer columns"
make --no-print-directory install
k wait --for condition=established --timeout=300s -f config/crd/bases/ >/dev/null
k apply -f samples/kyma.yaml >/dev/null
columns=$(k get kymas)
head -1 <<< "$columns" | grep -Eq '^NAME +PHASE +READY +REASON +AGE'

step "the operator jar and the remote job service"
java -jar remote-job-server/target/remote-job-server.jar --port 19090 > "$work/jobs.log" 2>&1 &
pids+=($!)
(cd "$work" && exec java -jar "$OLDPWD/manager/target/kyma-operator.jar" --kubeconfig "$KUBECONFIG" \
  --transition-unit 50ms --remote-server-url http://127.0.0.1:19090 \
  --metrics-bind-address 127.0.0.1:18080 --health-probe-bind-address 127.0.0.1:18081) > "$work/operator.log" 2>&1 &
pids+=($!)
relevant_log=$work/operator.log
wait_for 300 "/readyz" curl -sf localhost:18081/readyz
curl -sf localhost:18081/healthz >/dev/null

step "kubectl apply -f samples/run.yaml (its Runs take 30 s: looked at after the next steps)"
k apply -f samples/run.yaml >/dev/null

step "kubectl apply -f samples/kyma.yaml: READY 18/18"
ready() { [ "$(k get kyma kyma-sample -o jsonpath='{.status.readyComponents} {.status.phase}')" = "18/18 Ready" ]; }
wait_for 300 "the sample Kyma" ready
k get kymas

step "curl /metrics"
scrape=$(curl -s localhost:18080/metrics)
grep -q '^workqueue_depth{name="kyma"}' <<< "$scrape"
grep -q '^controller_runtime_reconcile_total' <<< "$scrape"

step "make sample-data"
make --no-print-directory sample-data N=5 UNIT=0.05

step "samples/run.yaml: one Run succeeds, one fails, both with logs"
phase() { [ "$(k get run "$1" -o jsonpath='{.status.phase}')" = "$2" ]; }
wait_for 300 "run-fails" phase run-fails Failed
wait_for 300 "run-succeeds" phase run-succeeds Succeeded
k get runs
logs=$(k get run run-succeeds -o jsonpath='{.status.logs}')
grep -q 'job build succeeded' <<< "$logs"

step "make deploy / undeploy: custom resources go while the operator runs, then the operator, then the CRDs"
deployed=$(make --no-print-directory deploy IMG=registry.example/kyma-operator:0.1.0 2>&1)
grep -q 'deployment.apps/kyma-operator-controller-manager serverside-applied' <<< "$deployed"
make --no-print-directory undeploy IMG=registry.example/kyma-operator:0.1.0 > "$work/undeploy.log" 2>&1 \
  || { relevant_log=$work/undeploy.log; show_log; exit 1; }
crds_gone() { [ -z "$(k get crd -o name | grep 'inventory.kyma-project.io' || true)" ]; }
crds_gone || { echo "readme-smoke: make undeploy left CRDs behind" >&2; k get crd >&2; exit 1; }

step "make remote-server"
setsid make --no-print-directory remote-server PORT=19092 > "$work/remote-server.log" 2>&1 &
pids+=(-$!)
wait_for 300 "make remote-server" curl -sf localhost:19092/admin/stats

step "make bench-charts draws a kept run's charts from its data files and links them again"
kept=$work/kept-run
cp -r docs/bench/against-go/n300-defaults "$kept"
rm "$kept"/{ready,progress,lateness}.png
sed -i -e 's|!\[ready\](ready.png)|(chart `ready.png` not kept)|' \
  -e 's|!\[progress\](progress.png)|(chart `progress.png` not kept)|' "$kept/report.md"
make --no-print-directory bench-charts RUN="$kept" > "$work/bench-charts.log" 2>&1 \
  && grep -q 'drew \[READY, PROGRESS, LATENESS\]' "$work/bench-charts.log" \
  || { echo "readme-smoke: make bench-charts did not draw the three charts:" >&2; cat "$work/bench-charts.log" >&2; exit 1; }
for chart in ready progress lateness; do
  [ -s "$kept/$chart.png" ] || { echo "readme-smoke: make bench-charts left no $chart.png" >&2; exit 1; }
done
diff "$kept/report.md" docs/bench/against-go/n300-defaults/report.md >&2 \
  || { echo "readme-smoke: make bench-charts did not link the charts as the bench does" >&2; exit 1; }
if make --no-print-directory bench-charts > /dev/null 2>&1; then
  echo "readme-smoke: make bench-charts without RUN did not refuse" >&2; exit 1
fi

step "make manifests leaves the committed CRDs as they are"
make --no-print-directory manifests
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git diff --exit-code -- config/crd/bases
fi

step "make docker-build / docker-push"
if docker info >/dev/null 2>&1; then
  # Read make's whole plan before matching: `make -n ... | grep -q` dies of SIGPIPE (141) under pipefail once grep
  # has its line and make still writes the push.
  plan=$(make --no-print-directory -n docker-build docker-push IMG=registry.example/kyma-operator:0.1.0)
  grep -q 'docker build -t registry.example/kyma-operator:0.1.0 \.' <<< "$plan"
  grep -q 'docker push registry.example/kyma-operator:0.1.0' <<< "$plan"
else
  # No engine here (perhaps a client without one): the targets must say so, not fail obscurely.
  # (`! cmd` would not stop the script under set -e, whatever cmd returned)
  for target in docker-build docker-push; do
    if out=$(make --no-print-directory $target IMG=registry.example/kyma-operator:0.1.0 2>&1); then
      echo "readme-smoke: make $target succeeded without a Docker engine" >&2; exit 1
    fi
    grep -q 'needs a Docker engine' <<< "$out" \
      || { echo "readme-smoke: make $target did not say it needs a Docker engine: $out" >&2; exit 1; }
  done
fi

step "make run (embedded control plane) until stopped"
for pid in "${pids[@]}"; do kill -- "$pid" 2>/dev/null || true; wait "${pid#-}" 2>/dev/null || true; done
pids=()
EMBEDDED=true JOB_SERVER_PORT=19091 \
  ARGS="--transition-unit 50ms --metrics-bind-address 127.0.0.1:18082 --health-probe-bind-address 127.0.0.1:18083" \
  setsid make --no-print-directory run > "$work/run.log" 2>&1 &
run=$!
pids+=(-$run)
relevant_log=$work/run.log
wait_for 300 "make run's operator" curl -sf localhost:18083/readyz
wait_for 300 "make run's job service" curl -sf localhost:19091/admin/stats
wait_for 300 "the sample Kyma under make run" ready
# A script's background job ignores SIGINT, so SIGTERM stands in for Ctrl-C; run.sh handles both alike.
kill -TERM -- -$run
wait "$run" 2>/dev/null || true
pids=()
gone() { ! curl -sf "$1" >/dev/null 2>&1; }
wait_for 120 "make run's operator to stop" gone localhost:18083/readyz
wait_for 120 "make run's job service to stop" gone localhost:19091/admin/stats

step "make uninstall with no operator running: refuses, names what is left, removes nothing"
relevant_log=
refused=$(TIMEOUT=3 make --no-print-directory uninstall 2>&1) && { echo "readme-smoke: uninstall did not refuse" >&2; exit 1; }
grep -q 'Kyma/kyma-sample -n default' <<< "$refused"
grep -q 'no operator finalized them' <<< "$refused"
[ "$(k get crd kymas.inventory.kyma-project.io -o jsonpath='{.metadata.deletionTimestamp}')" = "" ]

step "make uninstall FORCE=true takes the finalizers off and removes the CRDs"
TIMEOUT=3 FORCE=true make --no-print-directory uninstall > "$work/uninstall.log" 2>&1 \
  || { relevant_log=$work/uninstall.log; show_log; exit 1; }
crds_gone

step "make run against a cluster without the CRDs stops, says how to install them, and installs nothing"
relevant_log=$work/run-refused.log
if JOB_SERVER_PORT=19093 make --no-print-directory run > "$relevant_log" 2>&1; then
  echo "readme-smoke: make run did not refuse a cluster without the CRDs" >&2
  exit 1
fi
grep -q "lacks the CRDs" "$relevant_log" || { show_log; exit 1; }
crds_gone

step "make bench (a small run on this cluster, through the make target)"
relevant_log=$work/bench.log
summary=$(make --no-print-directory bench N=3 UNIT=10ms AFTER_BURST=1s OUT="$work/bench" 2> "$work/bench.log" | tail -1)
echo "$summary"
grep -Eq '^n=3 unit=10ms t1_s=[0-9.]+ tn_s=[0-9.]+ .*ratio=[0-9.]+ ' <<< "$summary"
grep -qF "$summary" "$work/bench/report.md"
usage=$(java -jar bench/target/kyma-bench.jar --help)
grep -q '^Usage: java -jar bench/target/kyma-bench.jar' <<< "$usage"

step "make bench-serialization (each microbenchmark once, briefly)"
relevant_log=$work/bench-serialization.log
make --no-print-directory bench-serialization QUICK=true OUT="$work/serialization" > "$relevant_log" 2>&1 \
  || { show_log; exit 1; }
for benchmark in watchEventFabric8 watchEventOnePass statusAnswerFabric8 statusAnswerOnePass; do
  grep -q "SerializationBench.$benchmark\"" "$work/serialization/jmh.csv"
done
grep -q '^flags: .*-XX:+UseSerialGC' "$work/serialization/run.txt"

step "make stop leaves no control-plane process behind"
make --no-print-directory stop
if pgrep -f -- "--secure-port $APISERVER_PORT" >/dev/null || pgrep -f -- "--data-dir $CONTROL_PLANE_DIR" >/dev/null; then
  echo "readme-smoke: a control-plane process is still running" >&2
  exit 1
fi
echo
echo "readme-smoke: all README commands passed"
