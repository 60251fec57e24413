#!/usr/bin/env bash
# Runs every Fuzz target of the module for a short time each (default 10s).
# New crashers are written to the package's testdata/fuzz and fail the run;
# the failing input's file is printed too, so a CI log keeps it after the
# clone is gone.
set -euo pipefail
fuzztime=${1:-10s}
cd "$(dirname "$0")/.."
status=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# deadline_flake LOG FN: the run of FN failed with nothing but the fuzzer's
# own end-of-time race (its coordinator sees its deadline before the workers'
# context is cancelled and reports the bare "context deadline exceeded"): the
# failure's whole text is that one line, no failing input was written, and
# nothing panicked, hung, or failed on a seed. Any real failure (a crasher, a
# seed corpus failure, a worker killed by a signal, a build error) prints its
# own message under the FAIL line, or a second FAIL line, and is not a flake.
deadline_flake() {
  local log=$1 fn=$2
  grep -q "Failing input written" "$log" && return 1
  grep -qE "panic:|fuzzing process|failure while testing seed corpus entry|^\[build failed\]" "$log" && return 1
  [[ $(grep -c -- "--- FAIL" "$log") -eq 1 ]] || return 1
  # The lines under "--- FAIL: FN (...)", up to the closing FAIL, are the
  # failure's text: the deadline and nothing else but blank lines.
  awk -v head="--- FAIL: ${fn} (" '
    index($0, head) == 1 { in_body = 1; next }
    in_body && (/^FAIL/ || /^exit status/) { in_body = 0 }
    in_body {
      line = $0; gsub(/^[ \t]+|[ \t]+$/, "", line)
      if (line == "context deadline exceeded") deadline = 1
      else if (line != "") other = 1
    }
    END { exit !(deadline && !other) }' "$log"
}

# stalled_tail LOG: how many seconds the run's last status lines reported no
# new executions. Go's fuzzer reports an input that hangs only after 10s of
# that one call; a hang that begins less than 10s before -fuzztime ends is
# stopped with the run and reported as a pass. A stall at the end is not
# proof of a hang (a slow input, or a worker busy minimizing, also runs no
# counted executions), so it is printed as a warning with the command that
# looks longer.
#
# Minimizing: Go minimizes every new interesting input on a worker that then
# fuzzes nothing, for up to -fuzzminimizetime (60s by default), which often
# took the rest of a run: FuzzMemAvailable with one worker ran 10,069 inputs in
# 60s and none in its last 58s; with -fuzzminimizetime 2s it ran 60,891 in 15s.
# Two seconds bound that (a crasher is still written, perhaps less minimized)
# and let a longer stall mean a slow or hanging input.
stalled_tail() {
  awk '/^fuzz: elapsed: ([0-9]+h)?([0-9]+m)?[0-9]+s, execs: [0-9]+ /{
         e=$3; t=0
         if (match(e, /[0-9]+h/)) t += 3600 * substr(e, RSTART, RLENGTH - 1)
         if (match(e, /[0-9]+m/)) t += 60 * substr(e, RSTART, RLENGTH - 1)
         if (match(e, /[0-9]+s/)) t += substr(e, RSTART, RLENGTH - 1)
         n=$5
         if (n != last) { since=t; last=n }
         end=t
       }
       END { if (end != "") print end - since; else print 0 }' "$1"
}

while IFS= read -r file; do
  dir=$(dirname "$file")
  for fn in $(grep -oE '^func (Fuzz[A-Za-z0-9_]+)\(' "$file" | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/'); do
    echo "fuzz: ./$dir $fn ($fuzztime)"
    for attempt in 1 2 3; do
      if CGO_ENABLED=0 go test "./$dir" -run '^$' -fuzz "^${fn}\$" -fuzztime "$fuzztime" -fuzzminimizetime 2s >"$log" 2>&1; then
        stall=$(stalled_tail "$log")
        if [[ $stall -ge 5 ]]; then
          echo "fuzz: warning: $fn ran no input to completion in its last ${stall}s: a slow input, or one that hangs (the fuzzer reports a hang only after 10s of one call); look longer with: go test ./$dir -run '^\$' -fuzz '^${fn}\$' -fuzztime 60s -fuzzminimizetime 2s"
        fi
        break
      fi
      # The fuzzer can report "context deadline exceeded" at the end of its
      # time on a loaded machine without having found anything: that run is
      # repeated, and a third such ending counts as a run that found nothing
      # (it fuzzed for its whole time). A real crasher writes its input and
      # fails at once.
      if deadline_flake "$log" "$fn"; then
        if [[ $attempt -lt 3 ]]; then
          echo "fuzz: $fn ended with the fuzzer's deadline flake; running it again"
          continue
        fi
        echo "fuzz: $fn ended with the fuzzer's deadline flake three times without a failing input; counted as run"
        break
      fi
      cat "$log"; status=1
      # Print each failing input written, from the package's directory.
      sed -n 's/^[[:space:]]*Failing input written to //p' "$log" | while IFS= read -r input; do
        echo "fuzz: failing input ./$dir/$input:"
        cat "./$dir/$input" || true
      done
      break
    done
  done
done < <(git ls-files '*_test.go' 2>/dev/null || find . -name '*_test.go' -not -path './.git/*' | sed 's|^\./||')
exit $status
