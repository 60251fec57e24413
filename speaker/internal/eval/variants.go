package main

import "github.com/sottolabs/sotto/speaker/internal/parts"

// partsVariants are the fusion variants -partsscore scores; taus names
// the stored extra prior weights (Parts.Extra).
func partsVariants(taus []string) []variant {
	return []variant{{"v7", v7Side}}
}

var _ = parts.Of
