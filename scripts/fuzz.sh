#!/usr/bin/env bash
# Runs every Fuzz target of the module for a short time each (default 10s).
# New crashers are written to the package's testdata/fuzz and fail the run.
set -euo pipefail
fuzztime=${1:-10s}
cd "$(dirname "$0")/.."
status=0
while IFS= read -r file; do
  dir=$(dirname "$file")
  for fn in $(grep -oE '^func (Fuzz[A-Za-z0-9_]+)\(' "$file" | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/'); do
    echo "fuzz: ./$dir $fn ($fuzztime)"
    if ! CGO_ENABLED=0 go test "./$dir" -run '^$' -fuzz "^${fn}\$" -fuzztime "$fuzztime" >/tmp/sotto-fuzz.log 2>&1; then
      cat /tmp/sotto-fuzz.log; status=1
    fi
  done
done < <(git ls-files '*_test.go' 2>/dev/null || find . -name '*_test.go' -not -path './.git/*' | sed 's|^\./||')
exit $status
