#!/usr/bin/env bash
# Fetches the shared test data from its public sources into DEST (default
# $SOTTO_TESTDATA, else ../shared/testdata beside the repository), as listed
# in scripts/testdata.lock: one line per file with its pinned sha256.
#
# Usage: scripts/testdata.sh [--lock FILE] [--only PREFIX] [DEST]
#
# Methods (the lock's third column):
#   copy            download the URL; the file is its content
#   ffmpeg-soxr16k  download the original recording and convert it with
#   ffmpeg16k       ffmpeg to 16 kHz mono 16-bit WAV (soxr or ffmpeg's
#                   default resampler, bit-exact flags: the command the
#                   shared set was made with)
#   line:KEY        download a LibriSpeech trans.txt; the file is the line
#                   that starts with "KEY ", without the key
#   derive:KIND     rebuild a timing table from another file of the set (the
#                   url column names it) with scripts/testdata-derive.py;
#                   done after every other file, so its source is in place
#   skip:REASON     not fetched; listed at the end with the reason
#
# The conversions are the shared set's own ffmpeg commands; ffmpeg versions
# (and, for some inputs, runs of the soxr resampler) can differ in the low
# bits, and such a file then fails its sha256 check and is not installed.
#
# Every file is built under DEST/.partial/ and moved into place only when
# its sha256 equals the pinned one: a file that does not match is never
# installed (it is reported, and its partial copy removed). Files already in
# place with the right sha256 are left alone, and an interrupted download
# resumes (curl -C -), so the script can be run again until it reports no
# failures. A file in place with another sha256 is reported, not replaced.
#
# Exit status: 0 when every fetchable file is in place, 1 otherwise.
# SOTTO_TESTDATA_CURL adds options to every curl call (e.g. a proxy).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lock=$here/testdata.lock
only=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --lock) lock=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    -*) echo "testdata: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
dest=${1:-${SOTTO_TESTDATA:-$here/../../shared/testdata}}
[[ -n $dest ]] || { echo "testdata: empty destination" >&2; exit 2; }
[[ -f $lock ]] || { echo "testdata: lock file $lock not found" >&2; exit 2; }
for cmd in curl sha256sum; do
  command -v $cmd >/dev/null || { echo "testdata: $cmd is required" >&2; exit 2; }
done
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
part=$dest/.partial
read -r -a curlopts <<<"${SOTTO_TESTDATA_CURL:-}"

installed=0 present=0 failed=0 skipped=0
declare -A skipcount=()
skiplist=$(mktemp) faillist=$(mktemp)
trap 'rm -f "$skiplist" "$faillist"' EXIT

sum() { sha256sum "$1" | cut -d' ' -f1; }
fail() { echo "FAIL    $1: $2"; printf '%s\t%s\n' "$1" "$2" >>"$faillist"; failed=$((failed + 1)); }

# fetch URL OUT: download (resuming a partial OUT) with retries.
fetch() {
  local url=$1 out=$2 partial=0
  mkdir -p "$(dirname "$out")"
  [[ -s $out ]] && partial=1
  curl --fail --location --silent --show-error --retry 3 --connect-timeout 20 \
    ${curlopts[@]+"${curlopts[@]}"} -C - -o "$out" "$url" 2>&1 || {
    # A resumed download the server refuses (416: the partial file is
    # complete or stale) gets one fresh download.
    [[ $partial == 1 ]] || return 1
    rm -f "$out"
    curl --fail --location --silent --show-error --retry 3 --connect-timeout 20 \
      ${curlopts[@]+"${curlopts[@]}"} -o "$out" "$url" 2>&1
  }
}

for pass in 1 2; do # derive: entries last, once their sources are in place
while IFS=$'\t' read -r path want method url note; do
  [[ -z $path || $path == \#* ]] && continue
  if [[ $pass == 1 && $method == derive:* ]] || [[ $pass == 2 && $method != derive:* ]]; then continue; fi
  [[ -n $only && $path != "$only"* ]] && continue
  case $path in /*|*..*) fail "$path" "unsafe path in the lock"; continue ;; esac
  target=$dest/$path
  if [[ $method == skip:* ]]; then
    reason=${method#skip:}
    skipped=$((skipped + 1)); skipcount[$reason]=$(( ${skipcount[$reason]:-0} + 1 ))
    printf '%s\t%s\n' "$path" "$reason" >>"$skiplist"
    continue
  fi
  if [[ -e $target ]]; then
    if [[ $(sum "$target") == "$want" ]]; then
      present=$((present + 1))
    else
      fail "$path" "present with another sha256; left alone (remove it to fetch again)"
    fi
    continue
  fi
  tmp=$part/$path
  mkdir -p "$(dirname "$tmp")"
  case $method in
    copy)
      if ! out=$(fetch "$url" "$tmp"); then fail "$path" "download of $url failed: ${out//$'\n'/ }"; continue; fi
      ;;
    ffmpeg-soxr16k|ffmpeg16k)
      command -v ffmpeg >/dev/null || { fail "$path" "needs ffmpeg to convert $url (apt-get install ffmpeg)"; continue; }
      orig=$tmp.orig
      if ! out=$(fetch "$url" "$orig"); then fail "$path" "download of $url failed: ${out//$'\n'/ }"; continue; fi
      af=()
      [[ $method == ffmpeg-soxr16k ]] && af=(-af aresample=resampler=soxr)
      if ! out=$(ffmpeg -nostdin -hide_banner -loglevel error -y -i "$orig" -ac 1 -ar 16000 "${af[@]}" -c:a pcm_s16le \
                  -map_metadata -1 -fflags +bitexact -flags:a +bitexact -f wav "$tmp" 2>&1); then
        rm -f "$tmp"; fail "$path" "ffmpeg could not convert $url: ${out//$'\n'/ }"; continue
      fi
      ;;
    line:*)
      key=${method#line:}
      src=$tmp.src
      if ! out=$(fetch "$url" "$src"); then fail "$path" "download of $url failed: ${out//$'\n'/ }"; continue; fi
      awk -v k="$key" '$1 == k { sub(/^[^ ]+ /, ""); print; found = 1; exit } END { exit !found }' "$src" >"$tmp" || {
        rm -f "$tmp"; fail "$path" "no line for $key in $url"; continue; }
      ;;
    derive:*)
      command -v python3 >/dev/null || { fail "$path" "needs python3 to rebuild it from $url"; continue; }
      [[ -f $dest/$url ]] || { fail "$path" "needs $url, which is not in place"; continue; }
      if ! out=$(python3 "$here/testdata-derive.py" "${method#derive:}" "$dest/$url" 2>&1 >"$tmp"); then
        rm -f "$tmp"; fail "$path" "could not rebuild it from $url: ${out//$'\n'/ }"; continue
      fi
      ;;
    *)
      fail "$path" "unknown method $method in the lock"; continue ;;
  esac
  got=$(sum "$tmp")
  if [[ $got != "$want" ]]; then
    rm -f "$tmp" "$tmp.orig" "$tmp.src"
    fail "$path" "sha256 mismatch: got $got, want $want (not installed)"
    continue
  fi
  mkdir -p "$(dirname "$target")"
  mv "$tmp" "$target"
  rm -f "$tmp.orig" "$tmp.src"
  echo "ok      $path"
  installed=$((installed + 1))
done <"$lock"
done

[[ -d $part ]] && find "$part" -depth -type d -empty -delete 2>/dev/null || true

echo
echo "testdata: $dest"
echo "  installed $installed, already present $present, failed $failed, skipped $skipped"
if [[ $skipped -gt 0 ]]; then
  echo "  skipped (no public source this script can rebuild them from; reasons in $lock):"
  for r in "${!skipcount[@]}"; do printf '    %-12s %d files\n' "$r" "${skipcount[$r]}"; done | sort
  echo "  the list: awk -F'\\t' '\$3 ~ /^skip/' $lock"
fi
if [[ $failed -gt 0 ]]; then
  echo "  failed:"
  sed 's/^/    /' "$faillist"
  exit 1
fi
