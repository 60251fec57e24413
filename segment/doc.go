// Package segment splits text into sentences, paragraphs and timed cues, in
// pure Go, for the spec's POST /v1/text/segmentations and for the sentence
// and cue output of alignment.
//
//	sents, err := segment.Sentences(ctx, "Dr. Smith arrived at 5 p.m. He left.", segment.Options{})
//	// ["Dr. Smith arrived at 5 p.m.", "He left."]
//
//	text := "First paragraph. Still the first.\n\nSecond paragraph."
//	res, err := segment.Text(ctx, text, segment.Options{ParagraphThreshold: segment.Float(0.5)})
//
//	timed := []segment.Cue{{Text: "Hello there. How are you today?", Start: 0, End: 2.5}}
//	cues, err := segment.Cues(ctx, timed, segment.Options{Length: &segment.Length{MinChars: 12, MaxChars: 42}})
//
// # Scores and thresholds
//
// Every candidate boundary (a stop and what follows it, a line break, a list
// marker, a pause, a change of speaker) gets a score in [0, 1], and
// [Options].Threshold (default [DefaultThreshold], 0.35) keeps those scoring
// at least that much. Lower splits more; 0 splits at every candidate; 1 keeps
// only certain boundaries (a blank line, a change of speaker). Raising the
// threshold never adds a boundary, because scores do not depend on it.
//
// Sentence scores come from rules over the text around each stop:
// abbreviation lists per language (English, German, French, Spanish,
// Italian, Portuguese, Russian, Ukrainian, Danish, Dutch, Polish, Slovak,
// Czech, Finnish, Hungarian, Turkish, Bulgarian, Greek, Hindi, Marathi, with "and so on" in each ("etc." "ecc."
// "usw." "и т. д.") ending a sentence before a capital, titles such as "Mr."
// that never end a sentence, and numbered references such as "p." "Abb."
// "pág." "рис." that bind to a following number, also in Bulgarian, Polish,
// Slovak, Greek, Hindi and Marathi), completed by CLDR's sentence-break
// suppressions for German, English, Spanish, French, Italian, Portuguese and
// Russian (data/cldr-suppressions.txt; a listed abbreviation that is a word
// of the language, such as Spanish "no" or "mar" or Danish "det", ends
// sentences there) and by the per-language lists of pragmatic_segmenter and
// pySBD for Arabic, Bulgarian, Danish, Dutch, English, French, German,
// Italian, Kazakh, Polish, Russian, Slovak and Spanish (which bind before a
// lower-case word, a digit or a caseless script, not before a capital, and
// not written in capitals: "NATO." ends a sentence); all the lists are one
// data file, data/abbreviations.tsv, initials, multi-period abbreviations ("U.S.A."),
// also in scripts that write vowels as signs ("ए. पी. जे.", "कि.मी."; where a
// text ends its sentences with the danda, a period after a Devanagari
// letter is always an abbreviation's),
// numbers (a one-letter unit after a number ends a sentence before a
// capital, "1,85 m. Son"; so does a currency, "50 грн. Діти", a unit of
// time, "10 ч. Моля", a numbered-reference abbreviation after its number,
// "5 т. Машина", and the hour before or after noon, "5 p.m.", "8 μ.μ."; the
// abbreviations of "year", "1990 r.", "1812 г.", only before a sentence
// starter), an abbreviation after an elided article ("l'avv. Verdi"),
// ellipses, quotes and brackets after the stop, open quotations,
// list items (bullets of every common glyph, "•" "◦" "▪" "➢" "✓" …, run
// together on a line or one per line; numbering "1." "1)" "(1)" "a." "(b)"
// "iv." "II." "б)" "β." in sequences, whose items stay one sentence when
// joined by commas or "and"; at a line start also "一、" "（1）" "1、" "１．",
// and a script's full stop as the item's period, "1۔" "၁။" "१।"; day
// numbers before a month are dates, not items), numbered references ("p.
// 5", "Abb. 3", "рис. 2", "Satz 2") per language, URLs and e-mail
// addresses, a sentence in brackets of its own ("(See below.)",
// "（詳しくは後述。）"), missing spaces ("home.Then", "in 2019.The",
// "3-1.Los", "30-35%.Then", "King.....But", and in scripts without case
// "افتاد.همه", "घडले.सगळे"), stops spaced off their sentence ("parrots?
// ?"), line breaks (a line that ends with an article, preposition or
// conjunction wraps: "aus einem\nDokument"), lower-case starts, and the
// full-width stops of Chinese and Japanese (。！？) that need no space, and in
// Japanese a polite sentence-final form ("…でした", "…います") that the next
// sentence follows without a stop. Abbreviations missing from the lists are
// learned from the document itself, Punkt-style: a short word seen only with
// a period, and followed by a lower-case word, is an abbreviation. The
// language is guessed from the script, letters proper to one or two
// languages and common words unless [Options].Language names it (the
// endpoint has no language field, so it always guesses); Latin-script text
// without evidence is taken as English. With the language guessed, a title
// of any language ("Skt.", "Dhr.") still binds to the name after it, and a
// numbered reference of any language ("cap. 3", "str. 15") to its number.
//
// In Arabic the comma (،) is a boundary weaker than a stop (0.5), except
// between the items of an enumeration: before a word that is itself
// followed by a comma. Persian and Urdu, which use the same comma, do not
// split at it.
//
// Web and e-mail text often loses the line breaks that ended its units, so
// some boundaries are found at plain word gaps: around a date-time stamp of
// a mail header ("Ann Lee 06/02/2001 10:53 AM Please …"), after an e-mail
// address or URL followed by a capitalised word, around rule lines
// ("-----") and a signature delimiter, after an emoticon or a chat tag
// ("lol"), around a URL introduced by a colon, before a mail header label
// ("Sent by:"), at repeated table rows, after attachment file names and,
// in English, after a sign-off ("Thanks,", "Best regards,") before a name
// and after the name before a lower-case word, after a salutation
// ("Louise,", "Hi Sara,") before a sentence, before a salutation that ends
// its line ("… provide. Sid | Vincent,"), after a clause and a colon
// before a sentence ("… a political party: On the same day …"), and before
// a clause opener written with a capital after a lower-case word ("… from
// that They sell …"). In any language, a quotation broken off with a dash
// ends the sentence before a capitalised word ("sir--\" The Rabbit").
//
// # Paragraphs
//
// With [Options].ParagraphThreshold set (at least the sentence threshold),
// each result item is a paragraph and [Result].Text joins them with a blank
// line. A blank line is a certain paragraph break; a single line break is a
// strong one in text that never uses blank lines; elsewhere the score is the
// depth of a dip in lexical cohesion between the windows of sentences on
// either side (TextTiling). For timed input ([Cues]), a change of speaker
// always starts a paragraph and a pause of more than a second is evidence
// for one.
//
// # Timed input and cues
//
// [Cues] re-segments timed segments (text, start, end, optional speaker and
// words). Times come from words where given and are otherwise interpolated by
// characters of the text read in NFC. A change of speaker is always a
// boundary; a pause between words raises the score of a boundary there. With
// [Options].Length, items longer than MaxChars characters (of the NFC
// reading, as [Text] counts them) are split at the best-scored word gaps
// (punctuation, conjunctions, pauses), never inside a word, and items
// shorter than MinChars
// are merged with a neighbour of the same speaker when they fit. With
// [Options].Margins, cues are padded without overlapping a neighbour or
// leaving the media. [Words] does the same for a bare stream of aligned
// words; [WriteSRT] and [WriteVTT] write cues as subtitles.
//
// # Subtitles
//
// [Subtitles] lays sentence or segment cues out as subtitle viewers expect:
// by default ([DefaultSubtitleOptions]) lines of at most 42 columns, two
// lines and seven seconds a cue. Breaks fall after stops and clause
// punctuation, before conjunctions and prepositions, not after articles,
// with balanced lines; a long sentence becomes several cues, timed from its
// words when it has them and by characters otherwise. Wide (CJK) characters
// count two columns. The CLIs' srt and vtt output uses it; JSON output is
// not laid out (the endpoint's length fields stay off unless sent).
//
// # The endpoint
//
// [DecodeRequest] reads the JSON body, [Request.Validate] applies the
// spec's rules (one of text, segments or file; file only on the desktop
// gateway; ranges; paragraph_threshold at least threshold;
// semantic_sentence_enabled rejected; a top-level field wins over options),
// and [Segment] runs it. Length constraints are off unless a length field is
// supplied; supplying one also turns on the default margins. Errors are
// [*sotto.Error] values of kind [sotto.ErrInvalidRequest] with code
// "bad_request" and the offending param.
//
// Every function is safe for concurrent use and checks its context while it
// works.
package segment
