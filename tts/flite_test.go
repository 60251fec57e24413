package tts

import (
	"strings"
	"testing"
)

func TestFliteText(t *testing.T) {
	for in, want := range map[string]string{
		"The meeting starts at nine thirty AM on Monday.": "The meeting starts at nine thirty A M on Monday.",
		"at ten AM.":           "at ten A M.",
		"AM":                   "A M",
		"(AM)":                 "(A M)",
		"AM, PM and AMEX":      "A M, PM and AMEX",
		"I AM here; I'AM; XAM": "I A M here; I'AM; XAM",
		"AMAM 5AM AM5":         "AMAM 5AM AM5",
		"no capitals here am":  "no capitals here am",
		"AMé AM":               "AMé A M",
	} {
		if got := fliteText(in); got != want {
			t.Errorf("fliteText(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzFliteText(f *testing.F) {
	f.Add("at ten AM.")
	f.Add("AMAM AM")
	f.Add("at \uff21\uff2d \u212bM a\u0301M \u200dAM\ufeff AM\u0301")
	f.Fuzz(func(t *testing.T, s string) {
		got := fliteText(s)
		if strings.ReplaceAll(got, " ", "") != strings.ReplaceAll(s, " ", "") {
			t.Fatalf("fliteText(%q) = %q: more than spaces changed", s, got)
		}
	})
}
