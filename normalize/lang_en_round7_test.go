package normalize_test

import "testing"

// TestEnglishRound7Rules covers the English rule gaps found by the seventh
// generalization round (testdata/generalize/round7/en_*.jsonl, class-file
// style), each with neighbouring inputs the rule must leave alone.
func TestEnglishRound7Rules(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// A word [electronic_words] reads otherwise is read so in a path
		// too, before the rule that spells a short label ending it.
		{"en file extension in a path", "en", tn, "https://example.com/photo.jpg", "HTTPS colon slash slash example dot com slash photo dot jpeg"},
		{"en file extension after www", "en", tn, "www.site.org/img/cat.jpg", "WWW dot site dot org slash img slash cat dot jpeg"},
		{"en file extension alone", "en", tn, "pic.jpg", "pic dot jpeg"},
		{"en short label ending a path still spelled", "en", tn, "www.ourdailynews.com/456-sm", "WWW dot ourdailynews dot com slash four five six dash SM"},
		{"en table word read as itself stays lower", "en", tn, "https://developer.nvidia.com/drive-sim", "HTTPS colon slash slash developer dot NVIDIA dot com slash drive dash sim"},
		// A hyphenated compound that is the whole text keeps its hyphen
		// (NeMo's word cases); in running text it is dropped (LibriTTS).
		{"en lone compound keeps hyphen", "en", tn, "x-ray", "x-ray"},
		{"en lone compound with period", "en", tn, "co-operate.", "co-operate."},
		{"en lone capitalized compound", "en", tn, "Check-in", "Check-in"},
		{"en compound in text drops hyphen", "en", tn, "He had an x-ray today.", "He had an x ray today."},
		{"en compound after a word drops hyphen", "en", tn, "two baking-tins", "two baking tins"},
		{"en lone prefix before number unchanged", "en", tn, "mid-70s", "mid seventies"},
		// A signed decimal without its leading zero reads "minus".
		{"en signed decimal without zero", "en", tn, "-.5", "minus point five"},
		{"en signed decimal without zero in text", "en", tn, "It fell -.75 today", "It fell minus point seven five today"},
		{"en signed decimal without zero and scale", "en", tn, "-.25 million", "minus point two five million"},
		{"en decimal without zero unsigned", "en", tn, ".5", "point five"},
		{"en signed decimal with zero", "en", tn, "-0.5", "minus zero point five"},
		// A vowel-less capital code joined to a number by a hyphen keeps
		// its letters, as NeMo's serials; alone or in text it is spelled.
		{"en initialism code keeps letters", "en", tn, "GPT-4", "GPT-four"},
		{"en initialism code in text", "en", tn, "the GPT-4 model", "the GPT-four model"},
		{"en initialism after number and hyphen", "en", tn, "12-GPS", "twelve-GPS"},
		{"en initialism alone spelled", "en", tn, "GPT", "g p t"},
		{"en initialism before a word spelled", "en", tn, "GPS-enabled", "g p s-enabled"},
		// The trunk 1 before a bracketed area code.
		{"en trunk one before bracketed area code", "en", tn, "1 (800) 555-0177", "one, eight hundred, five five five, zero one seven seven"},
		{"en trunk one glued to bracket", "en", tn, "1(800)555-0177", "one, eight hundred, five five five, zero one seven seven"},
		{"en trunk one in text", "en", tn, "I have 1 (212) 555-0147", "I have one, two one two, five five five, zero one four seven"},
		{"en one before a bracketed word stays", "en", tn, "page 1 (top)", "page one (top)"},
		{"en one before a bracketed number stays", "en", tn, "1 (2) 3", "one (two) three"},
		// ITN: a unit the table keeps as words (noitn) is kept whole, not
		// read as a shorter unit inside it.
		{"en itn miles per gallon stays words", "en", itn, "thirty miles per gallon", "30 miles per gallon"},
		{"en itn feet per second stays words", "en", itn, "twenty feet per second", "20 feet per second"},
		{"en itn miles alone written", "en", itn, "thirty miles", "30 mi"},
		{"en itn miles per hour written", "en", itn, "fifteen miles per hour", "15 mph"},
		{"en itn degrees celsius written", "en", itn, "forty five degrees celsius", "45 °C"},
		// ITN: "pounds" after a decimal amount without a scale is weight.
		{"en itn decimal pounds are weight", "en", itn, "four point two pounds", "4.2 lb"},
		{"en itn decimal pounds with scale are money", "en", itn, "two point five billion pounds", "£2.5 billion"},
		{"en itn pounds with pence are money", "en", itn, "four pounds twenty", "£4.20"},
		{"en itn whole pounds are money", "en", itn, "three pounds", "£3"},
		{"en itn decimal dollars stay money", "en", itn, "twenty point five dollars", "$20.5"},
	})
}
