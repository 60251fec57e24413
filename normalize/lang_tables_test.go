package normalize_test

import "testing"

// TestTableEntries reads a sample of the entries each language's data file
// gained when its tables were completed from published grammar data
// (issue 10, task D: units, currencies, time zones, abbreviations and
// electronic words no earlier case used). Each case fails if its row is
// not read: without the row the written form stays as written, or the
// spoken words stay words. The cases are written from the table rows, not
// taken from the shared suites.
func TestTableEntries(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// de [units]: byte plurals (NeMo's suppletive table), grains,
		// drams, pico and deci units, megavolt and kilonewton beside
		// millivolt and knots
		{"de byte plural", "de", tn, "5 GB", "fünf gigabytes"},
		{"de byte singular", "de", tn, "1 GB", "ein gigabyte"},
		{"de byte plural back", "de", itn, "fünf gigabytes", "5 gb"},
		{"de kilobit", "de", tn, "7 kbit", "sieben kilobits"},
		{"de grain", "de", tn, "3 gr", "drei korn"},
		{"de dram", "de", tn, "2 dr", "zwei drachmen"},
		{"de picogram", "de", tn, "3 pg", "drei pikogramm"},
		{"de decisecond", "de", tn, "4 ds", "vier dezisekunden"},
		{"de decisecond back", "de", itn, "vier dezisekunden", "4 ds"},
		{"de megavolt", "de", tn, "2 MV", "zwei megavolt"},
		{"de millivolt stays", "de", tn, "2 mV", "zwei millivolt"},
		{"de kilonewton", "de", tn, "5 kN", "fünf kilonewton"},
		{"de knots stay", "de", tn, "12 kn", "zwölf knoten"},
		{"de kilonewton back", "de", itn, "fünf kilonewton", "5 kN"},
		{"de megaampere", "de", tn, "3 MA", "drei megaampere"},
		// de [electronic_words] `tld`: a top-level domain is a word after a
		// domain's dot, spelled in a user name or an @-handle
		{"de tld in an e-mail", "de", tn, "abc@gmail.info", "a b c at g mail punkt info"},
		{"de tld in a URL", "de", tn, "www.nvidia.gov", "w w w punkt nvidia punkt gov"},
		{"de tld spelled in a handle", "de", tn, "@jensen.me", "at j e n s e n punkt m e"},
		{"de tld spelled in a user name", "de", tn, "me@abc.me", "m e at a b c punkt me"},
		{"de tld spelled after www", "de", tn, "www.bio.info", "w w w punkt b i o punkt info"},
	})
}
