#!/usr/bin/env bash
# Installs what Sotto needs from Debian's packages, and nothing when all is
# present. Run as root (or with sudo available). Used by `make serve` and
# `make test`; safe to run again.
#
# Needed at run time:  espeak-ng, flite, ffmpeg, pocketsphinx-en-us (the English
#                      CMU Sphinx model the aligner reads), mecab with its IPADIC
#                      dictionary (Japanese readings for alignment), and the
#                      English text the recognizer's second language model is
#                      built from (dict-gcide, fortunes-min, fortunes,
#                      dict-devil, bible-kjv: asr.EnsureDefaultLM2)
# Needed by the tests: pocketsphinx, sphinxbase-utils (peers measured against),
#                      python3 (the conformance suite), sox, gcc (for -race)
set -euo pipefail

# command-or-file  package
need=(
  "espeak-ng                                          espeak-ng"
  "flite                                              flite"
  "ffmpeg                                             ffmpeg"
  "ffprobe                                            ffmpeg"
  "/usr/share/pocketsphinx/model/en-us/en-us/mdef     pocketsphinx-en-us"
  "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict pocketsphinx-en-us"
  "pocketsphinx_batch                                 pocketsphinx"
  "sphinx_fe                                          sphinxbase-utils"
  "sphinx_cepview                                     sphinxbase-utils"
  "mecab                                              mecab"
  "/var/lib/mecab/dic/ipadic-utf8                     mecab-ipadic-utf8"
  "/usr/share/dictd/gcide.dict.dz                     dict-gcide"
  "/usr/share/games/fortunes/fortunes                 fortunes-min"
  "/usr/share/games/fortunes/art                      fortunes"
  "/usr/share/dictd/devil.dict.dz                     dict-devil"
  "bible                                              bible-kjv"
  "sox                                                sox"
  "python3                                            python3"
  "gcc                                                gcc"
)

missing=()
for row in "${need[@]}"; do
  read -r what pkg <<<"$row"
  if [[ $what == /* ]]; then
    [[ -e $what ]] && continue
  else
    command -v "$what" >/dev/null 2>&1 && continue
  fi
  [[ " ${missing[*]-} " == *" $pkg "* ]] || missing+=("$pkg")
done

if ! command -v go >/dev/null 2>&1; then
  echo "deps: Go is not on PATH; install Go 1.26 (https://go.dev/dl) first" >&2
  exit 1
fi

if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

echo "deps: installing ${missing[*]}" >&2
SUDO=""
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "deps: need root to apt-get install ${missing[*]}" >&2; exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: installed ${missing[*]}" >&2
