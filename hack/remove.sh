#!/usr/bin/env bash
# `make uninstall` and `make undeploy`, in the only order that leaves nothing stuck:
#   1. delete every Kyma, HelmComponent and Run while an operator still runs to finalize them;
#   2. (undeploy) delete the operator and everything else `make deploy` installed;
#   3. delete the CRDs and wait until they are gone.
# Deleting a CRD first would leave each Kyma and Run with a finalizer that nothing removes any more: the CRD stays
# Terminating and disappears later, under whatever installs it next.
#
# Usage: hack/remove.sh uninstall | undeploy IMAGE
# TIMEOUT (seconds, default 120): how long step 1 waits. Custom resources still there after it mean that no operator
# finalizes them: the script stops with a list and leaves the CRDs and the operator alone, unless FORCE=true, which
# takes the finalizers off (remote jobs of running Runs are then not cancelled).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mode=${1:?usage: hack/remove.sh uninstall | undeploy IMAGE}
timeout=${TIMEOUT:-120}
force=${FORCE:-false}
kubectl=(kubectl --kubeconfig "$(hack/kubeconfig.sh)")
crds=(kymas.inventory.kyma-project.io helmcomponents.inventory.kyma-project.io runs.inventory.kyma-project.io)
say() { echo "$mode: $*" >&2; }

installed_crds() {
  local crd
  for crd in "${crds[@]}"; do
    "${kubectl[@]}" get crd "$crd" -o name 2>/dev/null || true
  done
}

# The custom resources of the CRDs that are installed, one "Kind/name -n namespace" a line.
remaining() {
  local kinds
  kinds=$(installed_crds | sed 's|^.*/||' | paste -sd, -)
  [ -z "$kinds" ] && return 0
  "${kubectl[@]}" get "$kinds" --all-namespaces --ignore-not-found \
    -o jsonpath='{range .items[*]}{.kind}/{.metadata.name} -n {.metadata.namespace}{"\n"}{end}'
}

delete_custom_resources() {
  say "deleting every Kyma, HelmComponent and Run; the operator finalizes them"
  local kinds
  kinds=$(installed_crds | sed 's|^.*/||' | paste -sd, -)
  "${kubectl[@]}" delete "$kinds" --all --all-namespaces --ignore-not-found --wait=false >/dev/null
  local deadline=$(( $(date +%s) + timeout )) left
  while left=$(remaining) && [ -n "$left" ]; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      if [ "$force" = true ]; then
        say "still there after ${timeout}s; FORCE=true: taking their finalizers off"
        while read -r object _ namespace; do
          "${kubectl[@]}" patch "${object,,}" -n "$namespace" --type=merge \
            -p '{"metadata":{"finalizers":null}}' >/dev/null 2>&1 || true
        done <<< "$left"
        deadline=$(( $(date +%s) + 30 )); force=done
        continue
      fi
      say "these custom resources are still there ${timeout}s after their deletion:"
      sed 's/^/  /' <<< "$left" >&2
      say "no operator finalized them. Start one (make run, or make deploy) and try again, or run with FORCE=true to"
      say "take their finalizers off (the remote jobs of running Runs are then not cancelled). Nothing else was removed."
      exit 1
    fi
    sleep 1
  done
}

delete_crds() {
  say "deleting the CRDs"
  local present
  present=$(installed_crds)
  [ -z "$present" ] && return 0
  # shellcheck disable=SC2086
  "${kubectl[@]}" delete $present --ignore-not-found --wait=false >/dev/null
  # shellcheck disable=SC2086
  if ! "${kubectl[@]}" wait --for=delete $present --timeout=60s >/dev/null 2>&1 && [ -n "$(installed_crds)" ]; then
    say "the CRDs are still terminating after 60s:"
    installed_crds | sed 's/^/  /' >&2
    exit 1
  fi
}

if [ -n "$(installed_crds)" ]; then
  delete_custom_resources
fi
case "$mode" in
  uninstall) ;;
  undeploy)
    img=${2:?usage: hack/remove.sh undeploy IMAGE}
    say "deleting the operator"
    # Everything deploy applied but the CRDs, which go last.
    hack/render.sh "$img" | awk 'BEGIN { RS = "\n---\n"; ORS = "\n---\n" } !/\nkind: CustomResourceDefinition\n/ && !/^kind: CustomResourceDefinition\n/' \
      | "${kubectl[@]}" delete --ignore-not-found --wait=false -f - >/dev/null
    ;;
  *) echo "usage: hack/remove.sh uninstall | undeploy IMAGE" >&2; exit 2 ;;
esac
delete_crds
say "done"
