#!/usr/bin/env bash
# Runs every Fuzz target of the module for a short time each (default 10s).
# New crashers are written to the package's testdata/fuzz and fail the run.
set -euo pipefail
fuzztime=${1:-10s}
cd "$(dirname "$0")/.."
status=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
while IFS= read -r file; do
  dir=$(dirname "$file")
  for fn in $(grep -oE '^func (Fuzz[A-Za-z0-9_]+)\(' "$file" | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/'); do
    echo "fuzz: ./$dir $fn ($fuzztime)"
    for attempt in 1 2; do
      if CGO_ENABLED=0 go test "./$dir" -run '^$' -fuzz "^${fn}\$" -fuzztime "$fuzztime" >"$log" 2>&1; then
        break
      fi
      # The fuzzer can report "context deadline exceeded" at the end of its
      # time on a loaded machine without having found anything (no failing
      # input written): that run is repeated once; a real crasher is not.
      if [[ $attempt == 1 ]] && grep -q "context deadline exceeded" "$log" && ! grep -q "Failing input written" "$log"; then
        echo "fuzz: $fn ended with the fuzzer's deadline flake; running it again"
        continue
      fi
      cat "$log"; status=1
      break
    done
  done
done < <(git ls-files '*_test.go' 2>/dev/null || find . -name '*_test.go' -not -path './.git/*' | sed 's|^\./||')
exit $status
