package tokenizer

import (
	"math"
	"strings"
)

func float32frombits(b uint32) float32 { return math.Float32frombits(b) }

func replaceSpaces(s string) string { return strings.ReplaceAll(s, " ", "▁") }
