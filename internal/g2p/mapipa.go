package g2p

import (
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// Mapping is the ARPAbet form of one IPA string, from [MapIPA].
type Mapping struct {
	// Phones are ARPAbet phones (see [Phones]); empty when nothing in the
	// input was a speech sound.
	Phones []string
	// Fallback lists the IPA symbols that had no table entry and were
	// mapped to the nearest phone by articulatory features, as
	// "symbol→PHONE". Callers should log them: each is a table gap.
	Fallback []string
	// Dropped lists letters with no table entry and no known features;
	// they contribute no phone.
	Dropped []string
	// Alternate is a second reading of the word when it contains symbols
	// whose mapping is a judgement call (x → K instead of HH, y → UW
	// instead of IY, ø → EH instead of ER, e → EH instead of EY, ...):
	// all of them take their alternative. Nil when there are none. The
	// aligner may offer it as a pronunciation variant and let the acoustic
	// score choose.
	Alternate []string
}

// BaseLanguage reduces a BCP 47 tag or espeak-ng voice name to the
// lower-case base language that keys the per-language rules: "en-US" →
// "en", "cmn-latn-pinyin" → "zh", "yue" → "zh", "nb" → "no".
func BaseLanguage(tag string) string {
	b, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
	b, _, _ = strings.Cut(b, "_")
	switch b {
	case "cmn", "yue", "zho", "chi":
		return "zh"
	case "jpn":
		return "ja"
	case "eng":
		return "en"
	case "nb", "nn", "nob", "nno":
		return "no"
	}
	return b
}

// MapIPA converts an IPA string (espeak-ng --ipa output for one word) to
// ARPAbet phones, applying the rules of the base language of lang (see
// [BaseLanguage]; "" applies none). It merges affricates and diphthongs,
// drops stress, length and tone, turns ʲ into a following Y and a nasal
// vowel into vowel+N, drops the glottal stop, maps symbols the table lacks
// by articulatory features, and collapses repeated phones. It is safe for
// concurrent use.
func MapIPA(lang, ipa string) Mapping { return MapSegments(lang, SplitIPA(ipa)) }

// unit is one or more merged segments that map as one table key.
type unit struct {
	key            string
	nasal, palatal bool
}

func lookup(lang, key string) ([]string, bool) {
	if o, ok := langOverrides[lang][key]; ok {
		return o, true
	}
	p, ok := ipaTable[key]
	return p, ok
}

// MapSegments is [MapIPA] for segments already cut by [SplitIPA].
func MapSegments(lang string, segs []Segment) Mapping {
	lang = BaseLanguage(lang)
	units := mergeUnits(lang, segs)
	m := mapUnits(lang, units, false)
	for _, u := range units {
		if _, ok := alternates[u.key]; ok {
			if _, over := langOverrides[lang][u.key]; !over {
				alt := mapUnits(lang, units, true)
				if !slices.Equal(alt.Phones, m.Phones) {
					m.Alternate = alt.Phones
				}
				break
			}
		}
	}
	return m
}

// mergeUnits merges segments into table units and applies the context
// rules of lang.
func mergeUnits(lang string, segs []Segment) []unit {
	// Merge affricates, diphthongs and language-specific digraphs: the
	// longest run of up to three segments with no boundary inside, no
	// length mark or nasal/palatal mark before its end, found in the table.
	var units []unit
	for i := 0; i < len(segs); {
		n := 1
		for m := min(3, len(segs)-i); m >= 2; m-- {
			ok := true
			var key strings.Builder
			for j := i; j < i+m; j++ {
				if j > i && segs[j].Boundary || j < i+m-1 && (segs[j].Long || segs[j].Marks != "") {
					ok = false
					break
				}
				key.WriteString(segs[j].Symbol)
			}
			if _, found := lookup(lang, key.String()); ok && found {
				n = m
				break
			}
		}
		var key strings.Builder
		for _, s := range segs[i : i+n] {
			key.WriteString(s.Symbol)
		}
		last := segs[i+n-1]
		units = append(units, unit{key.String(), last.Nasal(), last.Palatalized()})
		i += n
	}
	return applyRules(lang, units)
}

// mapUnits maps units to phones; alt takes the alternatives of the
// judgement-call symbols.
func mapUnits(lang string, units []unit, alt bool) Mapping {
	var m Mapping
	for _, u := range units {
		ph, nasalDone := m.mapUnit(lang, u)
		if a, ok := alternates[u.key]; ok && alt {
			if _, over := langOverrides[lang][u.key]; !over {
				ph = a
			}
		}
		if u.nasal && !nasalDone && len(ph) > 0 && isVowelPhone(ph[len(ph)-1]) {
			ph = append(ph, "N")
		}
		if u.palatal && len(ph) > 0 && ph[len(ph)-1] != "Y" {
			ph = append(ph, "Y")
		}
		for _, p := range ph {
			if n := len(m.Phones); n > 0 && m.Phones[n-1] == p {
				continue // repeated phones collapse: ɯᵝɯᵝ → UW
			}
			m.Phones = append(m.Phones, p)
		}
	}
	return m
}

// applyRules applies the context rules of lang to the merged units.
func applyRules(lang string, units []unit) []unit {
	out := units[:0]
	for i, u := range units {
		switch lang {
		case "ja":
			// Sokuon: espeak-ng writes the geminate before a voiceless stop or
			// sibilant as h (マッピルマ → mähpiɽɯma).
			if u.key == "h" && i+1 < len(units) && strings.ContainsAny(firstRune(units[i+1].key), "ptkcsʃɕ") {
				continue
			}
		case "zh":
			// Aspiration is a plain h after the stop or affricate.
			if u.key == "h" && len(out) > 0 {
				switch out[len(out)-1].key {
				case "p", "t", "k", "ts", "ts.", "tɕ", "tʂ", "tʃ", "c", "q":
					continue
				}
			}
		}
		out = append(out, u)
	}
	return out
}

func firstRune(s string) string {
	_, n := utf8.DecodeRuneInString(s)
	return s[:n]
}

var symbolMarkStripper = strings.NewReplacer(".", "", "\u031E", "", "\u032A", "")

// mapUnit maps one unit; nasalDone reports that an override already
// covered the nasalisation.
func (m *Mapping) mapUnit(lang string, u unit) (ph []string, nasalDone bool) {
	if u.nasal {
		if p, ok := lookup(lang, u.key+"\u0303"); ok {
			return p, true
		}
	}
	if p, ok := lookup(lang, u.key); ok {
		return p, false
	}
	// Without the symbol marks (retroflex dot, lowering sign).
	bare := symbolMarkStripper.Replace(u.key)
	if bare != u.key && bare != "" {
		if p, ok := lookup(lang, bare); ok {
			return p, false
		}
	}
	// Letter by letter, through the table or the features.
	for _, r := range bare {
		s := string(r)
		if p, ok := lookup(lang, s); ok {
			ph = append(ph, p...)
			continue
		}
		if p, ok := nearestPhone(r); ok {
			m.Fallback = append(m.Fallback, s+"→"+p)
			ph = append(ph, p)
			continue
		}
		m.Dropped = append(m.Dropped, s)
	}
	return ph, false
}

// nearestPhone returns the ARPAbet phone whose articulatory features are
// closest to those of the IPA letter r: for consonants |Δplace| +
// 3·(manner differs) + 1.5·(voicing differs), for vowels 2·|Δheight| +
// |Δbackness| + 0.5·(rounding differs). Ties go to the first phone in
// [Phones] order.
func nearestPhone(r rune) (string, bool) {
	best, bestCost := "", math.Inf(1)
	if f, ok := ipaCons[r]; ok {
		for _, p := range phoneSet {
			g, ok := phoneCons[p]
			if !ok {
				continue
			}
			c := math.Abs(f.place - g.place)
			if f.manner != g.manner {
				c += 3
			}
			if f.voiced != g.voiced {
				c += 1.5
			}
			if c < bestCost {
				best, bestCost = p, c
			}
		}
		return best, true
	}
	if f, ok := ipaVowel[r]; ok {
		for _, p := range phoneSet {
			g, ok := phoneVowel[p]
			if !ok {
				continue
			}
			c := 2*math.Abs(f.height-g.height) + math.Abs(f.back-g.back)
			if f.round != g.round {
				c += 0.5
			}
			if c < bestCost {
				best, bestCost = p, c
			}
		}
		return best, true
	}
	return "", false
}
