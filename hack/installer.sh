#!/usr/bin/env bash
# `make build-installer IMG=...`: config/default rendered once, with the image set, into dist/:
#   install.yaml     the CRDs, the namespace, RBAC, the metrics Service and the Deployment: Kubernetes 1.20 and later
#   pdb.yaml         the PodDisruptionBudget (policy/v1: Kubernetes 1.21 and later)
#   monitoring.yaml  the ServiceMonitor and the PrometheusRule, for a cluster with the Prometheus Operator
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
img=${1:?usage: hack/installer.sh IMAGE}
out=${DIST:-dist}
mkdir -p "$out"
kubectl kustomize config/default | sed "s|image: controller:latest|image: ${img}|" | awk -v out="$out" '
  BEGIN { RS = "\n---\n" }
  {
    doc = $0
    sub(/\n+$/, "", doc)
    file = "install.yaml"
    if (doc ~ /(^|\n)kind: (ServiceMonitor|PrometheusRule)\n/) file = "monitoring.yaml"
    else if (doc ~ /(^|\n)kind: PodDisruptionBudget\n/) file = "pdb.yaml"
    path = out "/" file
    if (seen[path]++) printf "---\n" > path
    print doc > path
  }'
for f in install.yaml pdb.yaml monitoring.yaml; do
  echo "wrote $out/$f ($(grep -c '^kind: ' "$out/$f") objects)"
done
