#!/usr/bin/env bash
# Prints the path of an ONNX Runtime shared library, fetching the one the npm
# package onnxruntime-node ships into .cache/onnxruntime when none is there.
# Needs npm (Debian: apt-get install npm) and the npm registry.
set -euo pipefail
cd "$(dirname "$0")/.."
version=${ONNXRUNTIME_NODE_VERSION:-1.30.0}
dir=.cache/onnxruntime/$version
lib=$dir/package/bin/napi-v6/linux/x64/libonnxruntime.so.1
if [[ ! -f $lib ]]; then
  command -v npm >/dev/null || { echo "onnxruntime: npm is needed (apt-get install npm)" >&2; exit 1; }
  mkdir -p "$dir"
  echo "onnxruntime: fetching onnxruntime-node@$version (npm pack)" >&2
  (cd "$dir" && npm pack --silent "onnxruntime-node@$version" >/dev/null)
  tar xzf "$dir/onnxruntime-node-$version.tgz" -C "$dir" package/bin/napi-v6/linux/x64/libonnxruntime.so.1
  rm -f "$dir/onnxruntime-node-$version.tgz"
fi
echo "$PWD/$lib"
