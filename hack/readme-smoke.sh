#!/usr/bin/env bash
# Runs the README's commands end to end on a second embedded control plane (its own ports and directory, so a
# `make run` in progress is left alone): the control-plane script, the CRDs and their printer columns, the operator
# jar with the samples, the metrics and probe endpoints, the Makefile's cluster targets and the sample-data script.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

work=$(mktemp -d)
export CONTROL_PLANE_DIR=$work/control-plane CONTROL_PLANE_KUBECONFIG=$work/kubeconfig
export APISERVER_PORT=16443 ETCD_PORT=12379 ETCD_PEER_PORT=12380
export KUBECONFIG=$CONTROL_PLANE_KUBECONFIG
k() { kubectl --kubeconfig "$KUBECONFIG" "$@"; }
step() { printf '\n== %s\n' "$*"; }
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  hack/control-plane.sh down >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
wait_for() { # seconds, description, command...
  local seconds=$1 what=$2; shift 2
  for _ in $(seq 1 "$seconds"); do "$@" >/dev/null 2>&1 && return 0; sleep 1; done
  echo "readme-smoke: timed out waiting for $what" >&2
  return 1
}

step "hack/control-plane.sh install / up / status"
hack/control-plane.sh install
hack/control-plane.sh up
hack/control-plane.sh status

step "make help"
help_text=$(make --no-print-directory help)
grep -q 'sample-data' <<< "$help_text"

step "make install; kubectl get kymas shows the printer columns"
make --no-print-directory install
k wait --for condition=established --timeout=60s -f config/crd/bases/ >/dev/null
k apply -f samples/kyma.yaml >/dev/null
columns=$(k get kymas)
head -1 <<< "$columns" | grep -Eq '^NAME +PHASE +READY +AGE'

step "the operator jar and the remote job service"
java -jar remote-job-server/target/remote-job-server.jar --port 19090 > "$work/jobs.log" 2>&1 &
pids+=($!)
(cd "$work" && exec java -jar "$OLDPWD/manager/target/kyma-operator.jar" --kubeconfig "$KUBECONFIG" \
  --transition-unit 50ms --remote-server-url http://127.0.0.1:19090 \
  --metrics-bind-address 127.0.0.1:18080 --health-probe-bind-address 127.0.0.1:18081) > "$work/operator.log" 2>&1 &
pids+=($!)
wait_for 60 "/readyz" curl -sf localhost:18081/readyz
curl -sf localhost:18081/healthz >/dev/null

step "kubectl apply -f samples/kyma.yaml: READY 18/18"
ready() { [ "$(k get kyma kyma-sample -o jsonpath='{.status.readyComponents} {.status.phase}')" = "18/18 Ready" ]; }
wait_for 60 "the sample Kyma" ready
k get kymas

step "kubectl apply -f samples/run.yaml: one Run succeeds, one fails, both with logs"
k apply -f samples/run.yaml >/dev/null
phase() { [ "$(k get run "$1" -o jsonpath='{.status.phase}')" = "$2" ]; }
wait_for 90 "run-fails" phase run-fails Failed
wait_for 90 "run-succeeds" phase run-succeeds Succeeded
k get runs
logs=$(k get run run-succeeds -o jsonpath='{.status.logs}')
grep -q 'job build succeeded' <<< "$logs"

step "curl /metrics"
scrape=$(curl -s localhost:18080/metrics)
grep -q '^workqueue_depth{name="kyma"}' <<< "$scrape"
grep -q '^controller_runtime_reconcile_total' <<< "$scrape"

step "make sample-data"
make --no-print-directory sample-data N=5 UNIT=0.05

step "make deploy / undeploy"
deployed=$(make --no-print-directory deploy IMG=registry.example/kyma-operator:0.1.0 2>&1)
grep -q 'deployment.apps/kyma-operator-controller-manager serverside-applied' <<< "$deployed"
make --no-print-directory undeploy >/dev/null 2>&1

step "hack/control-plane.sh down leaves no process behind"
for pid in "${pids[@]}"; do kill "$pid"; wait "$pid" 2>/dev/null || true; done
pids=()
hack/control-plane.sh down
if pgrep -f -- "--secure-port $APISERVER_PORT" >/dev/null || pgrep -f -- "--data-dir $CONTROL_PLANE_DIR" >/dev/null; then
  echo "readme-smoke: a control-plane process is still running" >&2
  exit 1
fi
echo
echo "readme-smoke: all README commands passed"
