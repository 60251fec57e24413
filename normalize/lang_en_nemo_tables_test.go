package normalize_test

import (
	"context"
	"testing"

	"github.com/sottolabs/sotto/normalize"
)

// TestEnglishNeMoTables samples the rows of data/en.tsv completed from
// NeMo-text-processing's English data files (issue 10): each case reads a
// row the grammar had no way to know before, so it fails when the table is
// not read, and a neighbouring case shows the rule's limit.
func TestEnglishNeMoTables(t *testing.T) {
	tests := []struct{ name, mode, in, want string }{
		// [abbreviations]: the TTS whitelist's head and tail.
		{"whitelist several tokens", "tn", "Your a/c number is here", "Your account number is here"},
		{"whitelist apostrophe", "tn", "int'l flights", "international flights"},
		{"whitelist chemical", "tn", "SnO2 layers", "tin four oxide layers"},
		{"whitelist word", "tn", "the HVAC unit", "the H-vac unit"},
		{"whitelist starting with a number", "tn", "my 401(k) plan", "my four oh one k plan"},
		{"whitelist spaced form", "tn", "a 401 (k) plan", "a four oh one k plan"},
		{"whitelist hyphenated number", "tn", "a 3-D movie", "a three d movie"},
		{"whitelist symbol inside", "tn", "C# code", "c sharp code"},
		{"whitelist joined words", "tn", "DevOps teams", "dev ops teams"},
		{"whitelist lower-case variant", "tn", "servicenow tickets", "service now tickets"},
		{"governor in lower case", "tn", "Gov. Smith spoke", "governor Smith spoke"},
		{"junior without its period", "tn", "Martin Luther King Jr", "Martin Luther King junior"},
		// Year suffixes (NeMo's date/year_suffix.tsv), not scale words.
		{"era without its last period", "tn", "in 500 b.c", "in five hundred BC"},
		{"spaced era", "tn", "in 100 B. C", "in one hundred BC"},
		{"a b after a number is still billions", "tn", "$3 b", "three billion dollars"},
		// [acronyms]: letter strings written in capitals.
		{"lower-case acronym", "tn", "the acq team", "the ACQ team"},
		{"mixed-case acronym", "tn", "AfDB loans", "AFDB loans"},
		{"acronym plural", "tn", "two DVDs", "two DVD's"},
		{"a name is no acronym", "tn", "Abhi went home", "Abhi went home"},
		{"a word is no acronym", "tn", "the cis form", "the cis form"},
		{"label of a dotted name", "tn", "BioLib.cz", "BioLib.cz"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := normalize.Normalize(context.Background(), tt.in, normalize.Options{Language: "en", Mode: normalize.Mode(tt.mode)})
			if err != nil {
				t.Fatalf("Normalize(%q): %v", tt.in, err)
			}
			if got := res.Best(); got != tt.want {
				t.Errorf("Normalize(%s %q) = %q; want %q", tt.mode, tt.in, got, tt.want)
			}
		})
	}
}
