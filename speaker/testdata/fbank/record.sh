#!/usr/bin/env bash
# Records sherpa-onnx.json, the filterbank frames kaldi-native-fbank computes
# (inside sherpa-onnx's WeSpeaker front end) for the test signal of
# speaker/fbank_test.go. Needs npm and the npm registry; run from the
# repository root:  speaker/testdata/fbank/record.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go test ./speaker -run '^TestFbankPeerInputs$' -count=1 -fbank-peer-dir "$work" >/dev/null
(cd "$work" && npm install --silent sherpa-onnx-node@1.13.8 >/dev/null)
node speaker/testdata/fbank/record.mjs "$work" "$work/node_modules" > speaker/testdata/fbank/sherpa-onnx.json
echo "wrote speaker/testdata/fbank/sherpa-onnx.json"
