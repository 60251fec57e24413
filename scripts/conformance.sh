#!/usr/bin/env bash
# Starts a headless server on a free loopback port with an API key and a
# fresh data directory, runs the spec's conformance suite against it, and
# stops the server. Usage: conformance.sh SOTTO_CLI CONFORMANCE_PY
#
# CONFORMANCE_GROUPS selects the groups (default: those whose capability has
# landed); CONFORMANCE_ARGS adds options (e.g. --audio FILE).
set -euo pipefail
cli=$1 suite=$2
groups=${CONFORMANCE_GROUPS:-health,auth,errors,models,normalization,segmentation,transcription,speech,speaker,generation,limits,versioning}
if [[ ! -f $suite ]]; then
  echo "conformance: $suite not found; skipping (set CONFORMANCE=path/to/conformance.py)"; exit 0
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
data=$(mktemp -d)
key=conformance-$RANDOM$RANDOM
log=$data/server.log
SOTTO_API_KEY=$key "$cli" serve --listen 127.0.0.1:$port --data-dir "$data" --log-level warn >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 100); do
  python3 -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1], timeout=1)" "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
  kill -0 $pid 2>/dev/null || { cat "$log"; echo "conformance: server exited"; exit 1; }
  sleep 0.1
done
set +e
python3 "$suite" --base "http://127.0.0.1:$port" --key "$key" --only "$groups" ${CONFORMANCE_ARGS:-} | tee "$data/conformance.out" | grep -v '^PASS'
rc=${PIPESTATUS[0]}
set -e
if [[ $rc -ne 0 ]]; then echo "--- server log ---"; tail -50 "$log"; fi
exit $rc
