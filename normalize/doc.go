// Package normalize converts text between its written and spoken forms in
// pure Go: text normalization (TN, "$5 on 1/2" → "five dollars on one half")
// and inverse text normalization (ITN, "twenty five kilograms" → "25 kg").
// It backs the built-in model Sotto/Skylark of POST /v1/text/normalizations;
// it needs no download, no model file and no cgo.
//
//	res, err := normalize.Normalize(ctx, "It costs $5 on 1/2.", normalize.Options{Language: "en"})
//	if err != nil { ... }
//	fmt.Println(res.Best())                  // It costs five dollars on one half.
//	for _, a := range res.Alternatives { ... } // other real readings, ranked
//
// # Results and provenance
//
// [Normalize] returns a [Result] that keeps the whole input in Text and up to
// Options.TopK ranked [Alternative] readings. Each alternative lists its
// changed [Span]s with the UTF-8 byte range over the original input
// (StartByte, EndByte, always on rune boundaries), the semiotic class, the
// source text and the output. Splicing each span's Output over its range of
// the input reproduces the alternative's Text exactly; text outside spans is
// never touched, so white space and punctuation survive as written (input
// not in Unicode NFC is read and written in NFC, see [Normalize]). Each
// line is read alone: no reading runs across a line break, and white space
// around a line or the whole text changes no reading. When a
// reading would glue onto a neighbouring letter ("4.4x"), the output carries
// the separating space itself. With Options.Spacing [SpacingSeparate] (what
// the default, [SpacingAuto], means for English TN), TN also sets
// conversions off from adjacent punctuation the way NeMo's normalizer does
// ("1!hello" → "one! hello"); a span then covers the punctuation it
// re-spaces.
//
// Each language's lexicon (units, currencies, scale words, months, time
// zones, abbreviations, symbols) is data: normalize/data/<tag>.tsv, one file
// per language in the format documented in normalize/data/README.md, read by
// both the TN and the ITN rules.
//
// Alternatives are genuinely different readings, not copies: "1/2" is "one
// half" or "january second", "St." is "saint" or "Street", "2024" is "twenty
// twenty four" or "two thousand twenty four". Every span offers its
// readings with a cost; the alternatives are the TopK cheapest combinations
// (rank 0 is the best reading everywhere, rank 1 changes the cheapest
// second choice, and so on). TopK 1 returns only the best. Keeping a
// stretch as written can itself be an alternative ("death-cup" beside
// "death cup"); such an alternative simply has no span there.
//
// # Modes, classes and languages
//
// Mode [TN] (the default) goes written → spoken, [ITN] spoken → written. The
// classes are listed in [AllClasses] (cardinal, ordinal, decimal, fraction,
// money, measure, date, time, telephone, electronic, roman, letters,
// whitelist, verbatim); Options.Classes restricts conversion to a subset.
//
// Languages with rules: English (en), German (de), Spanish (es), French (fr),
// Portuguese (pt) and Mandarin Chinese (zh), each with its lexicon in
// data/<lang>.tsv; cardinals, ordinals and years in 72 more languages come
// from CLDR's number rules. [Languages] lists them and [Capabilities] says
// which classes each converts per mode. Language tags are parsed with
// golang.org/x/text/language and matched on their base language ("en-GB" →
// en). Chinese is written in simplified characters unless the tag's script,
// given or likely, is Hant (zh-Hant, zh-TW, zh-HK, zh-MO): then TN and ITN
// write traditional ones (Hong Kong's forms for HK and MO), by the table of
// every character the rules write in data/zh.tsv; ITN reads both scripts
// under any zh tag, and a span written in traditional characters answers
// in them. The tag "und" chooses rules segment by segment: Han runs use the
// Chinese rules (ITN reading both scripts, as under zh), other runs are
// split at sentence ends and each sentence uses the Latin-script language
// whose function words it contains most (English on a tie).
//
// # Errors
//
// Bad options are [*sotto.Error] values the server maps to HTTP:
//
//   - 400 "normalization_invalid_request" with Param "language" (missing or
//     malformed tag), "mode", "top_k" (not an integer in 1..16), "classes"
//     (empty list) or "text" (missing, empty, over [MaxTextBytes] bytes; from
//     [Request.Validate]);
//   - 422 "normalization_language_unsupported" (Param "language") for a
//     well-formed tag without rules, e.g. "tlh";
//   - 422 "normalization_class_unsupported" (Param "classes") for a class the
//     language does not convert in that mode.
//
// [DecodeRequest] decodes and validates the HTTP body (unknown fields are a
// 400 with the field in Param; top_k is kept as a [Literal] so that 2.5 or
// "3" are reported with Param "top_k"); a model other than [ModelID] is a
// 404 "model_not_found". Normalize never panics on user input and returns an
// error wrapping ctx.Err() after cancellation.
//
// # Catalog entry
//
// [Capabilities] returns what the Sotto/Skylark catalog entry carries under
// x_sotto.normalization:
//
//	{
//	  "modes":   ["tn", "itn"],
//	  "classes": ["cardinal", "ordinal", ...],   // every class name
//	  "und":     true,                           // per-segment language choice
//	  "languages": [
//	    {"language": "de", "name": "German",
//	     "modes": {"tn": ["cardinal", "ordinal", ...], "itn": ["cardinal", ...]}},
//	    ...
//	  ]
//	}
//
// # Adding a language
//
// The core (tokenizer, span bookkeeping, longest-match selection, ranking,
// und segmentation) is language-independent; a language is one file that
// registers a rule set from its init function:
//
//	// inside package normalize
//	func init() {
//		register(&rules{
//			tag: "xx", name: "Xish", script: "Latn",
//			tn:  map[string]matcher{Cardinal: xxCardinalTN, ...},
//			itn: map[string]matcher{Cardinal: xxCardinalITN, ...},
//			score: stopScore(wordSet("function words of Xish")), // for und
//		})
//	}
//
// A matcher is func(s *stream, i int) []match: given the token stream of a
// segment and a token index, it returns candidate conversions that start at
// token i, each with an end token and one or more readings (text, class,
// cost). The core asks every matcher of every allowed class at each token,
// keeps the longest candidate, merges the readings of all candidates with that
// extent, sorts them by cost, and moves on after it. Matchers only read the
// stream; they must not panic, and they return nothing when unsure.
// Languages with a decimal comma and a lexicon-style number system reuse the
// generic matchers of the latin type (lang_latin.go) and the spoken-number
// parser numLex (numparse.go); see lang_de.go, lang_es.go, lang_fr.go and
// lang_pt.go.
// Nothing outside the new file changes, so languages can be added in
// parallel.
//
// # Conventions
//
// Where test suites disagree the rules follow NeMo text processing: English
// cardinals without "and" ("one hundred twenty three", the "and" form is the
// next alternative) but money with it; years in pairs ("nineteen oh five");
// German in NeMo's spaced form ("vier und zwanzig"); ITN outputs without
// thousands separators except in French ("42 259") and Chinese ("10,050",
// "1,100万"). Numbers glued to letters in German ("B2A23C") are left as
// written. White space outside spans is never changed, so a reading that
// would glue onto a neighbouring word carries its own separating space.
//
// # Accuracy
//
// The package is measured against the NeMo text processing and
// WeTextProcessing test suites in the shared test data (see
// [github.com/sottolabs/sotto/normalize/normalizetest] and
// `sotto-normalize --eval` / `--report`); figures are in
// docs/bench/normalize.md.
//
// # Concurrency
//
// All functions are safe for concurrent use by multiple goroutines; the rule
// tables are built once at init and never modified.
package normalize
