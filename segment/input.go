package segment

import (
	"sort"

	"github.com/sottolabs/sotto/internal/nfc"
)

// The segmenter's tables (abbreviations, starters, list markers, the
// Japanese sentence ends) are written in composed text, so it decides on the
// input read in Unicode NFC and returns the input as it was sent: decomposed
// text ("Ja\u0308n." as macOS and some editors write it) gives the
// sentences composed text gives, each in the bytes the caller sent.

// readNFC returns text read in NFC (nfc.Read: one composing run, a
// character and the marks that follow it, at a time) and the runs it
// changed. A run holding a character that NFC replaces by another (a
// singleton such as the Greek question mark U+037E, read as ';', or a
// composition exclusion such as Devanagari U+095D) is kept as written: the
// tables know those characters as such. Text already in that form is
// returned as it is, with no runs and no copy.
func readNFC(text string) (string, []nfc.Run) {
	return nfc.Read(text)
}

// fromRead maps byte offset x of the read form to the input. An offset
// inside a changed run (between a letter and a mark NFC put apart from it,
// which no rule splits at in practice) goes to the run's end, so that ranges
// that meet at x still meet and keep every byte.
func fromRead(runs []nfc.Run, x int) int {
	in, _ := nfc.Ceil(runs, x)
	return in
}

// startFromRead maps byte offset x of the read form, where an item starts
// after trimmed white space, to the input text. It is fromRead, except that
// an offset inside a changed run whose read bytes before x are white space
// (a space and the marks after it that NFC reordered, " \u0301\u0323"
// read " \u0323\u0301") goes to the first mark of the run in the input, so
// that the item keeps the marks; fromRead would drop them.
func startFromRead(text, read string, runs []nfc.Run, x int) int {
	in, r := nfc.Floor(runs, x)
	if r == x {
		return in
	}
	if !allSpace(read[r:x]) {
		return fromRead(runs, x)
	}
	end, _ := spaceRun(text, in)
	return end
}

// snapToRuns moves the boundaries of read (bs, from sentenceBoundaries)
// that fall strictly inside a changed run, between a stop and the marks NFC
// reordered after it ("।\u0301\u0323"), to the run's end, where the item
// taken from the input ends anyway (fromRead): the lengths measured on the
// read form are then those of the items. A next offset after white space in
// the run (the marks open the next item) is left to startFromRead.
func snapToRuns(read string, bs []boundary, runs []nfc.Run) {
	for k := range bs {
		b := &bs[k]
		_, b.end = nfc.Ceil(runs, b.end)
		if _, r := nfc.Floor(runs, b.next); r < b.next && !allSpace(read[r:b.next]) {
			_, b.next = nfc.Ceil(runs, b.next)
		}
		b.next = max(b.next, b.end)
	}
}

// allSpace reports whether s is white space only.
func allSpace(s string) bool {
	for _, r := range s {
		if !isSpace(r) {
			return false
		}
	}
	return true
}

// readOffset maps byte offset x of the input to its read form (runs as
// readNFC returned them), the inverse of fromRead: an offset strictly inside
// a changed run goes to the run's read end when ceil is set, else to its
// read start.
func readOffset(runs []nfc.Run, x int, ceil bool) int {
	k := sort.Search(len(runs), func(k int) bool { return runs[k].InEnd > x })
	if k < len(runs) && runs[k].InStart < x {
		if ceil {
			return runs[k].ReadEnd
		}
		return runs[k].ReadStart
	}
	if k == 0 {
		return x
	}
	p := runs[k-1]
	return p.ReadEnd + x - p.InEnd
}

// readLen returns the number of characters of s read in NFC (nfc.Read).
func readLen(s string) int {
	read, _ := nfc.Read(s)
	return runeLen(read)
}
