#!/usr/bin/env python3
"""Rebuilds the timing tables of the shared speech set from the files they
were made from, for scripts/testdata.sh (methods derive:KIND:SOURCE).

Usage: testdata-derive.py KIND SOURCE > OUT

Every table is tab-separated with the header "start_s end_s label", times
in seconds with three decimals, intervals with an empty or silence label
left out, as the speech MANIFEST describes:

  textgrid:TIER  the intervals of the named tier of a Praat TextGrid
                 (long text format)
  psjson:words   the words of a pocketsphinx JSON alignment, without
                 silences and without pronunciation-variant suffixes "(2)"
  psjson:phones  the phones of the same
  syncmap:lines  the fragments of an aeneas sync map, each labelled with
                 its lines joined by a space

The output is checked by testdata.sh against the sha256 in the lock, like
every other file.
"""
import json
import re
import sys

SILENCE = {"", "<sil>", "sil", "SIL", "sp", "<s>", "</s>"}


def table(rows):
    out = ["start_s\tend_s\tlabel"]
    for start, end, label in rows:
        out.append("%.3f\t%.3f\t%s" % (start, end, label))
    return "\n".join(out) + "\n"


TOKEN = re.compile(r'"((?:[^"]|"")*)"|<exists>|<absent>|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?')


def textgrid(path, tier):
    """The intervals of a tier of a TextGrid in the long or the short text
    format (both give the same token sequence once the long format's
    "[n]" item numbers are dropped)."""
    text = re.sub(r"\[\d*\]", "", open(path, encoding="utf-8").read())
    toks = []
    for m in TOKEN.finditer(text):
        toks.append(("s", m.group(1).replace('""', '"')) if m.group(0).startswith('"') else ("n", m.group(0)))
    vals = [v for _, v in toks]
    if vals[:2] != ["ooTextFile", "TextGrid"]:
        sys.exit("testdata-derive: %s is not a text TextGrid" % path)
    i = 5  # after the two header strings, xmin, xmax and <exists>
    ntiers = int(vals[i]); i += 1
    for _ in range(ntiers):
        cls, name, n = vals[i], vals[i + 1], int(vals[i + 4])
        i += 5
        width = 3 if cls == "IntervalTier" else 2
        if name == tier and cls == "IntervalTier":
            rows = []
            for k in range(n):
                xmin, xmax, label = vals[i + 3 * k: i + 3 * k + 3]
                label = label.replace("\r\n", " ").replace("\n", " ")
                if label.strip() not in SILENCE:
                    rows.append((float(xmin), float(xmax), label))
            return rows
        i += width * n
    sys.exit("testdata-derive: no interval tier %r in %s" % (tier, path))


def psjson(path, level):
    doc = json.load(open(path, encoding="utf-8"))
    rows = []
    for w in doc["w"]:
        if level == "words":
            items = [w]
        else:
            items = w.get("w", [])
        for it in items:
            label = re.sub(r"\(\d+\)$", "", it["t"])
            if label in SILENCE:
                continue
            b, d = float(it["b"]), float(it["d"])
            rows.append((b, b + d, label))
    return rows


def syncmap(path):
    doc = json.load(open(path, encoding="utf-8"))
    return [(float(f["begin"]), float(f["end"]), " ".join(f["lines"])) for f in doc["fragments"]]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: testdata-derive.py KIND SOURCE")
    kind, source = sys.argv[1], sys.argv[2]
    name, _, arg = kind.partition(":")
    if name == "textgrid":
        rows = textgrid(source, arg)
    elif name == "psjson" and arg in ("words", "phones"):
        rows = psjson(source, arg)
    elif name == "syncmap" and arg == "lines":
        rows = syncmap(source)
    else:
        sys.exit("testdata-derive: unknown kind %r" % kind)
    sys.stdout.write(table(rows))


main()
