#!/usr/bin/env bash
# The load generator of the original experiment, made fast: N Kymas of the 18 modules, created with server-side
# apply of multi-document batches, then a wait until all are Ready.
set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: samples/sample-data.sh [-n N] [-b BATCHES] [-p PAUSE] [-u UNIT] [-s NAMESPACE] [-d DEADLINE]
  -n N          Kymas to create (default 100)
  -b BATCHES    create them in this many batches (default 1)
  -p PAUSE      seconds to pause between batches (default 0)
  -u UNIT       the operator's --transition-unit in seconds, for the deadline (default 1)
  -s NAMESPACE  namespace, created if missing (default pb)
  -d DEADLINE   seconds to wait for all to be Ready; default 120 + 2 x 67 x UNIT + N / 2 + the pauses
                (twice the 67 units one Kyma needs, plus half a second per Kyma for the API server's write
                ceiling, plus two minutes of slack)
Uses $KUBECONFIG (or kubectl's default). Exits 1 when not all are Ready by the deadline, 2 on bad arguments.
USAGE
}

N=100 BATCHES=1 PAUSE=0 UNIT=1 NAMESPACE=pb DEADLINE=
while getopts ":n:b:p:u:s:d:h" opt; do
  case $opt in
    n) N=$OPTARG ;; b) BATCHES=$OPTARG ;; p) PAUSE=$OPTARG ;; u) UNIT=$OPTARG ;; s) NAMESPACE=$OPTARG ;;
    d) DEADLINE=$OPTARG ;; h) usage; exit 0 ;;
    *) echo "sample-data: bad option -${OPTARG}" >&2; usage >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || { echo "sample-data: unexpected argument '$1'" >&2; usage >&2; exit 2; }
is_int() { [[ $1 =~ ^[0-9]+$ ]]; }
is_num() { [[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]]; }
if ! is_int "$N" || [ "$N" -lt 1 ] || ! is_int "$BATCHES" || [ "$BATCHES" -lt 1 ] || [ "$BATCHES" -gt "$N" ] \
  || ! is_num "$PAUSE" || ! is_num "$UNIT" || { [ -n "$DEADLINE" ] && ! is_int "$DEADLINE"; } \
  || ! [[ $NAMESPACE =~ ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$ ]]; then
  echo "sample-data: N and BATCHES must be whole numbers with 1 <= BATCHES <= N, PAUSE and UNIT numbers," \
    "DEADLINE whole seconds, NAMESPACE a DNS label" >&2
  usage >&2
  exit 2
fi
DEADLINE=${DEADLINE:-$(awk -v n="$N" -v u="$UNIT" -v p="$PAUSE" -v b="$BATCHES" \
  'BEGIN { printf "%d", 120 + 2 * 67 * u + n / 2 + p * (b - 1) }')}

MODULES="istio cluster-essentials certificates istio-resources logging tracing kiali monitoring eventing ory
api-gateway service-catalog service-catalog-addons rafter helm-broker cluster-users serverless application-connector"
CHUNK=50 # documents per kubectl call
# Progress overwrites itself on a terminal and goes line by line into a log.
if [ -t 1 ]; then CR='\r'; else CR='\n'; fi

kyma_doc() {
  printf -- '---\napiVersion: inventory.kyma-project.io/v1alpha1\nkind: Kyma\nmetadata:\n  name: kyma-%s\n  namespace: %s\nspec:\n  modules:\n' "$1" "$NAMESPACE"
  for m in $MODULES; do printf '    - name: %s\n' "$m"; done
}

kubectl create namespace "$NAMESPACE" --dry-run=client -o yaml | kubectl apply --server-side -f - >/dev/null
start=$(date +%s)
per_batch=$(( (N + BATCHES - 1) / BATCHES ))
created=0
for ((batch = 0; batch < BATCHES; batch++)); do
  first=$((batch * per_batch)); last=$((first + per_batch < N ? first + per_batch : N))
  for ((i = first; i < last; i += CHUNK)); do
    end=$((i + CHUNK < last ? i + CHUNK : last))
    for ((k = i; k < end; k++)); do kyma_doc "$k"; done | kubectl apply --server-side -f - >/dev/null
    created=$end
    printf "${CR}created %d/%d Kymas in %ds" "$created" "$N" $(( $(date +%s) - start ))
  done
  if [ $((batch + 1)) -lt "$BATCHES" ] && [ "$PAUSE" != 0 ]; then sleep "$PAUSE"; fi
done
echo

while :; do
  ready=$(kubectl get kymas -n "$NAMESPACE" -o jsonpath='{range .items[*]}{.status.phase}{"\n"}{end}' | grep -c '^Ready$' || true)
  elapsed=$(( $(date +%s) - start ))
  printf "${CR}Ready %d/%d after %ds (deadline %ds)" "$ready" "$N" "$elapsed" "$DEADLINE"
  [ "$ready" -ge "$N" ] && break
  if [ "$elapsed" -ge "$DEADLINE" ]; then
    echo
    echo "sample-data: only $ready of $N Kymas Ready after ${elapsed}s" >&2
    exit 1
  fi
  sleep 2
done
echo
echo "all $N Kymas Ready in ${elapsed}s"

# The slowest: the longest time from creation to its Ready condition.
tmp=$(mktemp -d)
kubectl get kymas -n "$NAMESPACE" -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}' > "$tmp/names"
kubectl get kymas -n "$NAMESPACE" -o jsonpath='{range .items[*]}{.metadata.creationTimestamp}{"\n"}{end}' | date -f - +%s > "$tmp/created"
kubectl get kymas -n "$NAMESPACE" -o jsonpath='{range .items[*]}{.status.conditions[?(@.type=="Ready")].lastTransitionTime}{"\n"}{end}' | date -f - +%s > "$tmp/ready"
paste "$tmp/names" "$tmp/created" "$tmp/ready" | awk '{ d = $3 - $2; if (d > max) { max = d; name = $1 } } END { printf "slowest: %s, Ready %ds after creation\n", name, max }'
rm -rf "$tmp"
