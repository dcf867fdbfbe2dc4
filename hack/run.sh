#!/usr/bin/env bash
# `make run`: build what is missing, choose a cluster, install the CRDs and run the operator in the foreground.
# The cluster is the current kubeconfig context unless EMBEDDED=true or there is none; then the embedded
# control plane is started, the CRDs installed and the sample Kyma applied. Another cluster's CRDs are left alone
# unless INSTALL_CRDS=true: 'make install' installs or updates them. Extra operator flags: make run ARGS="--transition-unit 100ms".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

JAR=manager/target/kyma-operator.jar
JOB_SERVER_JAR=remote-job-server/target/remote-job-server.jar
JOB_SERVER_PORT=${JOB_SERVER_PORT:-9090}
# The embedded control plane's files, as hack/control-plane.sh places them.
LOCAL_KUBECONFIG=${CONTROL_PLANE_KUBECONFIG:-$PWD/.local/kubeconfig}
LOCAL_DIR=$(dirname "$LOCAL_KUBECONFIG")
MVN=${MVN:-mvn}
KUBECTL=${KUBECTL:-kubectl}

if [ ! -f "$JAR" ] || [ ! -f "$JOB_SERVER_JAR" ] || [ -n "$(find . -path ./.local -prune -o -path '*/target' -prune -o \( -name '*.java' -o -name 'pom.xml' -o -name '*.xml' -path '*/resources/*' \) -newer "$JAR" -print -quit)" ]; then
  echo "Building $JAR"
  "$MVN" -B -ntp -q install -DskipTests
fi

embedded=false
if [ "${EMBEDDED:-}" != "true" ] && command -v "$KUBECTL" >/dev/null && "$KUBECTL" config current-context >/dev/null 2>&1; then
  echo "Using the cluster of kubeconfig context '$("$KUBECTL" config current-context)' (EMBEDDED=true uses the embedded control plane)"
  kubeconfig_args=()
else
  hack/control-plane.sh install
  hack/control-plane.sh up
  export KUBECONFIG=$LOCAL_KUBECONFIG
  kubeconfig_args=(--kubeconfig "$KUBECONFIG")
  embedded=true
fi

if [ "$embedded" = true ] || [ "${INSTALL_CRDS:-}" = "true" ]; then
  "$KUBECTL" apply --server-side --force-conflicts -f config/crd/bases/ >/dev/null
  "$KUBECTL" wait --for condition=established --timeout=60s -f config/crd/bases/ >/dev/null
  echo "CRDs installed"
else
  # Someone else's cluster: its CRDs are changed only when asked (make install, or INSTALL_CRDS=true).
  missing=()
  for crd in kymas helmcomponents runs; do
    if ! answer=$("$KUBECTL" get crd "$crd.inventory.kyma-project.io" -o name 2>&1); then
      if [[ "$answer" != *NotFound* ]]; then
        echo "Cannot read the CRDs of context '$("$KUBECTL" config current-context)': $answer" >&2
        exit 1
      fi
      missing+=("$crd.inventory.kyma-project.io")
    fi
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "The cluster of context '$("$KUBECTL" config current-context)' lacks the CRDs ${missing[*]}." >&2
    echo "Install them with 'make install', or run 'make run INSTALL_CRDS=true'; 'make run EMBEDDED=true' uses the embedded control plane." >&2
    exit 1
  fi
  echo "Using the CRDs installed in the cluster ('make install' updates them)"
fi

server_args=()
if [ "$embedded" = true ]; then
  # The remote job service for Runs, stopped together with the operator.
  java -jar "$JOB_SERVER_JAR" --port "$JOB_SERVER_PORT" > "$LOCAL_DIR/remote-job-server.log" 2>&1 &
  job_server=$!
  trap 'kill "$job_server" 2>/dev/null' EXIT
  server_args=(--remote-server-url "http://127.0.0.1:$JOB_SERVER_PORT")
  echo "Remote job service on http://127.0.0.1:$JOB_SERVER_PORT (log: $LOCAL_DIR/remote-job-server.log)"

  "$KUBECTL" apply -f samples/kyma.yaml
  echo
  echo "Watch progress in another terminal with:"
  echo "  kubectl --kubeconfig $KUBECONFIG get kymas,helmcomponents -A -w"
  echo "Try the Runs too:"
  echo "  kubectl --kubeconfig $KUBECONFIG apply -f samples/run.yaml"
  echo "  kubectl --kubeconfig $KUBECONFIG get runs -w"
  echo "Ctrl-C stops the operator; 'make stop' stops the embedded control plane."
  echo
fi

# shellcheck disable=SC2086
java ${JAVA_OPTS:-} -jar "$JAR" "${kubeconfig_args[@]}" "${server_args[@]}" ${ARGS:-} &
operator=$!
# The operator runs in the background so that the EXIT trap, which stops the job service, also runs on SIGTERM.
trap 'kill "$operator" 2>/dev/null; wait "$operator"' INT TERM
wait "$operator"
