package normalize_test

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sottolabs/sotto/normalize"
)

// TestUserInputRules covers rules found by writing text as a user would in
// each language (none of these inputs is taken from the shared suites):
// each rule has inputs of its own and a neighbour it must leave alone.
func TestUserInputRules(t *testing.T) {
	tests := userInputCases
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mode := normalize.TN
			if strings.HasPrefix(tt.name, "itn ") {
				mode = normalize.ITN
			}
			res, err := normalize.Normalize(context.Background(), tt.in, normalize.Options{Language: tt.lang, Mode: mode})
			if err != nil {
				t.Fatalf("Normalize(%q): %v", tt.in, err)
			}
			if got := res.Best(); got != tt.want {
				t.Errorf("Normalize(%s %q) = %q; want %q", tt.lang, tt.in, got, tt.want)
			}
		})
	}
}

// userInputCases are TestUserInputRules' cases; names starting "itn " run
// in ITN mode.
var userInputCases = []struct{ name, lang, in, want string }{
	// English: minutes and seconds that are no time of day, said as people say them.
	{"en race time", "en", "He ran 5km in 25:30.", "He ran five kilometers in twenty five thirty."},
	{"en lap time oh", "en", "lap 2 took 45:05", "lap two took forty five oh five"},
	{"en whole minutes", "en", "a 30:00 wait", "a thirty minutes wait"},
	{"en clock time stays", "en", "at 12:30 today", "at twelve thirty today"},
	// English: an amount written the continental way in English text.
	{"en continental amount", "en", "It costs €1.234,56 here", "It costs one thousand two hundred and thirty four euros fifty six cents here"},
	{"en continental cents", "en", "only €2,50", "only two euros fifty cents"},
	{"en grouped amount stays English", "en", "costs $2,500", "costs two thousand five hundred dollars"},
	{"en decimal amount stays English", "en", "costs $1,234.56", "costs one thousand two hundred and thirty four dollars fifty six cents"},
	// A currency written out after a decimal amount is money.
	{"de euro word", "de", "Es kostet 3,50 Euro.", "Es kostet drei euro fünfzig cent."},
	{"es euros word", "es", "cuesta 7,25 euros", "cuesta siete euros veinticinco céntimos"},
	{"fr euros word", "fr", "ça coûte 12,40 euros", "ça coûte douze euros quarante centimes"},
	{"pt reais word", "pt", "custa 9,90 reais", "custa nove reais e noventa centavos"},
	{"whole amount stays a number", "de", "Es kostet 5 Euro.", "Es kostet fünf Euro."},
	{"decimal before another word", "de", "Er lief 3,50 Meilen weit", "Er lief drei komma fünf null Meilen weit"},
	// Numbers joined by periods that are no thousands groups.
	{"de version", "de", "Version 4.12.7 ist da", "Version vier punkt zwölf punkt sieben ist da"},
	{"es version", "es", "la versión 1.10.2", "la versión uno punto diez punto dos"},
	{"fr version", "fr", "la version 3.0.15", "la version trois point zéro point quinze"},
	{"pt section", "pt", "seção 4.2", "seção quatro ponto dois"},
	{"thousands stay a number", "es", "1.000.000 de personas", "un millón de personas"},
	{"de dotted date stays a date", "de", "am 07.08.2019", "am siebter august zwei tausend neunzehn"},
	// German: the period after a number or a month ending a sentence.
	{"de year ends a sentence", "de", "Das Haus wurde 1987 gebaut und 2015.", "Das Haus wurde ein tausend neun hundert sieben und achtzig gebaut und zwei tausend fünfzehn."},
	{"de house number ends a sentence", "de", "Sie wohnt in der Lindenstraße 12.", "Sie wohnt in der Lindenstraße zwölf."},
	{"de year before the next sentence", "de", "Er zog 2008. Danach kam er zurück.", "Er zog zwei tausend acht. Danach kam er zurück."},
	{"de ordinal before a noun", "de", "der 4. Platz", "der vierter Platz"},
	{"de lone ordinal", "de", "12.", "zwölfter"},
	{"de full month ends a sentence", "de", "Wir kommen am 14. Juli.", "Wir kommen am vierzehnter juli."},
	{"es whole hour pm", "es", "llega a las 4 p.m. hoy", "llega a las cuatro de la tarde hoy"},
	{"es whole hour am", "es", "a las 7 am", "a las siete de la mañana"},
	{"es noon", "es", "a las 12 pm", "a las doce del mediodía"},
	{"de abbreviated month keeps its period", "de", "am 14. Okt. kommt er", "am vierzehnter oktober kommt er"},
	// Chinese: 2 counting something is 两.
	{"zh two people", "zh", "我们2个人去", "我们两个人去"},
	{"zh two o'clock", "zh", "下午2点见", "下午两点见"},
	{"zh clock time at two", "zh", "2:30出发", "两点三十分出发"},
	{"zh two kilometres", "zh", "走了2公里", "走了两公里"},
	{"zh two years and a half", "zh", "学了2年半", "学了两年半"},
	{"es first of the month", "es", "el 1 de mayo", "el primero de mayo"},
	{"es first of the month numeric", "es", "01/05/2020", "primero de mayo de dos mil veinte"},
	{"es other days stay cardinal", "es", "11 de mayo", "once de mayo"},
	{"es half past", "es", "3:30", "tres y media"},
	{"es half past with suffix", "es", "12.30 p.m.", "doce y media del mediodía"},
	{"fr superscript monseigneur", "fr", "Mᵍʳ Dupont", "monseigneur Dupont"},
	{"fr superscript professeur", "fr", "Pʳ Martin", "professeur Martin"},
	{"zh two ten-thousands", "zh", "20000", "两万"},
	{"zh two hundred-millions", "zh", "200000000", "两亿"},
	{"zh two ten-thousands and more", "zh", "23000", "两万三千"},
	{"zh twelve ten-thousands keeps er", "zh", "120000", "十二万"},
	{"zh two ten-thousands after zero keeps er", "zh", "100020000", "一亿零二万"},
	{"zh ordinal keeps er", "zh", "第2次", "第二次"},
	{"zh february keeps er", "zh", "2月3日", "二月三日"},
	{"zh twelve is not two", "zh", "12本书", "十二本书"},
	{"zh two before a Latin-written unit", "zh", "跑了2km", "跑了两千米"},
	{"zh two hours written in Latin", "zh", "用了2h", "用了两小时"},
	{"zh two with a Latin unit that is no measure word keeps er", "zh", "2ms", "二毫秒"},
	{"zh ordinal before a Latin unit keeps er", "zh", "第2h", "第二小时"},
	{"zh decade", "zh", "70年代的歌", "七十年代的歌"},
	{"zh year of a decade", "zh", "1970年代", "一九七零年代"},
	// Chinese telephone numbers, digit by digit with 幺.
	{"zh mobile", "zh", "我的手机是15912345678", "我的手机是幺五九幺二三四五六七八"},
	{"zh mobile grouped", "zh", "打159 1234 5678", "打幺五九幺二三四五六七八"},
	{"zh area code", "zh", "电话021-87654321", "电话零二幺八七六五四三二幺"},
	{"zh country code", "zh", "+86 15912345678", "加八六幺五九幺二三四五六七八"},
	{"zh service number", "zh", "400-800-1234", "四零零八零零幺二三四"},
	{"zh count is no phone", "zh", "15912345678元", "一百五十九亿一千二百三十四万五千六百七十八元"},
	// Chinese dates written the English or European way.
	{"zh month day year", "zh", "11/30/2024", "二零二四年十一月三十日"},
	{"zh day month year", "zh", "30.11.2024", "二零二四年十一月三十日"},
	{"zh version", "zh", "升级到3.10.2", "升级到三点十点二"},
	// French telephone numbers in pairs and ISO dates.
	{"fr phone in pairs", "fr", "appelez le 04 78 90 12 34", "appelez le zéro quatre soixante-dix-huit quatre-vingt-dix douze trente-quatre"},
	{"fr phone with periods", "fr", "07.20.11.05.60", "zéro sept vingt onze zéro cinq soixante"},
	{"fr phone after a country code", "fr", "+33 7 20 11 05 60", "plus trente-trois sept vingt onze zéro cinq soixante"},
	{"fr six pairs are no phone", "fr", "04 78 90 12 34 56", "zéro quatre soixante-dix-huit quatre-vingt-dix douze trente-quatre cinquante-six"},
	{"fr iso date", "fr", "le 2019-07-14", "le quatorze juillet deux mille dix-neuf"},
	{"fr iso date first of the month", "fr", "2020-03-01", "premier mars deux mille vingt"},
	{"fr regnal number", "fr", "sous Charles X et Napoléon III", "sous Charles X et Napoléon trois"},
	{"fr regnal first", "fr", "sous François Ier", "sous François premier"},
	{"fr pope", "fr", "Pie XII", "Pie douze"},
	{"fr clothing size", "fr", "une veste Taille XL", "une veste Taille XL"},
	// English: a street's or weekday's period before other punctuation.
	{"en street before a comma", "en", "She moved to Pine St., Denver.", "She moved to Pine Street, Denver."},
	{"en street ends the text", "en", "She moved to Pine St.", "She moved to Pine Street"}, // NeMo drops the last period
	{"en weekday before a month", "en", "Due Thu., Oct. 9", "Due Thursday, october ninth"},
	{"en weekday before a day", "en", "Due Wed. 12 June", "Due Wednesday the twelfth of june"},
	{"en sun is no sunday", "en", "The Sun. March on", "The Sun. March on"},
	// English multipliers and hyphenated unit abbreviations.
	{"en factor before a word", "en", "it runs 3x faster", "it runs three times faster"},
	{"en decimal factor", "en", "a 1.5x zoom", "a one point five times zoom"},
	{"en lone factor is a serial", "en", "4x", "four x"},
	{"en hyphenated unit abbreviation", "en", "a 5-km walk", "a five-kilometer walk"},
	{"en hyphenated decimal unit", "en", "a 0.5-mg tablet", "a zero point five milligram tablet"},
	{"en hyphenated inch is no unit here", "en", "a 3-in-1 printer", "a three-in-one printer"},
	// English ITN (names starting "itn " run in ITN mode).
	{"itn en fraction stays words", "en", "add one fifth cup of milk", "add one fifth cup of milk"},
	{"itn en ordinal after a larger number", "en", "the twenty fifth day", "the 25th day"},
	{"itn en version number", "en", "update to version four point one point two", "update to version 4.1.2"},
	{"itn en decimal alone", "en", "pi is three point one four", "pi is 3.14"},
	{"itn en a quarter to", "en", "leave at a quarter to six", "leave at 05:45"},
	{"itn en a quarter is no time", "en", "a quarter of them left", "a quarter of them left"},
	{"itn en a hundred and a unit", "en", "about a hundred and twenty kilograms", "about a hundred and twenty kilograms"},
	{"itn en one hundred and a unit", "en", "about one hundred and twenty kilograms", "about 120 kg"},
	// A one-letter word before a spoken address is no part of it.
	{"itn es preposition before an e-mail", "es", "mándalo a ana punto ruiz arroba correo punto es", "mándalo a ana.ruiz@correo.es"},
	{"itn fr preposition before an e-mail", "fr", "envoie à paul arobase mail point fr", "envoie à paul@mail.fr"},
	{"itn pt preposition before an e-mail", "pt", "envie a rui ponto costa arroba mail ponto pt", "envie a rui.costa@mail.pt"},
	{"itn es spelled address keeps its letter", "es", "a punto b arroba mail punto es", "a.b@mail.es"},
	// Spoken version numbers and French numbers after a country code.
	{"itn de version", "de", "Version vier punkt zwölf punkt sieben", "Version 4.12.7"},
	{"itn es version", "es", "versión uno punto diez punto dos", "versión 1.10.2"},
	{"itn de two parts are no version", "de", "drei punkt zwei", "drei punkt zwei"},
	{"itn fr phone after a country code", "fr", "plus trente-trois sept vingt onze zéro cinq soixante", "+33 7 20 11 05 60"},
	{"itn fr plus alone", "fr", "deux plus trois", "deux plus trois"},
	// German telephone numbers said digit by digit, of any length.
	{"itn de phone of eleven digits", "de", "unter null acht neun sieben sechs fünf vier drei zwei eins", "unter 0897654321"},
	{"itn de phone of twelve digits", "de", "null sechs neun eins zwei drei vier fünf sechs sieben acht neun", "(0691) 2345-6789"},
	{"itn de three digits are no phone", "de", "null acht neun", "null acht neun"},
	// Chinese colloquial money: the smaller unit left unsaid.
	{"itn zh jiu mao jiu", "zh", "只要九毛九", "只要9毛9"},
	{"itn zh kuai and mao", "zh", "一共六块八毛五", "一共6块8毛5"},
	{"itn zh a count after kuai", "zh", "三块五个", "3块五个"},
}

// TestUserInputRulesTruncated runs every input of TestUserInputRules cut at
// each byte boundary and glued to its neighbour, in both modes, and checks
// the result invariants: the rules look ahead and behind several tokens
// ("+33 7 20 11", "11/30/20", "Pine St.,"), and a cut must neither panic
// nor break the spans.
func TestUserInputRulesTruncated(t *testing.T) {
	for x, c := range userInputCases {
		next := userInputCases[(x+1)%len(userInputCases)].in
		for cut := 0; cut <= len(c.in); cut++ {
			if !utf8.ValidString(c.in[:cut]) {
				continue
			}
			for _, text := range []string{c.in[:cut], c.in[:cut] + next, next + c.in[:cut]} {
				for _, mode := range []normalize.Mode{normalize.TN, normalize.ITN} {
					opts := normalize.Options{Language: c.lang, Mode: mode, TopK: 2}
					res, err := normalize.Normalize(context.Background(), text, opts)
					if err != nil {
						if text == "" {
							continue
						}
						t.Fatalf("Normalize(%s %s %q): %v", c.lang, mode, text, err)
					}
					checkInvariants(t, text, opts, res)
				}
			}
		}
	}
}
