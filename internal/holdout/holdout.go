// Package holdout seals a fixed part of every shared test suite away from
// tuning. A case is sealed when a hash of its input says so; the split never
// changes, so figures on the sealed part stay an honest estimate of how rules
// fare on text nobody tuned them on. Develop on the cases where Sealed is
// false; report both figures.
package holdout

import "hash/fnv"

// Percent is the share of cases sealed.
const Percent = 30

// Sealed reports whether the case with this input belongs to the sealed
// part: FNV-1a (32 bit) of the input's bytes, modulo 100, below [Percent].
func Sealed(input string) bool {
	h := fnv.New32a()
	h.Write([]byte(input))
	return h.Sum32()%100 < Percent
}

// Part names the part a case belongs to: "sealed" or "dev".
func Part(input string) string {
	if Sealed(input) {
		return "sealed"
	}
	return "dev"
}
