#!/usr/bin/env bash
# Debian's Prometheus for the alert-rule tests, the Prometheus integration test and `make monitoring`.
#   install       install the prometheus package (prometheus and promtool) when promtool is missing
#   test-rules    promtool test rules config/prometheus/alerts-test.yaml
set -euo pipefail

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
log() { printf '[prometheus] %s\n' "$*"; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

install() {
  if command -v promtool >/dev/null 2>&1 && command -v prometheus >/dev/null 2>&1; then
    return 0
  fi
  log "installing Debian's prometheus package"
  # The package's maintainer scripts would start a Prometheus service on :9090; nothing here needs one, so service
  # starts are refused for the install (policy-rc.d) unless a policy is already in place.
  local policy=/usr/sbin/policy-rc.d created=false
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | as_root tee "$policy" >/dev/null
    as_root chmod +x "$policy"
    created=true
  fi
  as_root apt-get update -qq || true
  local rc=0
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null || rc=$?
  if [ "$created" = true ]; then as_root rm -f "$policy"; fi
  [ "$rc" -eq 0 ] || { log "FAILED: apt-get install prometheus (exit $rc)"; exit "$rc"; }
  log "installed: $(prometheus --version 2>&1 | head -1)"
}

test_rules() {
  install
  promtool check rules "$REPO_ROOT/config/prometheus/alerts.yaml"
  promtool test rules "$REPO_ROOT/config/prometheus/alerts-test.yaml"
}

case "${1:-}" in
  install) install ;;
  test-rules) test_rules ;;
  *) echo "usage: $0 install|test-rules" >&2; exit 2 ;;
esac
