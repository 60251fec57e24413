package wer

import (
	"strings"
	"testing"
)

func TestErrors(t *testing.T) {
	tests := []struct {
		ref, hyp string
		want     int
	}{
		{"", "", 0},
		{"a b c", "a b c", 0},
		{"a b c", "", 3},
		{"", "a b", 2},
		{"a b c", "a x c", 1},
		{"a b c", "a c", 1},
		{"a b c", "a b b c", 1},
		{"ask not what your country", "ask what you country can", 3},
		{"a b c d", "d c b a", 4},
	}
	for _, tt := range tests {
		r, h := strings.Fields(tt.ref), strings.Fields(tt.hyp)
		if got := Errors(r, h); got != tt.want {
			t.Errorf("Errors(%q, %q) = %d; want %d", tt.ref, tt.hyp, got, tt.want)
		}
		if got := Errors(h, r); got != tt.want {
			t.Errorf("Errors(%q, %q) = %d; want %d (symmetric)", tt.hyp, tt.ref, got, tt.want)
		}
	}
}

func TestErrorsFunc(t *testing.T) {
	same := func(r, h string) bool { return strings.EqualFold(r, h) }
	if got := ErrorsFunc(strings.Fields("The Cat sat"), strings.Fields("the cat sat"), same); got != 0 {
		t.Errorf("case-folded = %d; want 0", got)
	}
	if got := Errors(strings.Fields("The Cat sat"), strings.Fields("the cat sat")); got != 2 {
		t.Errorf("exact = %d; want 2", got)
	}
}
