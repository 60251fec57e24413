package segment

import (
	"context"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The segmenter's tables (abbreviations, starters, list markers, the
// Japanese sentence ends) are written in composed text, so it decides on the
// input read in Unicode NFC and returns the input as it was sent: decomposed
// text ("Ja\u0308n." as macOS and some editors write it) gives the
// sentences composed text gives, each in the bytes the caller sent.

// nfcRun is one run of the input that reading in NFC changed: read-form
// bytes [rs, re) stand for input bytes [os, oe).
type nfcRun struct{ rs, re, os, oe int }

// readNFC returns text read in NFC, one composing run (a character and the
// marks that follow it) at a time, and the runs it changed, in order; outside
// them the two are byte for byte the same. A run holding a character that
// NFC replaces by another (a singleton such as the Greek question mark
// U+037E, read as ';', or a composition exclusion such as Devanagari U+095D)
// is kept as written: the tables know those characters as such. Text
// already in that form is returned as it is, with no runs and no copy.
func readNFC(text string) (string, []nfcRun) {
	q := norm.NFC.QuickSpanString(text)
	if q == len(text) {
		return text, nil
	}
	var b strings.Builder
	var runs []nfcRun
	for i := 0; ; {
		b.WriteString(text[i : i+q])
		if i += q; i == len(text) {
			break
		}
		j := i + firstRuneLen(text[i:])
		for j < len(text) && !norm.NFC.PropertiesString(text[j:]).BoundaryBefore() {
			j += firstRuneLen(text[j:])
		}
		run := text[i:j]
		if c := norm.NFC.String(run); c != run && !replacedByNFC(run) {
			runs = append(runs, nfcRun{rs: b.Len(), re: b.Len() + len(c), os: i, oe: j})
			b.WriteString(c)
		} else {
			b.WriteString(run)
		}
		i = j
		q = norm.NFC.QuickSpanString(text[i:])
	}
	if len(runs) == 0 {
		return text, nil
	}
	return b.String(), runs
}

// firstRuneLen is the byte length of the first rune of s (1 for a byte
// that is not UTF-8); s is not empty.
func firstRuneLen(s string) int {
	if s[0] < utf8.RuneSelf {
		return 1
	}
	_, n := utf8.DecodeRuneInString(s)
	return n
}

// replacedByNFC reports whether s holds a character that NFC writes as
// another character or sequence on its own.
func replacedByNFC(s string) bool {
	for _, r := range s {
		if r >= utf8.RuneSelf && !norm.NFC.IsNormalString(string(r)) {
			return true
		}
	}
	return false
}

// fromRead maps byte offset x of the read form to the input. An offset
// inside a changed run (between a letter and a mark NFC put apart from it,
// which no rule splits at in practice) goes to the run's end, so that ranges
// that meet at x still meet and keep every byte.
func fromRead(runs []nfcRun, x int) int {
	k := sort.Search(len(runs), func(k int) bool { return runs[k].re > x })
	if k < len(runs) && runs[k].rs < x {
		return runs[k].oe
	}
	if k == 0 {
		return x
	}
	p := runs[k-1]
	return p.oe + x - p.re
}

// boundariesNFC is sentenceBoundaries on s read in NFC, at byte offsets of
// s.
func boundariesNFC(ctx context.Context, s, lang string) ([]boundary, error) {
	read, runs := readNFC(s)
	bs, err := sentenceBoundaries(ctx, read, lang)
	if err != nil || runs == nil {
		return bs, err
	}
	for k := range bs {
		bs[k].end, bs[k].next = fromRead(runs, bs[k].end), fromRead(runs, bs[k].next)
	}
	return bs, nil
}
