#!/usr/bin/env bash
# Renders config/default for `make deploy`/`undeploy`: the image set to $1, and the ServiceMonitor and the
# PrometheusRule left out (with a note) when the cluster has no Prometheus Operator to take them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
img=${1:?usage: hack/render.sh IMAGE}
kubectl=(kubectl --kubeconfig "$(hack/kubeconfig.sh)")
rendered=$(kubectl kustomize config/default | sed "s|image: controller:latest|image: ${img}|")
without() { # kind: drop every document of that kind
  awk -v kind="kind: $1" 'BEGIN { RS = "\n---\n"; ORS = "\n---\n" } index($0, "\n" kind "\n") == 0 && index($0, kind "\n") != 1'
}
# Each answer is read whole before matching (a `| grep -q` under pipefail can fail with SIGPIPE once grep has matched).
resources=$("${kubectl[@]}" api-resources --api-group=monitoring.coreos.com -o name 2>/dev/null || true)
versions=$("${kubectl[@]}" api-versions 2>/dev/null || true)
if ! grep -q '^servicemonitors' <<< "$resources"; then
  echo "note: no ServiceMonitor API in this cluster (Prometheus Operator not installed); leaving the ServiceMonitor out" >&2
  rendered=$(printf '%s\n' "$rendered" | without ServiceMonitor)
fi
if ! grep -q '^prometheusrules' <<< "$resources"; then
  echo "note: no PrometheusRule API in this cluster (Prometheus Operator not installed); leaving the alert rules out" >&2
  rendered=$(printf '%s\n' "$rendered" | without PrometheusRule)
fi
if ! grep -qx 'policy/v1' <<< "$versions"; then
  echo "note: this cluster does not serve policy/v1 (Kubernetes before 1.21); leaving the PodDisruptionBudget out" >&2
  rendered=$(printf '%s\n' "$rendered" | without PodDisruptionBudget)
fi
printf '%s\n' "$rendered"
