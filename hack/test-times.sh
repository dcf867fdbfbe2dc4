#!/usr/bin/env bash
# Writes the time of each test class of the last build, from the Surefire and Failsafe reports, as CSV on standard
# output (module, class, tests, seconds), slowest first. Run it after `make test` to see where the time goes.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "module,class,tests,seconds"
for report in */target/surefire-reports/TEST-*.xml */target/failsafe-reports/TEST-*.xml; do
  [ -f "$report" ] || continue
  module=${report%%/*}
  # the <testsuite> element's name, tests and time attributes
  head -c 4096 "$report" | tr '\n' ' ' | grep -o '<testsuite [^>]*>' | head -1 | {
    read -r suite || true
    name=$(sed -n 's/.* name="\([^"]*\)".*/\1/p' <<<"$suite")
    tests=$(sed -n 's/.* tests="\([^"]*\)".*/\1/p' <<<"$suite")
    time=$(sed -n 's/.* time="\([^"]*\)".*/\1/p' <<<"$suite")
    echo "$module,${name##*.},$tests,$time"
  }
done | sort -t, -k4 -g -r
