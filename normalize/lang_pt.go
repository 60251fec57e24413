package normalize

import (
	"strconv"
	"strings"
)

// Portuguese rules (Brazilian spelling: "dezesseis", "bilhão").

var ptUnits = [...]string{"zero", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove",
	"dez", "onze", "doze", "treze", "catorze", "quinze", "dezesseis", "dezessete", "dezoito", "dezenove"}
var ptTens = [...]string{"", "", "vinte", "trinta", "quarenta", "cinquenta", "sessenta", "setenta", "oitenta", "noventa"}
var ptHundreds = [...]string{"", "cento", "duzentos", "trezentos", "quatrocentos", "quinhentos", "seiscentos",
	"setecentos", "oitocentos", "novecentos"}
var ptBig = [...][2]string{{}, {}, {"milhão", "milhões"}, {"bilhão", "bilhões"}, {"trilhão", "trilhões"},
	{"quatrilhão", "quatrilhões"}}

func pt99(n int) string {
	if n < 20 {
		return ptUnits[n]
	}
	if n%10 == 0 {
		return ptTens[n/10]
	}
	return ptTens[n/10] + " e " + ptUnits[n%10]
}

func pt999(n int) string {
	if n == 100 {
		return "cem"
	}
	h, r := n/100, n%100
	switch {
	case h == 0:
		return pt99(r)
	case r == 0:
		return ptHundreds[h]
	}
	return ptHundreds[h] + " e " + pt99(r)
}

// ptCardinal spells a digit string: "e" joins the last group when it is
// below one hundred or a round hundred ("dois mil e cem", "um trilhão e um").
func ptCardinal(d string) string {
	return spellGroups(d, "zero", len(ptBig), ptCardinal, func(g, scale int, first, last bool) string {
		var w string
		switch scale {
		case 0:
			w = pt999(g)
		case 1:
			w = "mil"
			if g > 1 {
				w = pt999(g) + " mil"
			}
		default:
			if g == 1 {
				w = "um " + ptBig[scale][0]
			} else {
				w = pt999(g) + " " + ptBig[scale][1]
			}
		}
		// "e" before the last non-zero group when it is below one hundred
		// or round: "dois mil e cem", "um milhão e dez mil".
		if !first && last && (g < 100 || g%100 == 0) {
			w = "e " + w
		}
		return w
	})
}

// ptCardFem spells d for a feminine noun: "uma", "duas", "duzentas".
func ptCardFem(d string) string {
	w := " " + ptCardinal(d) + " "
	w = strings.ReplaceAll(w, " um ", " uma ")
	w = strings.ReplaceAll(w, " dois ", " duas ")
	w = strings.ReplaceAll(w, "entos ", "entas ")
	return strings.TrimSpace(w)
}

var ptOrdUnits = [...]string{"", "primeir", "segund", "terceir", "quart", "quint", "sext", "sétim", "oitav", "non"}
var ptOrdTens = [...]string{"", "décim", "vigésim", "trigésim", "quadragésim", "quinquagésim", "sexagésim",
	"septuagésim", "octogésim", "nonagésim"}
var ptOrdHundreds = [...]string{"", "centésim", "ducentésim", "trecentésim", "quadringentésim", "quingentésim",
	"sexcentésim", "septingentésim", "octingentésim", "nongentésim"}

// ptOrdinal spells 1..999 as an ordinal with gender ending g ("o" or "a").
func ptOrdinal(n int, g string) string {
	var parts []string
	if h := n / 100; h > 0 {
		parts = append(parts, ptOrdHundreds[h]+g)
	}
	if t := n / 10 % 10; t > 0 {
		parts = append(parts, ptOrdTens[t]+g)
	}
	if u := n % 10; u > 0 {
		parts = append(parts, ptOrdUnits[u]+g)
	}
	return strings.Join(parts, " ")
}

var ptLatin = (&latin{
	point: "vírgula", minus: "menos", card: ptCardinal,
	frac:    func(f string) string { return (&latin{card: ptCardinal}).digits(f) },
	cardFem: ptCardFem,
	fem:     wordSet("libra libras hora horas tonelada toneladas"),
	scales: map[string]string{"mil": "mil", "milhão": "milhão", "milhões": "milhões", "bilhão": "bilhão",
		"bilhões": "bilhões", "trilhão": "trilhão", "trilhões": "trilhões"},
	currencies: map[string]latinCurrency{
		"$": {"dólar", "dólares", "centavo", "centavos", "$"}, "US$": {"dólar", "dólares", "centavo", "centavos", "US$"},
		"R$": {"real", "reais", "centavo", "centavos", "R$"}, "€": {"euro", "euros", "centavo", "centavos", "€"},
		"£": {"libra", "libras", "pêni", "pence", "£"},
	},
	units: map[string][2]string{
		"m": {"metro", "metros"}, "km": {"quilômetro", "quilômetros"}, "cm": {"centímetro", "centímetros"},
		"mm": {"milímetro", "milímetros"}, "kg": {"quilograma", "quilogramas"}, "g": {"grama", "gramas"},
		"mg": {"miligrama", "miligramas"}, "l": {"litro", "litros"}, "ml": {"mililitro", "mililitros"},
		"h": {"hora", "horas"}, "min": {"minuto", "minutos"}, "s": {"segundo", "segundos"},
		"km/h": {"quilômetro por hora", "quilômetros por hora"}, "%": {"por cento", "por cento"},
		"km²": {"quilômetro quadrado", "quilômetros quadrados"}, "m²": {"metro quadrado", "metros quadrados"},
		"°C": {"grau celsius", "graus celsius"}, "ha": {"hectare", "hectares"}, "t": {"tonelada", "toneladas"},
		"mph": {"milha por hora", "milhas por hora"}, "m/s": {"metro por segundo", "metros por segundo"},
	},
	spokenUnit: map[string]string{"quilo": "kg", "quilos": "kg"},
	unitAlias:  map[string]string{"km2": "km²", "m2": "m²"},
	groupSep:   []string{".", " "},
	months: []string{"janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro",
		"outubro", "novembro", "dezembro"},
	scaleOf:     "de",
	centsJoin:   "e",
	centSymbol:  map[string]string{"centavo": "R$", "centavos": "R$"},
	symbolSpace: true,
}).finish()

var ptLex = func() *numLex {
	m := map[string]lexEntry{"uma": {kUnit, 1}, "duas": {kUnit, 2}, "e": {kAnd, 0}, "cem": {kHundreds, 100},
		"mil": {kThousand, 1000}, "quatorze": {kTeen, 14}, "dezasseis": {kTeen, 16}, "dezassete": {kTeen, 17}, "dezanove": {kTeen, 19}}
	for k, w := range ptUnits {
		if k < 10 {
			m[w] = lexEntry{kUnit, k}
		} else {
			m[w] = lexEntry{kTeen, k}
		}
	}
	for k := 2; k < 10; k++ {
		m[ptTens[k]] = lexEntry{kTens, k * 10}
	}
	for k := 1; k < 10; k++ {
		m[ptHundreds[k]] = lexEntry{kHundreds, k * 100}
		if k > 1 {
			m[strings.TrimSuffix(ptHundreds[k], "os")+"as"] = lexEntry{kHundreds, k * 100}
		}
	}
	for k := 2; k < len(ptBig); k++ {
		m[ptBig[k][0]] = lexEntry{kBig, 3 * k}
		m[ptBig[k][1]] = lexEntry{kBig, 3 * k}
	}
	m["quintilhão"], m["quintilhões"] = lexEntry{kBig, 18}, lexEntry{kBig, 18}
	m["sextilhão"], m["sextilhões"] = lexEntry{kBig, 21}, lexEntry{kBig, 21}
	return newLex(m)
}()

func init() {
	ptLatin.lex = ptLex
	ptLatin.amountHook = func(s *stream, i int) (string, bool, string, int, bool) {
		return ptLatin.groupedAmount(s, i, map[string]string{"vírgula": ",", "ponto": "."})
	}
	L := ptLatin
	register(&rules{
		tag: "pt", name: "Portuguese", script: "Latn",
		tn: map[string]matcher{
			Electronic: L.electronicTN(ptElec),
			Cardinal:   L.cardinalTN, Decimal: L.decimalTN, Money: L.moneyTN, Measure: L.measureTN,
			Ordinal: ptOrdinalTN, Date: ptDateTN,
		},
		itn: map[string]matcher{
			Electronic: L.electronicITN(ptElec),
			Cardinal:   L.cardinalITN, Decimal: L.decimalITN, Money: L.moneyITN, Measure: L.measureITN,
			Ordinal: ptOrdinalITN,
		},
		score: stopScore(wordSet("o a os as de do da dos das que e em um uma para com não por mais se na no nas nos ao aos como mas foi ele ela isso são também")),
	})
}

func ptOrdinalTN(s *stream, i int) []match {
	if s.kind(i) != tNum || !s.startOK(i) || !s.boundary(i+2) {
		return nil
	}
	g := ""
	switch s.text(i + 1) {
	case "º", "°", "o":
		g = "o"
	case "ª", "a":
		g = "a"
	default:
		return nil
	}
	v, err := strconv.Atoi(s.text(i))
	if err != nil || v < 1 || v > 999 {
		return nil
	}
	return one(i+2, Ordinal, ptOrdinal(v, g))
}

func ptOrdinalITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) {
		return nil
	}
	total, j, g := 0, i, ""
	for n := 0; n < 3; n++ {
		w := strings.ToLower(s.text(j))
		v, gg := 0, ""
		for _, tab := range []struct {
			stems [10]string
			mul   int
		}{{ptOrdUnits, 1}, {ptOrdTens, 10}, {ptOrdHundreds, 100}} {
			for k := 1; k < 10; k++ {
				if rest, ok := strings.CutPrefix(w, tab.stems[k]); ok && (rest == "o" || rest == "a") {
					v, gg = k*tab.mul, rest
				}
			}
		}
		if v == 0 {
			break
		}
		total, g = total+v, gg
		j++
		if !(s.kind(j) == tSpace && s.kind(j+1) == tWord) {
			break
		}
		j++
	}
	if total < 10 {
		return nil // "primeiro", "terceira" stay words
	}
	if s.kind(j-1) == tSpace {
		j--
	}
	suf := "º"
	if g == "a" {
		suf = "ª"
	}
	return one(j, Ordinal, strconv.Itoa(total)+suf)
}

func ptDay(d string) string {
	if strings.TrimLeft(d, "0") == "1" {
		return "primeiro"
	}
	return ptCardinal(d)
}

// ptDateTN reads dd/mm/yyyy, dd.mm.yyyy, dd-mm-yyyy, yyyy-mm-dd and
// "10 de Dezembro de 1999" as "dez de dezembro de mil novecentos e noventa e nove".
func ptDateTN(s *stream, i int) []match {
	if s.kind(i) != tNum || !s.startOK(i) {
		return nil
	}
	a := s.text(i)
	if sep := s.text(i + 1); (sep == "/" || sep == "-" || sep == ".") && s.kind(i+2) == tNum && s.is(i+3, sep) && s.kind(i+4) == tNum && s.boundary(i+5) {
		d, m, y := a, s.text(i+2), s.text(i+4)
		if len(a) == 4 {
			d, y = y, a
		}
		mo, _ := strconv.Atoi(m)
		dd, _ := strconv.Atoi(d)
		if mo < 1 || mo > 12 || dd < 1 || dd > 31 || len(y) != 4 {
			return nil
		}
		return one(i+5, Date, ptDay(d)+" de "+ptLatin.months[mo-1]+" de "+ptCardinal(y))
	}
	dd, _ := strconv.Atoi(a)
	if len(a) > 2 || dd < 1 || dd > 31 || s.kind(i+1) != tSpace || !s.is(i+2, "de") || s.kind(i+3) != tSpace {
		return nil
	}
	mo := 0
	for k, m := range ptLatin.months {
		if strings.EqualFold(s.text(i+4), m) {
			mo = k + 1
		}
	}
	if mo == 0 {
		return nil
	}
	out := ptDay(a) + " de " + ptLatin.months[mo-1]
	e := i + 5
	if s.kind(e) == tSpace && s.is(e+1, "de") && s.kind(e+2) == tSpace && s.kind(e+3) == tNum && len(s.text(e+3)) == 4 && s.boundary(e+4) {
		out += " de " + ptCardinal(s.text(e+3))
		e += 4
	}
	return one(e, Date, out)
}
