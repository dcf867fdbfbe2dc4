#!/usr/bin/env bash
# The embedded control plane: a real kube-apiserver v1.20.2 built from Debian's `kubernetes` source package,
# and Debian's etcd. `install` lays the binaries out where fabric8 kube-api-test looks for them in offline mode;
# `up`/`down`/`status` run them in the background for `make run`.
set -euo pipefail

K8S_VERSION=1.20.2
REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN_DIR=${KUBEAPITEST_DIR:-$HOME/.kubeapitest}/k8s/${K8S_VERSION}-linux-amd64
BUILD_DIR=${XDG_CACHE_HOME:-$HOME/.cache}/kyma-operator/kubernetes-build
CACHER=staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go
STATE_DIR=${CONTROL_PLANE_DIR:-$REPO_ROOT/.local/control-plane}
KUBECONFIG_OUT=${CONTROL_PLANE_KUBECONFIG:-$REPO_ROOT/.local/kubeconfig}
APISERVER_PORT=${APISERVER_PORT:-6443}
ETCD_PORT=${ETCD_PORT:-2379}
ETCD_PEER_PORT=${ETCD_PEER_PORT:-2380}
# klog verbosity of kube-apiserver; at 1 it logs each watcher it closes for being too slow (the benchmark counts them)
APISERVER_VERBOSITY=${APISERVER_VERBOSITY:-0}
# Events v1.20 buffers for each watcher of a resource without a watch-cache index, custom resources among them: 10.
# Set to 11-1000 to run a build that buffers that many instead. Later releases size that buffer at about one second of
# the resource's recent events, from 10 up to 100 (kubernetes/kubernetes#109708), because a watcher that resumes under
# a steady stream of events is closed again while it is sent what it missed. Empty: the release as it is.
APISERVER_WATCH_BUFFER=${APISERVER_WATCH_BUFFER:-}
if [ -n "$APISERVER_WATCH_BUFFER" ]; then
  [[ $APISERVER_WATCH_BUFFER =~ ^[0-9]+$ ]] && [ "$APISERVER_WATCH_BUFFER" -gt 10 ] && [ "$APISERVER_WATCH_BUFFER" -le 1000 ] \
    || { echo "APISERVER_WATCH_BUFFER must be a number from 11 to 1000, got '$APISERVER_WATCH_BUFFER'" >&2; exit 2; }
  APISERVER_BINARY=kube-apiserver-watch-buffer-$APISERVER_WATCH_BUFFER
else
  APISERVER_BINARY=kube-apiserver
fi
# Names the changes the build makes to the release's source. `install` rebuilds a kube-apiserver whose stamp
# (kube-apiserver.build next to it) names other changes, or none: that is how a fix reaches machines built before it.
BUILD_ID="v$K8S_VERSION reflect2-1.0.2 openapi-zero-value"
APT_PACKAGES=(golang-go etcd-server rsync golang-github-modern-go-reflect2-dev curl openssl)

START=$(date +%s)
log() { printf '[control-plane %4ss] %s\n' "$(( $(date +%s) - START ))" "$*"; }
die() { printf '[control-plane] FAILED: %s\n' "$*" >&2; exit 1; }
# Runs one named stage; a failure names the stage and what to try.
stage() {
  local name=$1 hint=$2; shift 2
  log "stage: $name"
  "$@" || die "stage '$name' failed. $hint"
}
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# True when binary $1 (a path) exists and was built from the source this script makes.
current() { [ -x "$1" ] && [ "$(cat "$1.build" 2>/dev/null)" = "$BUILD_ID" ]; }

installed() {
  current "$BIN_DIR/kube-apiserver" && [ -x "$BIN_DIR/etcd" ] && [ -x "$BIN_DIR/kubectl" ] \
    && [[ $("$BIN_DIR/kube-apiserver" --version 2>/dev/null) == *"v$K8S_VERSION"* ]] \
    && current "$BIN_DIR/$APISERVER_BINARY"
}

apt_install() {
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  command -v kubectl >/dev/null 2>&1 || missing+=(kubernetes-client)
  [ ${#missing[@]} -eq 0 ] && { log "packages already installed"; return 0; }
  log "installing ${missing[*]}"
  as_root apt-get update -qq || true
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# The whole output is read before matching: `producer | grep -q` under pipefail fails with SIGPIPE (141) whenever the
# producer still writes after grep has found its line.
source_known() { [[ $(apt-get source --print-uris kubernetes 2>/dev/null || true) == *orig.tar* ]]; }

# Enables deb-src for the mirror that is already configured, so `apt-get source` finds the kubernetes package.
enable_sources() {
  if source_known; then return 0; fi
  local mirror
  mirror=$(grep -hE '^(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
    | grep -o 'https\?://[^ ]*debian/\?$' | awk 'NR == 1')
  mirror=${mirror:-http://deb.debian.org/debian}
  log "enabling source packages from $mirror"
  printf 'Types: deb-src\nURIs: %s\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$mirror" | as_root tee /etc/apt/sources.list.d/kyma-operator-src.sources >/dev/null
  as_root apt-get update -qq || true
  source_known
}

fetch_source() {
  mkdir -p "$BUILD_DIR"
  cd "$BUILD_DIR"
  if ! ls kubernetes_*.orig.tar.gz >/dev/null 2>&1; then
    apt-get source --download-only kubernetes >/dev/null 2>&1
  fi
  local tarballs=(kubernetes_*.orig.tar.gz) tarball
  tarball=${tarballs[0]}
  if [ ! -f src/.unpacked ]; then
    rm -rf src && mkdir src
    tar -xzf "$tarball" -C src --strip-components=1
    touch src/.unpacked
  fi
}

# The vendored reflect2 v1.0.1 crashes Go >= 1.18 programs under load; Debian's 1.0.2 does not.
patch_reflect2() {
  local vendored=$BUILD_DIR/src/vendor/github.com/modern-go/reflect2
  [ -f "$vendored/.debian-1.0.2" ] && return 0
  rm -rf "$vendored"
  cp -r /usr/share/gocode/src/github.com/modern-go/reflect2 "$vendored"
  rm -f "$vendored/go.mod" "$vendored/go.sum"
  touch "$vendored/.debian-1.0.2"
}

# The CRD schema validator (go-openapi/validate, and kube-openapi's copy of it) takes a value for null, and refuses it
# where the schema does not allow null, when reflect.DeepEqual(reflect.Zero(T), reflect.ValueOf(value)) holds. That
# compares the two reflect.Value headers, pointers included, not the values, so under Go 1.15, which v1.20 was
# released with, it never held. Since Go 1.16 reflect.Zero points at the runtime's shared block of zeros, and so does
# a "" boxed in an interface, as every string decoded from JSON is: built with Debian's Go, the API server refused each
# "" in a custom resource as "must be of type string". Only nil is null, as upstream since kube-openapi#230.
patch_zero_value_check() {
  local check='data == nil || reflect.DeepEqual(reflect.Zero(reflect.TypeOf(data)), reflect.ValueOf(data))' file
  cd "$BUILD_DIR/src"
  for file in vendor/github.com/go-openapi/validate/type.go vendor/k8s.io/kube-openapi/pkg/validation/validate/type.go; do
    [ -f "$file" ] || continue
    grep -qF "if $check {" "$file" && sed -i "s/if data == nil || reflect\.DeepEqual(reflect\.Zero(reflect\.TypeOf(data)), reflect\.ValueOf(data)) {/if data == nil {/" "$file"
    grep -qF "$check" "$file" && return 1
  done
  grep -qP '^\tif data == nil \{$' vendor/github.com/go-openapi/validate/type.go
}

build_apiserver() {
  cd "$BUILD_DIR/src"
  if ! current _output/bin/kube-apiserver; then
    make WHAT=cmd/kube-apiserver KUBE_GIT_VERSION=v$K8S_VERSION KUBE_GIT_TREE_STATE=clean \
      > "$BUILD_DIR/build.log" 2>&1 || { tail -n 30 "$BUILD_DIR/build.log" >&2; return 1; }
    echo "$BUILD_ID" > _output/bin/kube-apiserver.build
  fi
}

# A variant build that was killed leaves the changed source and its binary in the build tree: put the source back and
# build the release again.
recover_interrupted_variant() {
  cd "$BUILD_DIR/src" 2>/dev/null || return 0
  if [ -f "$CACHER.release" ]; then
    mv "$CACHER.release" "$CACHER"
    rm -f _output/bin/kube-apiserver
  fi
}

lay_out_binaries() {
  mkdir -p "$BIN_DIR"
  if ! current "$BIN_DIR/kube-apiserver"; then
    cp "$BUILD_DIR/src/_output/bin/kube-apiserver" "$BIN_DIR/kube-apiserver.tmp"
    mv "$BIN_DIR/kube-apiserver.tmp" "$BIN_DIR/kube-apiserver"
    cp "$BUILD_DIR/src/_output/bin/kube-apiserver.build" "$BIN_DIR/kube-apiserver.build"
  fi
  ln -sf "$(command -v etcd)" "$BIN_DIR/etcd"
  ln -sf "$(command -v kubectl)" "$BIN_DIR/kubectl"
}

# The same source with one change: a watcher of a resource without an index buffers APISERVER_WATCH_BUFFER events.
# The source file and the release's binary in the build tree are put back whatever happens.
restore_release_source() {
  cd "$BUILD_DIR/src"
  [ -f "$CACHER.release" ] && mv "$CACHER.release" "$CACHER"
  cp "$BIN_DIR/kube-apiserver" _output/bin/kube-apiserver
  cp "$BIN_DIR/kube-apiserver.build" _output/bin/kube-apiserver.build
}

build_watch_buffer_variant() {
  current "$BIN_DIR/$APISERVER_BINARY" && return 0
  cd "$BUILD_DIR/src"
  [ "$(grep -cP '^\tchanSize := 10$' "$CACHER")" -eq 1 ] || { echo "$CACHER is not the v$K8S_VERSION source" >&2; return 1; }
  trap restore_release_source EXIT
  cp "$CACHER" "$CACHER.release"
  sed -i "s/^\tchanSize := 10\$/\tchanSize := 10\n\tif c.indexedTrigger == nil {\n\t\tchanSize = $APISERVER_WATCH_BUFFER\n\t}/" "$CACHER"
  grep -q "chanSize = $APISERVER_WATCH_BUFFER\$" "$CACHER" || return 1
  make WHAT=cmd/kube-apiserver KUBE_GIT_VERSION=v$K8S_VERSION KUBE_GIT_TREE_STATE=clean \
    > "$BUILD_DIR/build-$APISERVER_BINARY.log" 2>&1 || { tail -n 30 "$BUILD_DIR/build-$APISERVER_BINARY.log" >&2; return 1; }
  cp _output/bin/kube-apiserver "$BIN_DIR/$APISERVER_BINARY.tmp"
  mv "$BIN_DIR/$APISERVER_BINARY.tmp" "$BIN_DIR/$APISERVER_BINARY"
  echo "$BUILD_ID" > "$BIN_DIR/$APISERVER_BINARY.build"
  restore_release_source
  trap - EXIT
}

cmd_install() {
  if installed; then log "already installed in $BIN_DIR"; return 0; fi
  log "installing kube-apiserver v$K8S_VERSION into $BIN_DIR (a fresh build takes about 6 minutes on 2 cores)"
  stage "apt packages" "Check that Debian's package mirror is reachable and apt-get works (run as root or with sudo)." apt_install
  stage "enable deb-src" "Add a deb-src line for bookworm main of your Debian mirror and run apt-get update." enable_sources
  stage "fetch kubernetes source" "Run 'apt-get source --download-only kubernetes' in $BUILD_DIR to see the error." fetch_source
  stage "replace vendored reflect2" "Is golang-github-modern-go-reflect2-dev installed?" patch_reflect2
  stage "let the CRD schema validator take \"\" for a string" "Is $BUILD_DIR/src the v$K8S_VERSION source?" \
    patch_zero_value_check
  stage "recover an interrupted build" "Delete $BUILD_DIR to start over." recover_interrupted_variant
  stage "build kube-apiserver (log: $BUILD_DIR/build.log)" "Read the build log; delete $BUILD_DIR to start over." build_apiserver
  stage "lay out binaries" "Check write access to $BIN_DIR." lay_out_binaries
  if [ "$APISERVER_BINARY" != kube-apiserver ]; then
    stage "build $APISERVER_BINARY (log: $BUILD_DIR/build-$APISERVER_BINARY.log)" "Read the build log." \
      build_watch_buffer_variant
  fi
  installed || die "binaries are in place but '$BIN_DIR/kube-apiserver --version' does not report v$K8S_VERSION"
  log "installed: $("$BIN_DIR/kube-apiserver" --version), etcd $("$BIN_DIR/etcd" --version 2>/dev/null | awk 'NR == 1')"
}

pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

cmd_up() {
  installed || die "binaries missing: run 'hack/control-plane.sh install' first"
  if pid_alive "$STATE_DIR/apiserver.pid"; then log "already running"; cmd_status; return 0; fi
  mkdir -p "$STATE_DIR/etcd" "$STATE_DIR/certs" "$(dirname "$KUBECONFIG_OUT")"
  local token
  token=$(cat "$STATE_DIR/token" 2>/dev/null || head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
  echo "$token" > "$STATE_DIR/token"
  printf '%s,admin,admin,system:masters\n' "$token" > "$STATE_DIR/tokens.csv"
  if [ ! -f "$STATE_DIR/certs/sa.key" ]; then
    openssl genrsa -out "$STATE_DIR/certs/sa.key" 2048 2>/dev/null
    openssl rsa -in "$STATE_DIR/certs/sa.key" -pubout -out "$STATE_DIR/certs/sa.pub" 2>/dev/null
  fi
  log "starting etcd on 127.0.0.1:$ETCD_PORT"
  # setsid: a Ctrl-C meant for the operator in the same terminal must not reach the control plane.
  setsid nohup "$BIN_DIR/etcd" --data-dir "$STATE_DIR/etcd" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster "default=http://127.0.0.1:$ETCD_PEER_PORT" --name default \
    > "$STATE_DIR/etcd.log" 2>&1 &
  echo $! > "$STATE_DIR/etcd.pid"
  log "starting $APISERVER_BINARY on https://127.0.0.1:$APISERVER_PORT"
  setsid nohup "$BIN_DIR/$APISERVER_BINARY" --etcd-servers "http://127.0.0.1:$ETCD_PORT" \
    --bind-address 127.0.0.1 --secure-port "$APISERVER_PORT" --cert-dir "$STATE_DIR/certs" \
    --token-auth-file "$STATE_DIR/tokens.csv" --authorization-mode RBAC \
    --service-account-issuer https://kubernetes.default.svc --service-account-key-file "$STATE_DIR/certs/sa.pub" \
    --service-account-signing-key-file "$STATE_DIR/certs/sa.key" --service-cluster-ip-range 10.0.0.0/24 \
    --disable-admission-plugins ServiceAccount --allow-privileged=true --v "$APISERVER_VERBOSITY" \
    > "$STATE_DIR/apiserver.log" 2>&1 &
  echo $! > "$STATE_DIR/apiserver.pid"
  cat > "$KUBECONFIG_OUT" <<KCFG
apiVersion: v1
kind: Config
clusters:
- name: embedded
  cluster:
    server: https://127.0.0.1:$APISERVER_PORT
    insecure-skip-tls-verify: true
users:
- name: admin
  user:
    token: $token
contexts:
- name: embedded
  context: {cluster: embedded, user: admin, namespace: default}
current-context: embedded
KCFG
  chmod 600 "$KUBECONFIG_OUT"
  for _ in $(seq 1 60); do
    if curl -ksf -H "Authorization: Bearer $token" "https://127.0.0.1:$APISERVER_PORT/readyz" >/dev/null 2>&1; then
      log "ready; kubeconfig: $KUBECONFIG_OUT"
      return 0
    fi
    pid_alive "$STATE_DIR/apiserver.pid" || break
    sleep 1
  done
  echo "kube-apiserver did not become ready; last lines of $STATE_DIR/apiserver.log:" >&2
  tail -n 20 "$STATE_DIR/apiserver.log" >&2 || true
  cmd_down >/dev/null 2>&1 || true
  exit 1
}

stop_pid() {
  local file=$1 name=$2
  if pid_alive "$file"; then
    local pid; pid=$(cat "$file")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    log "stopped $name (pid $pid)"
  fi
  rm -f "$file"
}

cmd_down() {
  stop_pid "$STATE_DIR/apiserver.pid" kube-apiserver
  stop_pid "$STATE_DIR/etcd.pid" etcd
}

cmd_status() {
  if pid_alive "$STATE_DIR/apiserver.pid"; then
    echo "running: kube-apiserver pid $(cat "$STATE_DIR/apiserver.pid") at https://127.0.0.1:$APISERVER_PORT, etcd pid $(cat "$STATE_DIR/etcd.pid" 2>/dev/null || echo '?')"
    echo "kubeconfig: $KUBECONFIG_OUT"
  else
    echo "not running (installed: $(installed && echo yes || echo no), binaries: $BIN_DIR)"
    return 3
  fi
}

case "${1:-}" in
  install) cmd_install ;;
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  *) echo "usage: $0 install|up|down|status" >&2; exit 2 ;;
esac
