package g2p

// This file is data: the IPA → ARPAbet table, the per-language overrides
// and the articulatory features behind the fallback. Keys are Segment
// symbols (see SplitIPA) or, for merged units, the concatenation of up to
// three consecutive symbols. An empty value deletes the unit.

// ipaTable maps IPA symbols and merged sequences to ARPAbet phones.
var ipaTable = map[string][]string{
	// Open and near-open vowels.
	"a": {"AA"}, "ä": {"AA"}, "ɑ": {"AA"}, "ɒ": {"AA"}, "æ": {"AE"}, "ɶ": {"AE"},
	// Central and mid vowels.
	"ɐ": {"AH"}, "ə": {"AH"}, "ʌ": {"AH"}, "ɜ": {"AH"}, "ɵ": {"AH"}, "ɤ": {"AH"}, "ɘ": {"AH"}, "ɞ": {"AH"},
	"ɚ": {"ER"}, "ɝ": {"ER"}, "ø": {"ER"}, "œ": {"ER"}, "i.": {"ER"},
	"ɔ": {"AO"}, "ɛ": {"EH"}, "e̞": {"EH"}, "e": {"EY"}, "o": {"OW"}, "o̞": {"OW"},
	// Close vowels.
	"ɪ": {"IH"}, "ᵻ": {"IH"}, "ɨ": {"IH"}, "ʏ": {"IH"}, "i": {"IY"}, "y": {"IY"},
	"ʊ": {"UH"}, "u": {"UW"}, "ɯ": {"UW"}, "ʉ": {"UW"},
	// Diphthongs.
	"aɪ": {"AY"}, "ai": {"AY"}, "äi": {"AY"}, "ɑɪ": {"AY"}, "ɑi": {"AY"}, "ae": {"AY"}, "aj": {"AY"},
	"aʊ": {"AW"}, "au": {"AW"}, "ɑʊ": {"AW"}, "ɑu": {"AW"}, "ao": {"AW"}, "äu": {"AW"},
	"eɪ": {"EY"}, "ei": {"EY"}, "ɛɪ": {"EY"}, "e̞i": {"EY"}, "ej": {"EY"},
	"oʊ": {"OW"}, "əʊ": {"OW"}, "ou": {"OW"}, "o̞ʊ": {"OW"}, "o̞u": {"OW"},
	"ɔɪ": {"OY"}, "ɔʏ": {"OY"}, "ɔø": {"OY"}, "oi": {"OY"}, "ɔy": {"OY"}, "ɔi": {"OY"}, "oj": {"OY"},
	// Stops.
	"p": {"P"}, "b": {"B"}, "t": {"T"}, "d": {"D"}, "k": {"K"}, "c": {"K"}, "q": {"K"},
	"g": {"G"}, "ɡ": {"G"}, "ɟ": {"G"}, "ɢ": {"G"}, "ʈ": {"T"}, "ɖ": {"D"},
	"ɓ": {"B"}, "ɗ": {"D"}, // implosives (vi)
	// Affricates.
	"tʃ": {"CH"}, "tɕ": {"CH"}, "tʂ": {"CH"}, "ts.": {"CH"}, "cç": {"CH"},
	"dʒ": {"JH"}, "dʑ": {"JH"}, "dʐ": {"JH"}, "dz.": {"JH"}, "ɟʝ": {"JH"},
	"ts": {"T", "S"}, "dz": {"D", "Z"}, "pf": {"P", "F"}, "tθ": {"T", "TH"}, "dð": {"D", "DH"},
	// Fricatives.
	"f": {"F"}, "ɸ": {"F"}, "v": {"V"}, "ʋ": {"V"}, "β": {"B"}, "θ": {"TH"}, "ð": {"DH"},
	"s": {"S"}, "z": {"Z"}, "ʃ": {"SH"}, "ɕ": {"SH"}, "ʂ": {"SH"}, "ç": {"SH"}, "ɧ": {"SH"}, "s.": {"SH"},
	"ʒ": {"ZH"}, "ʑ": {"ZH"}, "ʐ": {"ZH"}, "z.": {"ZH"}, "ʝ": {"Y"},
	"h": {"HH"}, "ɦ": {"HH"}, "x": {"HH"}, "χ": {"HH"}, "ħ": {"HH"}, "ʕ": {"HH"}, "ɣ": {"G"},
	// Nasals.
	"m": {"M"}, "ɱ": {"M"}, "n": {"N"}, "ɴ": {"N"}, "ɳ": {"N"}, "ŋ": {"NG"},
	"ɲ": {"N", "Y"},
	// Liquids and glides.
	"l": {"L"}, "ɫ": {"L"}, "ɭ": {"L"}, "ʎ": {"L", "Y"},
	"r": {"R"}, "ɾ": {"R"}, "ɹ": {"R"}, "ɻ": {"R"}, "ɽ": {"R"}, "ʀ": {"R"}, "ʁ": {"R"}, "ɺ": {"R"},
	"w": {"W"}, "ʍ": {"W"}, "ɰ": {"W"}, "j": {"Y"}, "ɥ": {"Y"},
	// Glottal stop: no English phone.
	"ʔ": {},
}

// alternates are the second choices for symbols whose mapping is a
// judgement call (research note §6); see Mapping.Alternate.
var alternates = map[string][]string{
	"x": {"K"}, "χ": {"K"}, "ç": {"HH"},
	"y": {"UW"}, "ʏ": {"UH"}, "ø": {"EH"}, "œ": {"EH"},
	"e": {"EH"}, "o": {"AO"}, "β": {"V"}, "ɣ": {"HH"},
}

// langOverrides replaces ipaTable entries per base language. A key ending
// in U+0303 matches a nasalised segment and replaces the vowel+N rule.
var langOverrides = map[string]map[string][]string{
	"en": {
		"ɾ": {"T"},  // American flap: butter
		"ɜ": {"ER"}, // ɜː: bird
		"ɐ": {"AH"},
	},
	"ja": {
		"u\u0303": {"N"}, // moraic ン before a labial
		"i\u0303": {"N"},
		"ɯ\u0303": {"N"},
		"ɸ":       {"F"},
	},
	"sv": {
		"sx": {"SH"}, // sj-sound, printed as two segments
		"ɵ":  {"UH"},
	},
	"zh": {
		"ɜ":       {}, // tone-35 artefact of the cmn-latn-pinyin voice
		"ər":      {"ER"},
		"i\u032A": {"IH"}, // apical vowel of zi, ci, si
		"nɡ":      {"NG"}, // -ong is printed nɡ
		"ng":      {"NG"},
		"ɤ":       {"AH"},
	},
}

// Articulatory features for the fallback. Consonant place runs from the
// lips (0) to the glottis (10); vowel height from open (0) to close (6),
// backness from front (0) to back (4).
type manner uint8

const (
	mStop manner = iota + 1
	mAffricate
	mFricative
	mNasal
	mRhotic
	mLateral
	mApproximant
)

type consFeat struct {
	place  float64
	manner manner
	voiced bool
}

type vowelFeat struct {
	height, back float64
	round        bool
}

// phoneCons and phoneVowel give the features of the ARPAbet phones that
// the fallback may choose (the diphthongs AW AY OY are never chosen).
var phoneCons = map[string]consFeat{
	"P": {0, mStop, false}, "B": {0, mStop, true}, "T": {3, mStop, false}, "D": {3, mStop, true},
	"K": {7, mStop, false}, "G": {7, mStop, true}, "CH": {4, mAffricate, false}, "JH": {4, mAffricate, true},
	"F": {1, mFricative, false}, "V": {1, mFricative, true}, "TH": {2, mFricative, false}, "DH": {2, mFricative, true},
	"S": {3, mFricative, false}, "Z": {3, mFricative, true}, "SH": {4, mFricative, false}, "ZH": {4, mFricative, true},
	"HH": {10, mFricative, false}, "M": {0, mNasal, true}, "N": {3, mNasal, true}, "NG": {7, mNasal, true},
	"L": {3, mLateral, true}, "R": {4, mRhotic, true}, "W": {7, mApproximant, true}, "Y": {6, mApproximant, true},
}

var phoneVowel = map[string]vowelFeat{
	"IY": {6, 0, false}, "IH": {5, 1, false}, "EY": {4, 0, false}, "EH": {3, 0, false}, "AE": {1, 0, false},
	"AA": {0, 3, false}, "AO": {2, 4, true}, "OW": {4, 4, true}, "UH": {5, 3, true}, "UW": {6, 4, true},
	"AH": {3, 2, false}, "ER": {3, 2, true},
}

// ipaCons and ipaVowel give the features of IPA letters, whether or not
// ipaTable lists them; the fallback uses them for letters it does not.
var ipaCons = map[rune]consFeat{
	'p': {0, mStop, false}, 'b': {0, mStop, true}, 't': {3, mStop, false}, 'd': {3, mStop, true},
	'ʈ': {4.5, mStop, false}, 'ɖ': {4.5, mStop, true}, 'c': {6, mStop, false}, 'ɟ': {6, mStop, true},
	'k': {7, mStop, false}, 'g': {7, mStop, true}, 'ɡ': {7, mStop, true}, 'q': {8, mStop, false},
	'ɢ': {8, mStop, true}, 'ʡ': {9, mStop, false}, 'ʔ': {10, mStop, false},
	'ɓ': {0, mStop, true}, 'ɗ': {3, mStop, true}, 'ʄ': {6, mStop, true}, 'ɠ': {7, mStop, true}, 'ʛ': {8, mStop, true},
	'ʘ': {0, mStop, false}, 'ǀ': {2, mStop, false}, 'ǃ': {4, mStop, false}, 'ǂ': {6, mStop, false}, 'ǁ': {3, mLateral, false},
	'm': {0, mNasal, true}, 'ɱ': {1, mNasal, true}, 'n': {3, mNasal, true}, 'ɳ': {4.5, mNasal, true},
	'ɲ': {6, mNasal, true}, 'ŋ': {7, mNasal, true}, 'ɴ': {8, mNasal, true},
	'ʙ': {0, mRhotic, true}, 'r': {3, mRhotic, true}, 'ʀ': {8, mRhotic, true}, 'ⱱ': {1, mRhotic, true},
	'ɾ': {3, mRhotic, true}, 'ɽ': {4.5, mRhotic, true}, 'ɺ': {3, mRhotic, true}, 'ɹ': {4, mRhotic, true}, 'ɻ': {4.5, mRhotic, true},
	'ɸ': {0, mFricative, false}, 'β': {0, mFricative, true}, 'f': {1, mFricative, false}, 'v': {1, mFricative, true},
	'θ': {2, mFricative, false}, 'ð': {2, mFricative, true}, 's': {3, mFricative, false}, 'z': {3, mFricative, true},
	'ʃ': {4, mFricative, false}, 'ʒ': {4, mFricative, true}, 'ɕ': {5, mFricative, false}, 'ʑ': {5, mFricative, true},
	'ʂ': {4.5, mFricative, false}, 'ʐ': {4.5, mFricative, true}, 'ç': {6, mFricative, false}, 'ʝ': {6, mFricative, true},
	'x': {7, mFricative, false}, 'ɣ': {7, mFricative, true}, 'χ': {8, mFricative, false}, 'ʁ': {8, mFricative, true},
	'ħ': {9, mFricative, false}, 'ʕ': {9, mFricative, true}, 'h': {10, mFricative, false}, 'ɦ': {10, mFricative, true},
	'ʜ': {9, mFricative, false}, 'ʢ': {9, mFricative, true}, 'ɧ': {5, mFricative, false},
	'ɬ': {3, mFricative, false}, 'ɮ': {3, mFricative, true},
	'ʋ': {1, mApproximant, true}, 'j': {6, mApproximant, true}, 'ɰ': {7, mApproximant, true},
	'w': {7, mApproximant, true}, 'ʍ': {7, mApproximant, false}, 'ɥ': {6, mApproximant, true},
	'l': {3, mLateral, true}, 'ɭ': {4.5, mLateral, true}, 'ʎ': {6, mLateral, true}, 'ʟ': {7, mLateral, true}, 'ɫ': {3, mLateral, true},
}

var ipaVowel = map[rune]vowelFeat{
	'i': {6, 0, false}, 'y': {6, 0, true}, 'ɨ': {6, 2, false}, 'ʉ': {6, 2, true}, 'ɯ': {6, 4, false}, 'u': {6, 4, true},
	'ɪ': {5, 1, false}, 'ʏ': {5, 1, true}, 'ʊ': {5, 3, true}, 'ᵻ': {5, 2, false}, 'ᵿ': {5, 2, true},
	'e': {4, 0, false}, 'ø': {4, 0, true}, 'ɘ': {4, 2, false}, 'ɵ': {4, 2, true}, 'ɤ': {4, 4, false}, 'o': {4, 4, true},
	'ə': {3, 2, false}, 'ɚ': {3, 2, true},
	'ɛ': {2, 0, false}, 'œ': {2, 0, true}, 'ɜ': {2, 2, false}, 'ɞ': {2, 2, true}, 'ʌ': {2, 4, false}, 'ɔ': {2, 4, true},
	'æ': {1, 0, false}, 'ɐ': {1, 2, false},
	'a': {0, 0, false}, 'ɶ': {0, 0, true}, 'ä': {0, 2, false}, 'ɑ': {0, 4, false}, 'ɒ': {0, 4, true},
}
