package normalize

import (
	"strings"
	"unicode/utf8"
)

// Electronic addresses (e-mail, URLs) for the languages built on latin:
// the spoken names of the symbols differ, the detection does not.

type elecLang struct {
	// spoken maps spoken symbol names (one to three words) to the symbol.
	spoken map[string]string
	// say maps a symbol to its spoken name for TN.
	say map[string]string
	// keep lists letter runs read as words in TN; others are spelled.
	keep map[string]bool
	// spellAs rewrites some runs in TN ("gmail" → "g mail").
	spellAs map[string]string
	// tld lists letter runs read as words in TN only as a domain's part
	// after a dot ("punkt info"), not in a user name or an @-handle.
	tld map[string]bool
}

func (L *latin) electronicTN(e *elecLang) matcher {
	return func(s *stream, i int) []match {
		if !s.startOK(i) || s.kind(i) != tWord && s.kind(i) != tNum && !s.is(i, "@") {
			return nil
		}
		end, ok := enElectronicEnd(s, i)
		if !ok && !s.is(i, "@") {
			return nil
		}
		if end <= i+1 {
			return nil
		}
		src := s.span(i, end)
		low := strings.ToLower(src)
		isURL := strings.HasPrefix(low, "http://") || strings.HasPrefix(low, "https://") || strings.HasPrefix(low, "www.")
		isMail := strings.Count(src, "@") == 1
		if !isURL && !isMail {
			host, _, _ := strings.Cut(low, "/")
			dot := strings.LastIndexByte(host, '.')
			if dot < 0 || !enTLD[host[dot+1:]] {
				return nil
			}
		}
		var ws []string
		domainFrom := i + 1 // a bare domain or URL: every part after a dot
		if strings.Contains(src, "@") {
			domainFrom = end // an @-handle: no domain
			for k := i + 1; k < end; k++ {
				if s.is(k, "@") {
					domainFrom = k + 1 // an e-mail: the parts after "@"
				}
			}
		}
		for k := i; k+1 < end; k++ {
			if strings.EqualFold(s.text(k), "www") && s.is(k+1, ".") {
				domainFrom = k + 2 // "www." is the protocol's
				break
			}
		}
		for k := i; k < end; k++ {
			t := s.text(k)
			switch s.kind(k) {
			case tNum:
				ws = append(ws, L.digits(t))
			case tWord:
				lt := strings.ToLower(t)
				switch {
				case e.spellAs[lt] != "":
					ws = append(ws, e.spellAs[lt])
				case e.keep[lt], e.tld[lt] && k > domainFrom && s.is(k-1, "."):
					ws = append(ws, lt)
				default:
					ws = append(ws, strings.Join(strings.Split(lt, ""), " "))
				}
			default:
				if w, ok := e.say[t]; ok {
					ws = append(ws, w)
				} else {
					ws = append(ws, t)
				}
			}
		}
		return one(end, Electronic, strings.Join(ws, " "))
	}
}

func (L *latin) electronicITN(e *elecLang) matcher {
	return func(s *stream, i int) []match {
		if s.kind(i) != tWord || !s.startOK(i) {
			return nil
		}
		ws, idx := s.words(i, 60)
		// Cheap rejection: an address needs a spoken dot.
		hasDot := false
		for _, w := range ws {
			if e.spoken[w] == "." {
				hasDot = true
				break
			}
		}
		if !hasDot {
			return nil
		}
		// A one-letter preposition or conjunction before a word that is no
		// spelled letter, digit or symbol is not part of the address: "escribe a
		// juan punto …", "écris à jean punto …" (the address starts after it).
		if len(ws) > 1 && elecLetterWords[ws[0]] && utf8.RuneCountInString(ws[1]) > 1 && e.spoken[ws[1]] == "" {
			if ent, digit := L.lex.words[ws[1]]; !digit || ent.kind != kUnit { // "a uno b dos arroba …" is spelled
				return nil
			}
		}
		var b strings.Builder
		k := 0
		at, dots, long := 0, 0, 0
		lastDot := -1
		for k < len(ws) {
			// spoken symbols of up to three words
			matched := false
			for n := min(3, len(ws)-k); n >= 1; n-- {
				if sym, ok := e.spoken[strings.Join(ws[k:k+n], " ")]; ok {
					if sym == "@" {
						if at > 0 || b.Len() == 0 {
							break
						}
						at++
					}
					if sym == "." {
						dots++
						lastDot = k
					}
					if sym == "w" && b.Len() > 0 && !strings.HasSuffix(b.String(), "w") && !strings.HasSuffix(b.String(), "/") {
						break
					}
					b.WriteString(sym)
					k += n
					matched = true
					break
				}
			}
			if matched {
				continue
			}
			w := ws[k]
			if ent, ok := L.lex.words[w]; ok && ent.kind == kUnit && utf8.RuneCountInString(w) > 1 {
				b.WriteByte(byte('0' + ent.val))
				k++
				continue
			}
			if utf8.RuneCountInString(w) == 1 {
				b.WriteString(s.text(idx[k] - 1))
				k++
				continue
			}
			if at == 0 && long > 0 && b.Len() > 0 && !strings.HasSuffix(b.String(), ".") {
				break
			}
			long++
			b.WriteString(s.text(idx[k] - 1))
			k++
			if lastDot == k-2 {
				if _, isSym := e.spoken[ws[min(k, len(ws)-1)]]; k >= len(ws) || !isSym && utf8.RuneCountInString(ws[k]) > 1 {
					break
				}
			}
		}
		out := b.String()
		if dots == 0 || lastDot < 0 || lastDot+1 >= k || strings.HasSuffix(out, ".") || strings.HasPrefix(out, ".") {
			return nil
		}
		out = lowerSpelledScheme(ws, out)
		tld := out[strings.LastIndexByte(out, '.')+1:]
		if t, _, _ := strings.Cut(tld, "/"); !enTLD[strings.ToLower(t)] && at == 0 && !strings.HasPrefix(out, "http") && !strings.HasPrefix(out, "www") {
			return nil
		}
		return one(idx[k-1], Electronic, out)
	}
}

// lowerSpelledScheme writes a scheme or "www" that begins a spoken address
// letter by letter in lower case, however its letters were capitalised
// ("H t t p colon slash slash …" → "http://…", "W W W punto …" → "www.…"),
// as NeMo's cased electronic cases write them; the rest of out keeps its
// case ("A b c at …" → "Abc@…"). ws are the address's words, lower case.
func lowerSpelledScheme(ws []string, out string) string {
	for _, p := range []string{"https", "http", "ftp", "www"} {
		sep := byte(':')
		if p == "www" {
			sep = '.'
		}
		if len(ws) < len(p) || len(out) <= len(p) || !strings.EqualFold(out[:len(p)], p) || out[len(p)] != sep {
			continue
		}
		spelled := true
		for j := range len(p) {
			if ws[j] != p[j:j+1] {
				spelled = false
				break
			}
		}
		if spelled {
			return p + out[len(p):]
		}
	}
	return out
}

var deElec = elecFromLexicon("de")

var esElec = elecFromLexicon("es")

var ptElec = elecFromLexicon("pt")

var frElec = elecFromLexicon("fr")

// elecLetterWords are one-letter words of the Latin-script languages
// ("a", "à", "y", "o", "e", "u") that a spoken address never starts with
// when a whole word follows.
var elecLetterWords = wordSet("a à y o e u")
