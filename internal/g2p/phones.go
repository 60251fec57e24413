package g2p

import "slices"

// Silence is the name of the silence phone of the CMU Sphinx English model.
const Silence = "SIL"

// phoneSet is the 39 ARPAbet phones of the Debian CMU Sphinx en-us model
// (cmudict-en-us.dict without stress digits), sorted.
var phoneSet = []string{
	"AA", "AE", "AH", "AO", "AW", "AY", "B", "CH", "D", "DH",
	"EH", "ER", "EY", "F", "G", "HH", "IH", "IY", "JH", "K",
	"L", "M", "N", "NG", "OW", "OY", "P", "R", "S", "SH",
	"T", "TH", "UH", "UW", "V", "W", "Y", "Z", "ZH",
}

// Phones returns the 39 ARPAbet phones every pronunciation of this package
// is written in, sorted. [Silence] is not among them. The caller owns the
// returned slice.
func Phones() []string { return slices.Clone(phoneSet) }

// IsPhone reports whether p is one of [Phones] (upper case, no stress digit).
func IsPhone(p string) bool {
	_, ok := slices.BinarySearch(phoneSet, p)
	return ok
}

// isVowelPhone reports whether the ARPAbet phone p is a vowel.
func isVowelPhone(p string) bool {
	switch p {
	case "AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW":
		return true
	}
	return false
}
