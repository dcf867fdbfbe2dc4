#!/usr/bin/env bash
# Renders config/default for `make deploy`/`undeploy`: the image set to $1, and the ServiceMonitor left out (with a
# note) when the cluster has no Prometheus Operator to take it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
img=${1:?usage: hack/render.sh IMAGE}
kubectl=(kubectl --kubeconfig "$(hack/kubeconfig.sh)")
rendered=$(kubectl kustomize config/default | sed "s|image: controller:latest|image: ${img}|")
if "${kubectl[@]}" api-resources --api-group=monitoring.coreos.com -o name 2>/dev/null | grep -q '^servicemonitors'; then
  printf '%s\n' "$rendered"
else
  echo "note: no ServiceMonitor API in this cluster (Prometheus Operator not installed); leaving the ServiceMonitor out" >&2
  printf '%s\n' "$rendered" | awk 'BEGIN { RS = "\n---\n"; ORS = "\n---\n" } !/\nkind: ServiceMonitor\n/ && !/^kind: ServiceMonitor\n/'
fi
