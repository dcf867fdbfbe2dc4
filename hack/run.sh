#!/usr/bin/env bash
# `make run`: build what is missing, choose a cluster, install the CRDs and run the operator in the foreground.
# The cluster is the current kubeconfig context unless EMBEDDED=true or there is none; then the embedded
# control plane is started and the sample Kyma applied. Extra operator flags: make run ARGS="--transition-unit 100ms".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

JAR=manager/target/kyma-operator.jar
MVN=${MVN:-mvn}
KUBECTL=${KUBECTL:-kubectl}

if [ ! -f "$JAR" ] || [ -n "$(find . -path ./.local -prune -o \( -name '*.java' -o -name 'pom.xml' -o -name '*.xml' -path '*/resources/*' \) -newer "$JAR" -print -quit)" ]; then
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
  export KUBECONFIG=$PWD/.local/kubeconfig
  kubeconfig_args=(--kubeconfig "$KUBECONFIG")
  embedded=true
fi

"$KUBECTL" apply --server-side --force-conflicts -f config/crd/bases/ >/dev/null
"$KUBECTL" wait --for condition=established --timeout=60s -f config/crd/bases/ >/dev/null
echo "CRDs installed"

if [ "$embedded" = true ]; then
  "$KUBECTL" apply -f samples/kyma.yaml
  echo
  echo "Watch progress in another terminal with:"
  echo "  kubectl --kubeconfig .local/kubeconfig get kymas,helmcomponents -A -w"
  echo "Ctrl-C stops the operator; 'make stop' stops the embedded control plane."
  echo
fi

# shellcheck disable=SC2086
exec java ${JAVA_OPTS:-} -jar "$JAR" "${kubeconfig_args[@]}" ${ARGS:-}
