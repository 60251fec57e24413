#!/usr/bin/env python3
"""Writes scripts/testdata.lock from a copy of the shared test data.

Usage: scripts/testdata-lock.py SHARED_TESTDATA_DIR > scripts/testdata.lock

Every file of the copy gets one line: its path, its sha256 (computed here,
and checked against speech/SHA256SUMS and the models MANIFEST where they
list it), how scripts/testdata.sh gets it, the public URL, and a note. The
method is read from the MANIFESTs' source columns:

  copy            the file is the URL's content, unchanged
  ffmpeg-soxr16k  the URL is the original recording; the file is ffmpeg's
                  16 kHz mono 16-bit WAV of it with the soxr resampler
  ffmpeg16k       the same with ffmpeg's default resampler (the files the
                  speech MANIFEST added later)
  line:KEY        the URL's line starting with "KEY ", without the key
                  (a LibriSpeech trans.txt)
  derive:KIND     a timing table rebuilt by scripts/testdata-derive.py KIND
                  from another file of the set (named in the url column)
  skip:REASON     not fetched; the note says why

Run it again when the shared set changes; review the diff.
"""
import hashlib
import os
import re
import sys

root = sys.argv[1]
GH = "https://github.com/{repo}/raw/{commit}/{path}"

REASONS = {
    "heldout": "text suite converted to JSONL and stripped of the held-out 30 % of its cases; the held-out selection is not public, so it cannot be rebuilt from the upstream file",
    "generated": "generated for the shared set from another file by a tool that is not public (no converter here)",
    "edited": "taken from an upstream file with an edit the MANIFEST describes (a subset, joined lines, removed spaces, a JSON field); no converter here",
    "unpublished": "written or produced for the shared set; it has no public source",
    "zip": "inside an archive the MANIFEST names only loosely; no extractor here",
    "nosource": "the MANIFEST names no public source for it",
}


def sha256(p):
    h = hashlib.sha256()
    with open(p, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


def table_rows(manifest):
    """Rows of every Markdown table, as lists of cells."""
    for line in open(manifest, encoding="utf-8"):
        if line.startswith("|") and not line.startswith("|---") and not line.startswith("| ---"):
            yield [c.strip() for c in line.strip().strip("|").split(" | ")]


entries = {}  # path -> (method, url, note)


def derived(name, source):
    """The derive: entry of a timing table the MANIFEST says was generated
    from another file of the set (scripts/testdata-derive.py rebuilds them
    all bit for bit from this copy's sources), or None."""
    m = re.match(r"generated from (\S+\.(TextGrid|align\.json|syncmap\.json))$", source)
    tier = re.match(r'generated from the TextGrid tier "(\w+)"$', source)
    if m:
        src, kind = m.group(1), m.group(2)
        level = "words" if name.endswith(".words.tsv") else "phones" if name.endswith(".phones.tsv") else "lines"
        method = {"TextGrid": "textgrid:", "align.json": "psjson:", "syncmap.json": "syncmap:"}[kind] + level
    elif tier:
        src = re.sub(r"\.ch\d\.tsv$", ".TextGrid", name)
        method = "textgrid:" + tier.group(1)
    else:
        return None
    return ("derive:" + method, "speech/" + src, source + " (scripts/testdata-derive.py)")


# speech: the first table (file | what | format | source | license | reference)
sp = os.path.join(root, "speech", "MANIFEST.md")
src_re = re.compile(r"([\w.-]+/[\w.-]+) `([^`]+)` @ `([0-9a-f]+)`(.*)")
for cells in table_rows(sp):
    if len(cells) == 6 and cells[0].startswith("`"):
        name, source = cells[0].strip("`"), cells[3]
        m = src_re.match(source)
        path = "speech/" + name
        if not m:
            d = derived(name, source)
            if d:
                entries[path] = d
                continue
            reason = "unpublished" if "built with ffmpeg" in source else "generated"
            entries[path] = ("skip:" + reason, "", source)
            continue
        repo, upath, commit, note = m.group(1), m.group(2), m.group(3), m.group(4).strip()
        url = GH.format(repo=repo, commit=commit, path=upath)
        ext = os.path.splitext(name)[1]
        uext = os.path.splitext(upath)[1]
        if name.endswith("_16k.wav"):
            if "bit-exact" in note:
                entries[path] = ("copy", url, "bit-exact copy per the MANIFEST")
            else:
                entries[path] = ("ffmpeg-soxr16k", url, "converted from " + upath)
        elif ext in (".mp3", ".flac", ".opus", ".mp4", ".webm") and note == "":
            entries[path] = ("copy", url, "original kept unchanged per the MANIFEST")
        elif name.endswith(".txt") and upath.endswith(".trans.txt") and note == "":
            key = re.sub(r"^en_ls_", "", name[:-4])
            entries[path] = ("line:" + key, url, "the LibriSpeech reference line of " + key)
        elif note == "" and (uext == ext or (uext == ".lab" and ext == ".txt") or (uext == ".json" and ext == ".json")):
            entries[path] = ("copy", url, "assumed verbatim (" + upath + "); not verifiable offline, the sha256 decides")
        else:
            entries[path] = ("skip:edited", url, (upath + " " + note).strip())

# speech: the added files (file | speaker | g | corpus | repo | `path` | commit | ... | transcript source | sha256)
for cells in table_rows(sp):
    if len(cells) == 13 and cells[0].endswith("_16k.wav"):
        name, repo, upath, commit, tsrc = cells[0], cells[4], cells[5].strip("`"), cells[6], cells[11]
        path = "speech/" + name
        if "->" in upath:
            entries[path] = ("skip:zip", "", repo + " " + upath + " @ " + commit)
        else:
            entries[path] = ("ffmpeg16k", GH.format(repo=repo, commit=commit, path=upath), "converted from " + upath)
        txt = "speech/" + name[: -len("_16k.wav")] + ".txt"
        entries[txt] = ("skip:edited", "", "transcript from " + tsrc)

# speech: the speaker-only files (spk_ls_<utt>_16k.wav) from Resemblyzer
spk_re = re.compile(r"^spk_ls_((\d+)-\d+-\d+)_16k\.wav$")
for name in sorted(os.listdir(os.path.join(root, "speech"))):
    path = "speech/" + name
    m = spk_re.match(name)
    if m and path not in entries:
        upath = "audio_data/librispeech_test-other/%s/%s.flac" % (m.group(2), m.group(1))
        entries[path] = ("ffmpeg16k", GH.format(repo="resemble-ai/Resemblyzer", commit="15d828edebe06bc72b9cabc8ef8ca5ab2cb457ce", path=upath),
                         "converted from " + upath)

# models
models = {
    "stories260K.bin": ("copy", GH.format(repo="clebert/llama2.zig", commit="46af05d7", path="models/tinystories_260k/checkpoint_legacy.bin"), "karpathy/tinyllamas stories260K via llama2.zig (MIT)"),
    "stories260K-tok512.bin": ("copy", GH.format(repo="clebert/llama2.zig", commit="46af05d7", path="models/tinystories_260k/tokenizer.bin"), "its tokenizer (MIT)"),
    "aidreams260K.bin": ("copy", GH.format(repo="mc9625/ai-dreamer-esp32-s3_matrix", commit="HEAD", path="data/aidreams260K.bin"), "no licence upstream: test data only; no commit pinned in the MANIFEST, the sha256 decides"),
    "tok512.bin": ("copy", GH.format(repo="mc9625/ai-dreamer-esp32-s3_matrix", commit="HEAD", path="data/tok512.bin"), "its tokenizer; same caveats"),
}
for name, e in models.items():
    entries["models/" + name] = e

# everything else in the copy
for dirpath, dirs, files in os.walk(root):
    dirs.sort()
    for f in sorted(files):
        p = os.path.relpath(os.path.join(dirpath, f), root)
        if p in entries:
            continue
        if p.startswith("text/") and p.endswith(".jsonl") or p.startswith("text/") and not p.startswith("text/LICENSES/") and f != "MANIFEST.md":
            entries[p] = ("skip:heldout", "", "")
        elif f in ("MANIFEST.md", "SHA256SUMS") or p.startswith("models/") or p.startswith("text/LICENSES/"):
            entries[p] = ("skip:unpublished", "", "the shared set's own documentation, licence copy or reference output")
        elif f == "trials-more.txt":
            entries[p] = ("skip:generated", "", "speaker-verification pairs drawn for the shared set (MANIFEST: trials-more.txt)")
        else:
            entries[p] = ("skip:nosource", "", "")

# checksums, cross-checked with the shared set's own lists
known = {}
for line in open(os.path.join(root, "speech", "SHA256SUMS")):
    s, n = line.split()
    known["speech/" + n] = s
for line in open(os.path.join(root, "models", "MANIFEST.md")):
    m = re.match(r"- (\S+) ([0-9a-f]{64})$", line.strip())
    if m:
        known["models/" + m.group(1)] = m.group(2)

out = sys.stdout
out.write("# scripts/testdata.lock: every file of the shared test data ($SOTTO_TESTDATA), its sha256, and how\n")
out.write("# scripts/testdata.sh fetches it from its public source. Generated by scripts/testdata-lock.py\n")
out.write("# from the speech, text and models MANIFESTs; do not edit by hand.\n#\n")
out.write("# Columns (tab-separated): path  sha256  method  url  note\n")
out.write("# Methods: copy | ffmpeg-soxr16k | ffmpeg16k | line:KEY | derive:KIND (url = the source file in the set) |\n")
out.write("# skip:REASON (see scripts/testdata.sh).\n# Reasons:\n")
for k, v in REASONS.items():
    out.write("#   %s: %s\n" % (k, v))
for p in sorted(entries):
    method, url, note = entries[p]
    s = sha256(os.path.join(root, p))
    if p in known and known[p] != s:
        sys.exit("%s: sha256 %s differs from the shared set's list (%s)" % (p, s, known[p]))
    out.write("\t".join([p, s, method, url or "-", note.replace("\t", " ") or "-"]) + "\n")
