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
    for attempt in 1 2 3; do
      if CGO_ENABLED=0 go test "./$dir" -run '^$' -fuzz "^${fn}\$" -fuzztime "$fuzztime" >"$log" 2>&1; then
        break
      fi
      # The fuzzer can report "context deadline exceeded" at the end of its
      # time on a loaded machine without having found anything (no failing
      # input written, no other failure): that run is repeated, and a third
      # such ending counts as a run that found nothing (it fuzzed for its
      # whole time). A real crasher writes its input and fails at once.
      if grep -q "context deadline exceeded" "$log" && ! grep -q "Failing input written" "$log" &&
        [[ $(grep -c -- "--- FAIL" "$log") -le 1 ]] && ! grep -qE "panic:|fuzzing process hung" "$log"; then
        if [[ $attempt -lt 3 ]]; then
          echo "fuzz: $fn ended with the fuzzer's deadline flake; running it again"
          continue
        fi
        echo "fuzz: $fn ended with the fuzzer's deadline flake three times without a failing input; counted as run"
        break
      fi
      cat "$log"; status=1
      break
    done
  done
done < <(git ls-files '*_test.go' 2>/dev/null || find . -name '*_test.go' -not -path './.git/*' | sed 's|^\./||')
exit $status
