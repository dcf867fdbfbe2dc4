#!/usr/bin/env bash
# Prints the kubeconfig the Makefile targets use, with the same rule as `make run`: the current context of the
# user's kubeconfig when there is one and EMBEDDED is not true, else the embedded control plane's .local/kubeconfig.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ "${EMBEDDED:-}" != "true" ] && kubectl config current-context >/dev/null 2>&1; then
  echo "${KUBECONFIG:-$HOME/.kube/config}" | cut -d: -f1
elif [ -f "$root/.local/kubeconfig" ]; then
  echo "$root/.local/kubeconfig"
else
  echo "no cluster: no current kubeconfig context and no embedded control plane (run 'make run' or 'hack/control-plane.sh up')" >&2
  exit 1
fi
