#!/usr/bin/env python3
"""Send every case of the shared text suites through the HTTP API, score it
as issue 10's outside judge does, and compare with the in-process scorers
case by case.

    bin/sotto-cli serve --listen 127.0.0.1:18713 --data-dir "$(mktemp -d)" &
    go run ./normalize/internal/textinproc > /tmp/inproc.jsonl
    python3 scripts/text-api-check.py --url http://127.0.0.1:18713 --inproc /tmp/inproc.jsonl

Normalization: POST /v1/text/normalizations with the case's text, language
and mode and top_k 1, as a new user would (no other field); the best
alternative, whitespace-collapsed, is right when it equals `expected` or any
`accepted`. The figures are given for the cases `sotto-normalize --strict`
scores (no `options`, not the sentence-level nemo_eval files, a language
with rules), dev and sealed apart (FNV-1a of the input, modulo 100, below
30 = sealed, as internal/holdout), and counted apart for the cases it skips.

Segmentation: POST /v1/text/segmentations with the case's text, once with
its `language` and once without (the language guessed); the segments' texts
are scored as segment/internal/segbench does (exact list with whitespace
collapsed, none between CJK characters; sentence-end F1 on the text without
whitespace; `xfail` cases counted in F1 only).

--inproc is the output of normalize/internal/textinproc (the in-process
result of every case); every case whose API output differs from it is
listed. --langs tries the language-code spellings a user writes on both
endpoints. Python standard library only.
"""

import argparse
import collections
import concurrent.futures
import http.client
import json
import os
import sys
import threading
import unicodedata
import urllib.parse

# Go's unicode.IsSpace, so that collapsing whitespace here matches
# strings.Fields in the Go scorers (Python's str.split also splits at
# U+001C..U+001F, which Go does not).
GO_SPACE = frozenset(map(chr, [
    0x9, 0xA, 0xB, 0xC, 0xD, 0x20, 0x85, 0xA0, 0x1680, 0x2000, 0x2001, 0x2002,
    0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x2028,
    0x2029, 0x202F, 0x205F, 0x3000]))

# Go's unicode.Han, Hiragana and Katakana tables (lo, hi, stride), as
# segeval.Norm uses them.
CJK = [
    (0x2E80, 0x2E99, 1), (0x2E9B, 0x2EF3, 1), (0x2F00, 0x2FD5, 1), (0x3005, 0x3007, 2),
    (0x3021, 0x3029, 1), (0x3038, 0x303B, 1), (0x3400, 0x4DBF, 1), (0x4E00, 0x9FFF, 1),
    (0xF900, 0xFA6D, 1), (0xFA70, 0xFAD9, 1), (0x16FE2, 0x16FE3, 1), (0x16FF0, 0x16FF1, 1),
    (0x20000, 0x2A6DF, 1), (0x2A700, 0x2B739, 1), (0x2B740, 0x2B81D, 1), (0x2B820, 0x2CEA1, 1),
    (0x2CEB0, 0x2EBE0, 1), (0x2F800, 0x2FA1D, 1), (0x30000, 0x3134A, 1), (0x31350, 0x323AF, 1),
    (0x3041, 0x3096, 1), (0x309D, 0x309F, 1), (0x1B001, 0x1B11F, 1), (0x1B132, 0x1B150, 30),
    (0x1B151, 0x1B152, 1), (0x1F200, 0x1F200, 1), (0x30A1, 0x30FA, 1), (0x30FD, 0x30FF, 1),
    (0x31F0, 0x31FF, 1), (0x32D0, 0x32FE, 1), (0x3300, 0x3357, 1), (0xFF66, 0xFF6F, 1),
    (0xFF71, 0xFF9D, 1), (0x1AFF0, 0x1AFF3, 1), (0x1AFF5, 0x1AFFB, 1), (0x1AFFD, 0x1AFFE, 1),
    (0x1B000, 0x1B120, 288), (0x1B121, 0x1B122, 1), (0x1B155, 0x1B164, 15), (0x1B165, 0x1B167, 1),
]


def is_cjk(ch):
    c = ord(ch)
    return any(lo <= c <= hi and (c - lo) % st == 0 for lo, hi, st in CJK)


def fields(s):
    out, cur = [], []
    for ch in s:
        if ch in GO_SPACE:
            if cur:
                out.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
    if cur:
        out.append("".join(cur))
    return out


def canon(s):
    """normalizetest.Canon: whitespace runs collapsed to one space."""
    return " ".join(fields(s))


def seg_norm(s):
    """segeval.Norm: as canon, with no space between two CJK characters."""
    f = fields(s)
    b = []
    for i, w in enumerate(f):
        if i > 0 and not (is_cjk(f[i - 1][-1]) and is_cjk(w[0])):
            b.append(" ")
        b.append(w)
    return "".join(b)


def sealed(text):
    """internal/holdout.Sealed: FNV-1a 32 of the input's bytes % 100 < 30."""
    h = 0x811C9DC5
    for byte in text.encode("utf-8"):
        h ^= byte
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h % 100 < 30


def ends(ss):
    m, n = set(), 0
    for i, s in enumerate(ss):
        n += sum(1 for ch in s if ch not in GO_SPACE)
        if i < len(ss) - 1:
            m.add(n)
    return m


class SegTally:
    def __init__(self):
        self.cases = self.exact = self.xfail = self.tp = self.fp = self.fn = 0

    def add(self, got, want, xfail):
        ok = got is not None and len(got) == len(want) and all(
            seg_norm(a) == seg_norm(b) for a, b in zip(got, want))
        if xfail:
            self.xfail += 1
        else:
            self.cases += 1
            self.exact += ok
        g, w = ends(got or []), ends(want)
        self.tp += len(g & w)
        self.fp += len(g - w)
        self.fn += len(w - g)
        return ok

    def exact_pct(self):
        return 100.0 * self.exact / self.cases if self.cases else 100.0

    def f1(self):
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        return 2 * p * r / (p + r) if p + r else 0.0


class Client:
    """One keep-alive connection per thread."""

    def __init__(self, url, key=None):
        u = urllib.parse.urlsplit(url)
        self.host, self.port = u.hostname, u.port or 80
        self.prefix = u.path.rstrip("/")
        self.headers = {"Content-Type": "application/json"}
        if key:
            self.headers["Authorization"] = "Bearer " + key
        self.local = threading.local()

    def post(self, path, body):
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        for attempt in range(3):
            conn = getattr(self.local, "conn", None)
            if conn is None:
                conn = self.local.conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
            try:
                conn.request("POST", self.prefix + path, body=data, headers=self.headers)
                resp = conn.getresponse()
                raw = resp.read()
            except (http.client.HTTPException, OSError):
                conn.close()
                self.local.conn = None
                if attempt == 2:
                    raise
                continue
            try:
                return resp.status, json.loads(raw.decode("utf-8"))
            except ValueError:
                return resp.status, {"raw": raw.decode("utf-8", "replace")}


def load_cases(data):
    cases = []
    for root, _, files in os.walk(data):
        for name in files:
            if not name.endswith(".jsonl"):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, data).replace(os.sep, "/")
            kind = rel.split("/", 1)[0]
            if kind not in ("normalize", "segment"):
                continue
            with open(path, encoding="utf-8") as f:
                for i, line in enumerate(f, 1):
                    if not line.strip():
                        continue
                    c = json.loads(line)
                    c["_file"], c["_line"], c["_kind"] = rel, i, kind
                    cases.append(c)
    cases.sort(key=lambda c: (c["_file"], c["_line"]))
    return cases


def normalize_case(cl, c):
    body = {"text": c["input"], "language": c["lang"], "mode": c["mode"], "top_k": 1}
    status, res = cl.post("/v1/text/normalizations", body)
    if status != 200:
        return None, "%d %s" % (status, (res.get("error") or {}).get("code", res))
    alts = res.get("alternatives") or []
    return (alts[0]["text"] if alts else res.get("text", "")), None


def segment_case(cl, c, with_lang):
    body = {"text": c["input"]}
    if with_lang:
        body["language"] = c["lang"]
    status, res = cl.post("/v1/text/segmentations", body)
    if status != 200:
        return None, "%d %s" % (status, (res.get("error") or {}).get("code", res))
    return [s["text"] for s in res.get("segments", [])], None


def short(s, n=160):
    s = repr(s)
    return s if len(s) <= n else s[:n] + "…"


def check_langs(cl):
    """Tries the language spellings a user writes on both endpoints."""
    spellings = ["en", "en-US", "EN", "en_US", "en-us", "zh-CN", "zh-Hans", "zh-TW", "de-DE", "pt-BR",
                 "es-419", "fr-CA", "und"]
    samples = {"en": "On 3 May 2021 I paid $12.50.", "zh": "2021年5月3日我付了12.50元。",
               "de": "Am 3. Mai 2021 zahlte ich 12,50 €.", "pt": "Em 3 de maio de 2021 paguei R$ 12,50.",
               "es": "El 3 de mayo de 2021 pagué 12,50 €.", "fr": "Le 3 mai 2021 j'ai payé 12,50 €.",
               "und": "On 3 May 2021 I paid $12.50."}
    seg = {"en": "Mr. Smith arrived at 3 p.m. He left.", "zh": "他来了。她走了。",
           "de": "Treffen am Mo. um 9 Uhr. Danach Essen.", "pt": "O Sr. Silva chegou. Ele saiu.",
           "es": "El Sr. García llegó. Se fue.", "fr": "M. Dupont est arrivé. Il est parti.",
           "und": "Mr. Smith arrived. He left."}
    rows = []
    for sp in spellings:
        base = sp.split("-")[0].split("_")[0].lower()
        st, res = cl.post("/v1/text/normalizations", {"text": samples[base], "language": sp, "top_k": 1})
        ref_st, ref = cl.post("/v1/text/normalizations", {"text": samples[base], "language": base, "top_k": 1})
        n = "%d" % st
        if st == 200 and ref_st == 200:
            n += " same as %s" % base if res["alternatives"][0]["text"] == ref["alternatives"][0]["text"] else \
                " DIFFERS from %s: %r vs %r" % (base, res["alternatives"][0]["text"], ref["alternatives"][0]["text"])
        elif st != 200:
            n += " " + (res.get("error") or {}).get("code", "")
        st2, res2 = cl.post("/v1/text/segmentations", {"text": seg[base], "language": sp})
        ref2_st, ref2 = cl.post("/v1/text/segmentations", {"text": seg[base], "language": base})
        s = "%d" % st2
        if st2 == 200 and ref2_st == 200:
            s += " same as %s" % base if res2["segments"] == ref2["segments"] else " DIFFERS from %s" % base
        elif st2 != 200:
            s += " " + (res2.get("error") or {}).get("code", "")
        rows.append((sp, n, s))
    print("\n## Language spellings\n\n| language | normalizations | segmentations |\n|---|---|---|")
    for r in rows:
        print("| `%s` | %s | %s |" % r)

REGION = {"en": "en-US", "de": "de-DE", "es": "es-ES", "fr": "fr-FR", "zh": "zh-CN", "pt": "pt-BR", "ru": "ru-RU",
          "ja": "ja-JP", "ko": "ko-KR", "it": "it-IT", "sv": "sv-SE", "hu": "hu-HU", "vi": "vi-VN", "hi": "hi-IN",
          "ar": "ar-SA", "he": "he-IL", "hy": "hy-AM"}


def norm_variants(cl, cases, base, workers):
    """Sends the normalization cases again as a user might write them and
    counts the cases whose best alternative (whitespace-collapsed) differs
    from the plain request's."""
    todo = [(c, b) for c, b in zip(cases, base) if c["_kind"] == "normalize" and c["input"] and b[0] is not None]
    kinds = {
        "top_k omitted (default 8), rank 0": lambda c: {"text": c["input"], "language": c["lang"], "mode": c["mode"]},
        "mode omitted for tn": lambda c: {"text": c["input"], "language": c["lang"], "top_k": 1} if c["mode"] == "tn" else None,
        "language with region (en-US, de-DE, zh-CN …)": lambda c: {"text": c["input"], "language": REGION[c["lang"]], "mode": c["mode"], "top_k": 1} if c["lang"] in REGION else None,
        "language in upper case": lambda c: {"text": c["input"], "language": c["lang"].upper(), "mode": c["mode"], "top_k": 1},
        "text with a trailing newline": lambda c: {"text": c["input"] + "\n", "language": c["lang"], "mode": c["mode"], "top_k": 1},
        "text in NFD": lambda c: {"text": unicodedata.normalize("NFD", c["input"]), "language": c["lang"], "mode": c["mode"], "top_k": 1} if unicodedata.normalize("NFD", c["input"]) != c["input"] else None,
        "text in NFC": lambda c: {"text": unicodedata.normalize("NFC", c["input"]), "language": c["lang"], "mode": c["mode"], "top_k": 1} if unicodedata.normalize("NFC", c["input"]) != c["input"] else None,
    }
    print("\n## Normalization: the same cases written another way\n")
    print("| variant | cases sent | best differs | right before, wrong after | wrong before, right after |\n|---|---:|---:|---:|---:|")
    examples = []
    for name, mk in kinds.items():
        sent = [(c, b, mk(c)) for c, b in todo]
        sent = [x for x in sent if x[2] is not None]

        def one(x):
            st, res = cl.post("/v1/text/normalizations", x[2])
            if st != 200:
                return None
            if "NFD" in name or "NFC" in name:
                return res["alternatives"][0]["text"]
            return res["alternatives"][0]["text"]
        with concurrent.futures.ThreadPoolExecutor(workers) as ex:
            outs = list(ex.map(one, sent))
        nd = lost = won = 0
        for (c, b, _), o in zip(sent, outs):
            if o is None or canon(o) != canon(b[0]):
                nd += 1
                okb, oko = right(c, b[0]), o is not None and right(c, o)
                lost += okb and not oko
                won += oko and not okb
                if len(examples) < 40:
                    examples.append((name, c, b[0], o))
        print("| %s | %d | %d | %d | %d |" % (name, len(sent), nd, lost, won))
    # Batching: up to 20 one-line cases of one file and mode in one request, a line each.
    groups = collections.defaultdict(list)
    for c, b in todo:
        if "\n" not in c["input"] and "\r" not in c["input"] and c["input"].strip():
            groups[(c["_file"], c["lang"], c["mode"])].append((c, b))
    batches = []
    for (f, lang, mode), xs in groups.items():
        for i in range(0, len(xs), 20):
            batches.append((lang, mode, xs[i:i + 20]))

    def send_batch(bt):
        lang, mode, xs = bt
        st, res = cl.post("/v1/text/normalizations", {"text": "\n".join(c["input"] for c, _ in xs), "language": lang, "mode": mode, "top_k": 1})
        if st != 200:
            return [None] * len(xs)
        lines = res["alternatives"][0]["text"].split("\n")
        return lines if len(lines) == len(xs) else res["alternatives"][0]["text"]
    with concurrent.futures.ThreadPoolExecutor(workers) as ex:
        outs = list(ex.map(send_batch, batches))
    nd = lost = won = n = merged = 0
    for (lang, mode, xs), lines in zip(batches, outs):
        if isinstance(lines, str):
            # A conversion ran across a line break: the lines no longer match the cases.
            merged += 1
            if len(examples) < 60:
                examples.append(("batched: lines merged", xs[0][0], "\n".join(c["input"] for c, _ in xs), lines))
            continue
        for (c, b), o in zip(xs, lines):
            n += 1
            if o is None or canon(o) != canon(b[0]):
                nd += 1
                okb, oko = right(c, b[0]), o is not None and right(c, o)
                lost += okb and not oko
                won += oko and not okb
                if len(examples) < 60:
                    examples.append(("batched, a case a line", c, b[0], o))
    print("| batched: up to 20 cases of a file in one text, a line each | %d | %d | %d | %d |" % (n, nd, lost, won))
    print("\nBatches sent: %d; a conversion ran across a line break in %d of them (their lines left out above)." % (len(batches), merged))
    for name, c, b, o in examples:
        print("- [%s] %s:%d %s %s in=%s\n    plain=%s\n    variant=%s" % (name, c["_file"], c["_line"], c["lang"], c["mode"], short(c["input"]), short(b), short(o)))


def seg_variants(cl, cases, base, workers):
    """As norm_variants for segmentation (language given)."""
    todo = [(c, b[0][0]) for c, b in zip(cases, base) if c["_kind"] == "segment" and b[0][0] is not None]
    kinds = {
        "language with region": lambda c: {"text": c["input"], "language": REGION[c["lang"]]} if c["lang"] in REGION else None,
        "language in upper case": lambda c: {"text": c["input"], "language": c["lang"].upper()},
        "text with a trailing newline": lambda c: {"text": c["input"] + "\n", "language": c["lang"]},
        "CRLF line ends": lambda c: {"text": c["input"].replace("\n", "\r\n"), "language": c["lang"]} if "\n" in c["input"] else None,
        "text in NFC": lambda c: {"text": unicodedata.normalize("NFC", c["input"]), "language": c["lang"]} if unicodedata.normalize("NFC", c["input"]) != c["input"] else None,
        "text in NFD": lambda c: {"text": unicodedata.normalize("NFD", c["input"]), "language": c["lang"]} if unicodedata.normalize("NFD", c["input"]) != c["input"] else None,
    }
    print("\n## Segmentation: the same cases written another way\n")
    print("| variant | cases sent | sentence list differs |\n|---|---:|---:|")
    examples = []
    for name, mk in kinds.items():
        sent = [(c, b, mk(c)) for c, b in todo]
        sent = [x for x in sent if x[2] is not None]

        def one(x):
            st, res = cl.post("/v1/text/segmentations", x[2])
            return [s["text"] for s in res["segments"]] if st == 200 else None
        with concurrent.futures.ThreadPoolExecutor(workers) as ex:
            outs = list(ex.map(one, sent))
        nd = 0
        for (c, b, _), o in zip(sent, outs):
            nfx = (lambda s: unicodedata.normalize("NFC", s)) if "NF" in name else (lambda s: s)
            if o is None or [seg_norm(nfx(x)) for x in o] != [seg_norm(nfx(x)) for x in b]:
                nd += 1
                if len(examples) < 30:
                    examples.append((name, c, b, o))
        print("| %s | %d | %d |" % (name, len(sent), nd))
    for name, c, b, o in examples:
        print("- [%s] %s:%d %s in=%s\n    plain=%s\n    variant=%s" % (name, c["_file"], c["_line"], c["lang"], short(c["input"]), short(b), short(o)))


def right(c, got):
    return got is not None and canon(got) in {canon(c["expected"])} | {canon(x) for x in c.get("accepted") or []}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", default="http://127.0.0.1:1118")
    ap.add_argument("--data", default=os.path.join(os.environ.get("SOTTO_TESTDATA", "../shared/testdata"), "text"))
    ap.add_argument("--inproc", help="JSONL from go run ./normalize/internal/textinproc")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", choices=["normalize", "segment"], help="one endpoint only")
    ap.add_argument("--langs", action="store_true", help="also try language-code spellings")
    ap.add_argument("--variants", action="store_true",
                    help="also send every case written another way (region tags, upper case, trailing newline, CRLF, NFC/NFD, defaults omitted, batched)")
    ap.add_argument("--max-diffs", type=int, default=200, help="differences listed per endpoint")
    ap.add_argument("--key", default=os.environ.get("SOTTO_API_KEY"))
    a = ap.parse_args()

    cl = Client(a.url, a.key)
    cases = [c for c in load_cases(a.data) if not a.only or c["_kind"] == a.only]
    inproc = {}
    if not a.inproc:
        print("(no --inproc file: the API's figures only, not compared with the in-process ones)\n")
    else:
        with open(a.inproc, encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                inproc[(r["file"], r["line"])] = r

    def work(c):
        if c["_kind"] == "normalize":
            return normalize_case(cl, c)
        return segment_case(cl, c, True), segment_case(cl, c, False)

    with concurrent.futures.ThreadPoolExecutor(a.workers) as ex:
        results = list(ex.map(work, cases))

    # Normalization.
    norm = collections.defaultdict(lambda: [0, 0])  # (group, lang, mode, part) -> [pass, total]
    inproc_norm = collections.defaultdict(lambda: [0, 0])
    diffs, ndiff = [], collections.Counter()
    for c, (got, err) in zip(cases, results):
        if c["_kind"] != "normalize":
            continue
        ok = got is not None and canon(got) in {canon(c["expected"])} | {canon(x) for x in c.get("accepted") or []}
        r = inproc.get((c["_file"], c["_line"]))
        if "/nemo_eval/" in "/" + c["_file"]:
            group = "sentence-level (nemo_eval)"
        elif c.get("options"):
            group = "with options"
        elif r is not None and not r.get("supported"):
            group = "language without rules"
        else:
            group = "strict"
        part = "sealed" if sealed(c["input"]) else "dev"
        t = norm[(group, c["lang"], c["mode"], part)]
        t[0] += ok
        t[1] += 1
        if r is None:
            continue
        ib = r.get("best")
        iok = right(c, ib)
        it = inproc_norm[(group, c["lang"], c["mode"], part)]
        it[0] += iok
        it[1] += 1
        if got != ib:
            ndiff[(group, ok != iok)] += 1
            diffs.append((group, c, got, err, ib, r.get("err"), ok, iok))

    if any(c["_kind"] == "normalize" for c in cases):
        print("# Normalization through the API\n")
        print("| group | language | mode | dev cases | API dev | in-process dev | sealed cases | API sealed | in-process sealed |")
        print("|---|---|---|---:|---:|---:|---:|---:|---:|")
        keys = sorted({k[:3] for k in norm})
        for g, lang, mode in keys:
            d, s = norm[(g, lang, mode, "dev")], norm[(g, lang, mode, "sealed")]
            di, si = inproc_norm[(g, lang, mode, "dev")], inproc_norm[(g, lang, mode, "sealed")]
            pct = lambda t: "%.1f %%" % (100.0 * t[0] / t[1]) if t[1] else "–"
            print("| %s | %s | %s | %d | %s | %s | %d | %s | %s |" % (g, lang, mode, d[1], pct(d), pct(di), s[1], pct(s), pct(si)))
        print("\nAPI output differs from in-process: %d cases%s" % (len(diffs), "".join(
            "\n- %s%s: %d" % (g, ", score changes" if sc else "", n) for (g, sc), n in sorted(ndiff.items()))))
        for g, c, got, err, ib, ierr, ok, iok in diffs[:a.max_diffs]:
            print("- [%s] %s:%d %s %s in=%s\n    api=%s%s\n    in-process=%s%s  (api %s, in-process %s)" % (
                g, c["_file"], c["_line"], c["lang"], c["mode"], short(c["input"]),
                short(got), " err=" + err if err else "", short(ib), " err=" + ierr if ierr else "",
                "right" if ok else "wrong", "right" if iok else "wrong"))

    # Segmentation.
    segs = [(c, res) for c, res in zip(cases, results) if c["_kind"] == "segment"]
    if segs:
        groups = collections.defaultdict(SegTally)
        sdiffs = []
        for c, ((got, err), (gguess, gerr)) in segs:
            parts = c["_file"].split("/")
            lang, suite = parts[1], parts[2]
            golden = "pragmatic_segmenter" in c["_file"] or "GOLDEN" in c["_file"]
            names = []
            if golden:
                names.append("Golden Rules " + ("en" if lang == "en" else "others"))
            if suite == "ud_english-ewt":
                names.append("EWT")
            if suite.startswith("ud_") and "pud" in suite:
                names.append("PUD")
            if suite == "pysbd":
                names.append("pySBD")
            if suite in ("segtok", "syntok"):
                names.append(suite)
            if suite.startswith("ud_"):
                names.append("UD treebanks")
            part = "sealed" if sealed(c["input"]) else "dev"
            r = inproc.get((c["_file"], c["_line"]))
            xf = bool(c.get("xfail"))
            for n in names:
                groups[("api", "given", n, part)].add(got, c["sentences"], xf)
                groups[("api", "guessed", n, part)].add(gguess, c["sentences"], xf)
                if r is not None:
                    groups[("inproc", "given", n, part)].add(r.get("sentences") or [], c["sentences"], xf)
                    groups[("inproc", "guessed", n, part)].add(r.get("guessed") or [], c["sentences"], xf)
            if r is not None:
                for how, g, e, ig in (("given", got, err, r.get("sentences") or []), ("guessed", gguess, gerr, r.get("guessed") or [])):
                    if g != ig:
                        sdiffs.append((how, c, g, e, ig))
        print("\n# Segmentation through the API\n")
        print("| figure | language | API dev | in-process dev | API sealed | in-process sealed |")
        print("|---|---|---:|---:|---:|---:|")
        for n in ["Golden Rules en", "Golden Rules others", "EWT", "PUD", "pySBD", "segtok", "syntok", "UD treebanks"]:
            for how in ("given", "guessed"):
                cells = []
                for part in ("dev", "sealed"):
                    for who in ("api", "inproc"):
                        t = groups[(who, how, n, part)]
                        cells.append("%.1f %% of %d" % (t.exact_pct(), t.cases) if n.startswith("Golden") else "F1 %.4f" % t.f1())
                print("| %s | %s | %s |" % (n, how, " | ".join(cells)))
        print("\nAPI output differs from in-process: %d (case, language given or guessed) pairs" % len(sdiffs))
        for how, c, g, e, ig in sdiffs[:a.max_diffs]:
            print("- [%s] %s:%d %s in=%s\n    api=%s%s\n    in-process=%s" % (
                how, c["_file"], c["_line"], c["lang"], short(c["input"]), short(g), " err=" + e if e else "", short(ig)))

    if a.langs:
        check_langs(cl)
    if a.variants:
        if any(c["_kind"] == "normalize" for c in cases):
            norm_variants(cl, cases, results, a.workers)
        if segs:
            seg_variants(cl, cases, results, a.workers)


if __name__ == "__main__":
    sys.exit(main())
