package segment

import (
	"context"
	"slices"
	"testing"
)

// Table tests for the rules of issue 10, each written from the rule's
// definition rather than from a suite case: list items and bullets of every
// common glyph and numbering style, sentences glued to the next after a
// number, and numbered references per language.

type ruleCase struct {
	lang, in string
	want     []string
}

func checkRules(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		got, err := Sentences(context.Background(), c.in, Options{Language: c.lang})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s %q:\n got %q\nwant %q", c.lang, c.in, got, c.want)
		}
	}
}

func TestRuleBullets(t *testing.T) {
	var cases []ruleCase
	// Every dedicated bullet glyph, run together on one line and one per line.
	for _, g := range []string{"•", "◦", "▪", "‣", "⁃", "○", "●", "■", "□", "◆", "➢", "➤", "►", "✓", "✔", "☐", "·"} {
		cases = append(cases,
			ruleCase{"en", g + " Tickets are sold out " + g + " Doors open at eight " + g + " Bring a coat",
				[]string{g + " Tickets are sold out", g + " Doors open at eight", g + " Bring a coat"}},
			ruleCase{"en", "Packing list:\n" + g + " warm socks\n" + g + " a torch",
				[]string{"Packing list:", g + " warm socks", g + " a torch"}},
		)
	}
	// Hyphen, dash and asterisk bullets count at line starts only: inline
	// they join or separate words.
	for _, g := range []string{"-", "–", "—", "*"} {
		cases = append(cases, ruleCase{"en", g + " warm socks\n" + g + " a torch", []string{g + " warm socks", g + " a torch"}})
	}
	cases = append(cases,
		ruleCase{"de", "Viele Arten – nicht nur die Dinosaurier – starben aus.", []string{"Viele Arten – nicht nur die Dinosaurier – starben aus."}},
		ruleCase{"en", "A single • inside a sentence stays put.", []string{"A single • inside a sentence stays put."}},
		ruleCase{"en", "Home · About · Contact", []string{"Home", "· About", "· Contact"}},
		// Bullets glued to a numbered marker, any starting number.
		ruleCase{"en", "• 7. Fold the sheet • 8. Cut along the line", []string{"• 7. Fold the sheet", "• 8. Cut along the line"}},
		ruleCase{"en", "⁃7. Fold the sheet ⁃8. Cut along the line", []string{"⁃7. Fold the sheet", "⁃8. Cut along the line"}},
		ruleCase{"en", "•7. Fold the sheet. •8. Cut along the line.", []string{"•7. Fold the sheet.", "•8. Cut along the line."}},
	)
	checkRules(t, cases)
}

func TestRuleNumbering(t *testing.T) {
	items := [3]string{"Preheat the oven", "Mix the dough", "Bake it"}
	styles := [][3]string{
		{"1.", "2.", "3."}, {"1)", "2)", "3)"}, {"(1)", "(2)", "(3)"}, {"1.)", "2.)", "3.)"},
		{"a.", "b.", "c."}, {"a)", "b)", "c)"}, {"(a)", "(b)", "(c)"},
		{"A.", "B.", "C."}, {"A)", "B)", "C)"},
		{"i.", "ii.", "iii."}, {"i)", "ii)", "iii)"}, {"(i)", "(ii)", "(iii)"},
		{"I.", "II.", "III."}, {"iv.", "v.", "vi."}, {"VIII.", "IX.", "X."}, {"11.", "12.", "13."},
	}
	var cases []ruleCase
	for _, st := range styles {
		var want, wantStop []string
		run, runStop, lines := "", "", ""
		for k := range items {
			want = append(want, st[k]+" "+items[k])
			wantStop = append(wantStop, st[k]+" "+items[k]+".")
			run += st[k] + " " + items[k] + " "
			runStop += st[k] + " " + items[k] + ". "
			lines += st[k] + " " + items[k] + "\n"
		}
		cases = append(cases,
			ruleCase{"en", run, want},         // run together, no stops
			ruleCase{"en", runStop, wantStop}, // run together, each item a sentence
			ruleCase{"en", lines, want},       // one per line
			ruleCase{"en", "Steps: " + run, append([]string{"Steps: " + want[0]}, want[1:]...)}, // after a colon
		)
	}
	cases = append(cases,
		// An enumeration inside a sentence stays one sentence.
		ruleCase{"en", "The fund invests in (a) banks, (b) insurers and (c) utilities.", []string{"The fund invests in (a) banks, (b) insurers and (c) utilities."}},
		ruleCase{"de", "Wir brauchen 1) Mehl, 2) Zucker und 3) Eier.", []string{"Wir brauchen 1) Mehl, 2) Zucker und 3) Eier."}},
		// Not markers: a lone letter, words, a number out of sequence.
		ruleCase{"en", "Plan B. The second option failed.", []string{"Plan B.", "The second option failed."}},
		ruleCase{"en", "He mixed it (i) slowly.", []string{"He mixed it (i) slowly."}},
		ruleCase{"en", "Ask Louis I. about it and then Louis II. about that.", []string{"Ask Louis I. about it and then Louis II. about that."}},
		ruleCase{"en", "We tried plan A. on Monday and plan B. on Tuesday.", []string{"We tried plan A. on Monday and plan B. on Tuesday."}},
	)
	checkRules(t, cases)
}

func TestRuleGluedAfterNumber(t *testing.T) {
	checkRules(t, []ruleCase{
		{"en", "The bridge opened in 1932.The toll was dropped later.", []string{"The bridge opened in 1932.", "The toll was dropped later."}},
		{"en", "Tickets cost 5.Then the price went up.", []string{"Tickets cost 5.", "Then the price went up."}},
		{"en", "They sold 12,400.Nobody expected it.", []string{"They sold 12,400.", "Nobody expected it."}},
		{"en", "It rose by 3.5%.Analysts were surprised.", []string{"It rose by 3.5%.", "Analysts were surprised."}},
		{"en", "The bill came to $40.50.We split it.", []string{"The bill came to $40.50.", "We split it."}},
		{"es", "Vendieron 1.500.Nadie lo esperaba.", []string{"Vendieron 1.500.", "Nadie lo esperaba."}},
		{"fr", "Ils ont vendu 2 000 exemplaires en 1998.Le succès fut immense.", []string{"Ils ont vendu 2 000 exemplaires en 1998.", "Le succès fut immense."}},
		// After a closing bracket or quote.
		{"en", "It was built later (in 1932).The toll came after.", []string{"It was built later (in 1932).", "The toll came after."}},
		{"en", "See the notes (page twelve).They explain it.", []string{"See the notes (page twelve).", "They explain it."}},
		{"en", "He works for \"U.S.\"Army now.", []string{"He works for \"U.S.\"Army now."}},
		// Not a glued sentence: decimals, versions, dates, German ordinals.
		{"en", "Pi is about 3.14 and e about 2.72.", []string{"Pi is about 3.14 and e about 2.72."}},
		{"de", "Er wurde am 3.Juni geboren.", []string{"Er wurde am 3.Juni geboren."}},
		{"de", "Sie spielt in der 2.Liga.", []string{"Sie spielt in der 2.Liga."}},
		{"en", "Install version 2.A instead.", []string{"Install version 2.A instead."}},
	})
}

func TestRuleNumberedReferences(t *testing.T) {
	checkRules(t, []ruleCase{
		{"en", "See p. 12 and pp. 40-44 for the proof.", []string{"See p. 12 and pp. 40-44 for the proof."}},
		{"en", "See Fig. 3 and Table 2 in Vol. 4, No. 2 of the journal.", []string{"See Fig. 3 and Table 2 in Vol. 4, No. 2 of the journal."}},
		{"en", "Read ch. 4, chap. 5, sec. 2, para. 7 and art. 9 first.", []string{"Read ch. 4, chap. 5, sec. 2, para. 7 and art. 9 first."}},
		{"en", "It is shown in fig. 5. The curve is flat.", []string{"It is shown in fig. 5.", "The curve is flat."}},
		{"en", "She studied modern art. Then she moved to Paris.", []string{"She studied modern art.", "Then she moved to Paris."}},
		{"de", "Siehe S. 5, Abb. 3, Kap. 2, Abs. 4, Bd. 1, Nr. 7 und Tab. 6.", []string{"Siehe S. 5, Abb. 3, Kap. 2, Abs. 4, Bd. 1, Nr. 7 und Tab. 6."}},
		{"de", "Das regelt Art. 5 GG. Die Würde ist unantastbar.", []string{"Das regelt Art. 5 GG.", "Die Würde ist unantastbar."}},
		{"es", "Véase la pág. 5, el cap. 3, la fig. 2, el núm. 8 y el art. 14.", []string{"Véase la pág. 5, el cap. 3, la fig. 2, el núm. 8 y el art. 14."}},
		{"fr", "Voir p. 5, chap. 3, fig. 2, n° 8 et art. 14 du code.", []string{"Voir p. 5, chap. 3, fig. 2, n° 8 et art. 14 du code."}},
		{"it", "Vedi pag. 5, cap. 3, fig. 2, n. 8 e art. 14 del codice.", []string{"Vedi pag. 5, cap. 3, fig. 2, n. 8 e art. 14 del codice."}},
		{"pt", "Veja a pág. 5, o cap. 3, a fig. 2 e o art. 14 da lei.", []string{"Veja a pág. 5, o cap. 3, a fig. 2 e o art. 14 da lei."}},
		{"ru", "См. стр. 5, рис. 3, гл. 2, п. 4, ст. 7 и табл. 6.", []string{"См. стр. 5, рис. 3, гл. 2, п. 4, ст. 7 и табл. 6."}},
		{"de", "Das steht auf S. 5. Dann folgt die Tabelle.", []string{"Das steht auf S. 5.", "Dann folgt die Tabelle."}},
		{"de", "Lies Kapitel 3. Danach reden wir.", []string{"Lies Kapitel 3.", "Danach reden wir."}},
		{"de", "Wir treffen uns am 5. Mai in Kapitel 3 des Buches.", []string{"Wir treffen uns am 5. Mai in Kapitel 3 des Buches."}},
		{"ru", "Это показано на рис. 5. Кривая плоская.", []string{"Это показано на рис. 5.", "Кривая плоская."}},
		{"da", "Se s. 5, fig. 3 og kap. 2 i bogen.", []string{"Se s. 5, fig. 3 og kap. 2 i bogen."}},
		{"da", "Vi mødes kl. 10 i morgen. Han kommer også.", []string{"Vi mødes kl. 10 i morgen.", "Han kommer også."}},
		{"nl", "Dhr. Jansen komt om 10 uur, bijv. met de trein. Hij is blij.", []string{"Dhr. Jansen komt om 10 uur, bijv. met de trein.", "Hij is blij."}},
		{"nl", "Zie blz. 5, fig. 3 en hfst. 2 van het boek.", []string{"Zie blz. 5, fig. 3 en hfst. 2 van het boek."}},
		{"bg", "Виж стр. 5 и фиг. 3 в гл. 2 на книгата.", []string{"Виж стр. 5 и фиг. 3 в гл. 2 на книгата."}},
		{"pl", "Zobacz str. 5, rys. 3 i rozdz. 2 tej książki.", []string{"Zobacz str. 5, rys. 3 i rozdz. 2 tej książki."}},
		{"sk", "Pozri s. 5, obr. 3 a kap. 2 tejto knihy.", []string{"Pozri s. 5, obr. 3 a kap. 2 tejto knihy."}},
		{"el", "Δείτε σελ. 5 και εικ. 3 στο κεφ. 2 του βιβλίου.", []string{"Δείτε σελ. 5 και εικ. 3 στο κεφ. 2 του βιβλίου."}},
		{"hi", "देखें पृ. 5 पर चित्र। यह महत्वपूर्ण है।", []string{"देखें पृ. 5 पर चित्र।", "यह महत्वपूर्ण है।"}},
		{"ja", "第3章を参照。第4節も読む。", []string{"第3章を参照。", "第4節も読む。"}},
		{"zh", "见第三章第2节。这很重要。", []string{"见第三章第2节。", "这很重要。"}},
	})
}

// TestRuleCLDRAbbreviations checks CLDR's sentence-break suppressions
// (data/cldr-suppressions.txt): a period after one of them does not end
// the sentence before a capitalised word or a number, a lower-case entry
// also matches capitalised, and entries marked "word" still end sentences.
func TestRuleCLDRAbbreviations(t *testing.T) {
	checkRules(t, []ruleCase{
		{"de", "Wir treffen uns am Hbf. Zürich um acht.", []string{"Wir treffen uns am Hbf. Zürich um acht."}},
		{"de", "Er ist röm. Katholik und lebt in Köln.", []string{"Er ist röm. Katholik und lebt in Köln."}},
		{"de", "Einschl. Porto kostet es zehn Euro.", []string{"Einschl. Porto kostet es zehn Euro."}},
		{"de", "Das war ein Test. Morgen mehr.", []string{"Das war ein Test.", "Morgen mehr."}},
		{"fr", "Il est né en janv. 1990 à Paris.", []string{"Il est né en janv. 1990 à Paris."}},
		{"fr", "Il regarde la mer. Demain il part.", []string{"Il regarde la mer.", "Demain il part."}},
		{"es", "El Excmo. Ayuntamiento de Madrid informa.", []string{"El Excmo. Ayuntamiento de Madrid informa."}},
		{"pt", "O Ilmo. Senhor Diretor chegou.", []string{"O Ilmo. Senhor Diretor chegou."}},
		{"pt", "Olhamos o mar. Depois voltamos.", []string{"Olhamos o mar.", "Depois voltamos."}},
		{"it", "Il rag. Bianchi è arrivato.", []string{"Il rag. Bianchi è arrivato."}},
		{"en", "The signal is 50 Hz. Higher rates need a filter.", []string{"The signal is 50 Hz. Higher rates need a filter."}},
		{"en", "He said it was OK. Nobody argued.", []string{"He said it was OK.", "Nobody argued."}},
	})
}

func TestParseSuppressions(t *testing.T) {
	for _, l := range []string{"de", "en", "es", "fr", "it", "pt", "ru"} {
		if len(cldrAbbrev[l]) < 10 {
			t.Errorf("cldrAbbrev[%q] has %d entries; want the CLDR list", l, len(cldrAbbrev[l]))
		}
	}
	got := parseSuppressions("# c\n[xx]\nn. Chr.\nTest.\tword\nabc.\nD.C\nQ.\n")
	want := map[string]uint8{"Chr": cldrAsWritten, "abc": cldrAsWritten | cldrLower}
	if len(got["xx"]) != len(want) {
		t.Fatalf("parseSuppressions = %v; want %v", got["xx"], want)
	}
	for k, v := range want {
		if got["xx"][k] != v {
			t.Errorf("parseSuppressions[%q] = %d; want %d", k, got["xx"][k], v)
		}
	}
	for _, c := range []struct {
		lang, tok string
		want      bool
	}{{"de", "Hbf", true}, {"de", "Vgl", true}, {"de", "vgl", true}, {"de", "hbf", false}, {"de", "Test", false}, {"en", "Is", false}, {"xx", "Hbf", false}} {
		if got := cldrKnows(c.lang, c.tok); got != c.want {
			t.Errorf("cldrKnows(%q, %q) = %v; want %v", c.lang, c.tok, got, c.want)
		}
	}
}

// TestRuleSharedWords checks that the abbreviations shared by every
// language in Latin script do not swallow sentence ends after words of
// another language that are spelt the same (Spanish "no", "mar"; Italian
// and French "est"; Dutch "op"; Danish "min"), while the capitalised
// abbreviation and a numbered reference still bind.
func TestRuleSharedWords(t *testing.T) {
	checkRules(t, []ruleCase{
		{"es", "Dijo que no. Luego se fue.", []string{"Dijo que no.", "Luego se fue."}},
		{"es", "Vimos el mar. Luego volvimos.", []string{"Vimos el mar.", "Luego volvimos."}},
		{"es", "Vea el No. 5 de la lista.", []string{"Vea el No. 5 de la lista."}},
		{"es", "La cita es el Mar. 23 de mayo.", []string{"La cita es el Mar. 23 de mayo."}},
		{"it", "Ha detto di no. Poi è partito.", []string{"Ha detto di no.", "Poi è partito."}},
		{"it", "Siamo andati a est. Poi siamo tornati.", []string{"Siamo andati a est.", "Poi siamo tornati."}},
		{"pt", "Olhamos o mar. Depois voltamos.", []string{"Olhamos o mar.", "Depois voltamos."}},
		{"fr", "Le soleil se lève à l'est. Nous partons.", []string{"Le soleil se lève à l'est.", "Nous partons."}},
		{"nl", "Ik sta vroeg op. Daarna ga ik werken.", []string{"Ik sta vroeg op.", "Daarna ga ik werken."}},
		{"da", "Bogen er min. Jens har lånt den.", []string{"Bogen er min.", "Jens har lånt den."}},
		{"en", "We met on Sat. March 3 at noon.", []string{"We met on Sat. March 3 at noon."}},
		{"da", "Jeg ved det. Han kommer.", []string{"Jeg ved det.", "Han kommer."}},
		{"da", "Mødet er den 5. maj. Alle kommer.", []string{"Mødet er den 5. maj.", "Alle kommer."}},
		{"sv", "Det var hon. Vi gick hem.", []string{"Det var hon.", "Vi gick hem."}},
		{"de", "Es ist eben so. Heute geht es nicht.", []string{"Es ist eben so.", "Heute geht es nicht."}},
		{"de", "Wir kommen am So. Nachmittag.", []string{"Wir kommen am So. Nachmittag."}},
	})
}

// TestRuleLostLineBreaks checks the word-gap rules for e-mail and forum
// text whose line breaks were lost, each against its counter-case.
func TestRuleLostLineBreaks(t *testing.T) {
	checkRules(t, []ruleCase{
		// A salutation alone at the end of a line starts a unit, unless a
		// greeting or a list leads to it.
		{"en", "Thanks for your help. Ann Marco,\n\nI read your note.", []string{"Thanks for your help.", "Ann", "Marco,", "I read your note."}},
		{"en", "Call me at 713.853.3102 Kristen,\n\nHere are the deals.", []string{"Call me at 713.853.3102", "Kristen,", "Here are the deals."}},
		{"en", "Hi Sara,\n\nI just wanted to follow up.", []string{"Hi Sara,", "I just wanted to follow up."}},
		{"en", "Dear Mr. Lee,\n\nI just wanted to follow up.", []string{"Dear Mr. Lee,", "I just wanted to follow up."}},
		{"en", "We invited Tom, Dick,\nand Harry.", []string{"We invited Tom, Dick, and Harry."}},
		// A sign-off's name signs the message when a lower-case word
		// follows it on the same line.
		{"en", "See the memo. Thanks Kam could you send it again?", []string{"See the memo.", "Thanks", "Kam", "could you send it again?"}},
		{"en", "See the memo. Thanks Liz 36349 see you there.", []string{"See the memo.", "Thanks", "Liz 36349", "see you there."}},
		// A URL after a clause ending with a colon stands alone at the end
		// of its line; after a short label it stays with it.
		{"en", "Otherwise a cheaper room will be fine: http://example.com/rooms", []string{"Otherwise a cheaper room will be fine:", "http://example.com/rooms"}},
		{"en", "Link to video: http://example.com/v/123", []string{"Link to video: http://example.com/v/123"}},
		{"en", "The site is: https://example.com/a.html. Please check it out.", []string{"The site is: https://example.com/a.html.", "Please check it out."}},
		// A quotation broken off with a dash ends the sentence before a
		// capital.
		{"en", "Alice began, \"If you please, sir--\" The Rabbit started violently.", []string{"Alice began, \"If you please, sir--\"", "The Rabbit started violently."}},
		{"en", "He said \"wait—\" and stopped.", []string{"He said \"wait—\" and stopped."}},
		// A question or exclamation mark spaced off the sentence it ends.
		{"en", "What is the difference between these parrots? ?\n\nI was about to buy one.", []string{"What is the difference between these parrots? ?", "I was about to buy one."}},
		{"en", "Really ? ! I did not know.", []string{"Really ? !", "I did not know."}},
		// An ellipsis glued to the next sentence.
		{"en", "Taco Bell, Burger King.....But mine is better.", []string{"Taco Bell, Burger King.....", "But mine is better."}},
		{"en", "You have to see these slides....they are amazing.", []string{"You have to see these slides....they are amazing."}},
	})
}

// TestRuleLanguageAbbreviations checks per-language abbreviation knowledge
// beyond CLDR's lists: "and so on" closing a sentence in each language,
// two-part abbreviations, German academic titles and street names, and
// the Polish, Slovak and Czech tables.
func TestRuleLanguageAbbreviations(t *testing.T) {
	checkRules(t, []ruleCase{
		{"it", "Ho comprato mele, pere ecc. Poi sono tornato.", []string{"Ho comprato mele, pere ecc.", "Poi sono tornato."}},
		{"nl", "Ik kocht appels, peren enz. Daarna ging ik naar huis.", []string{"Ik kocht appels, peren enz.", "Daarna ging ik naar huis."}},
		{"da", "Jeg købte æbler, pærer osv. Så gik jeg hjem.", []string{"Jeg købte æbler, pærer osv.", "Så gik jeg hjem."}},
		{"pl", "Kupiłem jabłka, gruszki itd. Potem wróciłem.", []string{"Kupiłem jabłka, gruszki itd.", "Potem wróciłem."}},
		{"ru", "Он купил яблоки, груши и т. д. Потом ушёл.", []string{"Он купил яблоки, груши и т. д.", "Потом ушёл."}},
		{"ru", "Он купил яблоки и т.п. Потом ушёл.", []string{"Он купил яблоки и т.п.", "Потом ушёл."}},
		{"it", "Vedi ecc. per i dettagli.", []string{"Vedi ecc. per i dettagli."}},
		{"es", "Llegó a las 5 p. m. Luego se fue.", []string{"Llegó a las 5 p. m.", "Luego se fue."}},
		{"es", "Llegó a las 5 p. m. y luego se fue.", []string{"Llegó a las 5 p. m. y luego se fue."}},
		{"es", "Viven en EE. UU. desde 2010.", []string{"Viven en EE. UU. desde 2010."}},
		{"es", "Viajó a EE. UU. El viaje fue largo.", []string{"Viajó a EE. UU.", "El viaje fue largo."}},
		{"es", "Las FF. AA. Argentinas desfilaron ayer.", []string{"Las FF. AA. Argentinas desfilaron ayer."}},
		{"de", "Herr Dr. med. Müller kommt um zehn. Er ist pünktlich.", []string{"Herr Dr. med. Müller kommt um zehn.", "Er ist pünktlich."}},
		{"de", "Das Büro in der Goethestr. Berlin ist zu.", []string{"Das Büro in der Goethestr. Berlin ist zu."}},
		{"pl", "Mieszka przy ul. Długiej. Ona mieszka obok.", []string{"Mieszka przy ul. Długiej.", "Ona mieszka obok."}},
		{"pl", "Prof. Kowalski i mgr Nowak przyszli.", []string{"Prof. Kowalski i mgr Nowak przyszli."}},
		{"sk", "Prišiel p. Novák a Ing. Kováč. Všetci čakali.", []string{"Prišiel p. Novák a Ing. Kováč.", "Všetci čakali."}},
		{"cs", "Přišel Ing. Novák, tzv. Odborník. Všichni čekali.", []string{"Přišel Ing. Novák, tzv. Odborník.", "Všichni čekali."}},
	})
}

// TestRuleOtherScripts checks list markers in Cyrillic and Greek letters,
// German dates without a year, and a title abbreviation written in lower
// case after a number (a unit).
func TestRuleOtherScripts(t *testing.T) {
	checkRules(t, []ruleCase{
		{"ru", "а) первый пункт б) второй пункт в) третий пункт", []string{"а) первый пункт", "б) второй пункт", "в) третий пункт"}},
		{"ru", "Варианты: а) первый, б) второй и в) третий.", []string{"Варианты: а) первый, б) второй и в) третий."}},
		{"ru", "Список:\nа. Хлеб\nб. Молоко", []string{"Список:", "а. Хлеб", "б. Молоко"}},
		{"el", "α) Το πρώτο σημείο β) Το δεύτερο σημείο", []string{"α) Το πρώτο σημείο", "β) Το δεύτερο σημείο"}},
		{"ru", "Я пошёл в магазин. А потом домой.", []string{"Я пошёл в магазин.", "А потом домой."}},
		{"ru", "Проф. А. С. Пушкин пришёл.", []string{"Проф. А. С. Пушкин пришёл."}},
		{"en", "This is Plan A. I think it works.", []string{"This is Plan A.", "I think it works."}},
		{"it", "È nato il 3 genn. 1990. Vive a Roma.", []string{"È nato il 3 genn. 1990.", "Vive a Roma."}},
		{"es", "Nació el 3 de ene. de 1990. Vive en Madrid.", []string{"Nació el 3 de ene. de 1990.", "Vive en Madrid."}},
		{"de", "Am 24.12.2023 ist Weihnachten. Am 31.12. Silvester.", []string{"Am 24.12.2023 ist Weihnachten.", "Am 31.12. Silvester."}},
		{"de", "Wir feiern am 31.12. Dann ist Neujahr.", []string{"Wir feiern am 31.12.", "Dann ist Neujahr."}},
		{"fr", "Il mesure 1,80 m. Il est grand.", []string{"Il mesure 1,80 m.", "Il est grand."}},
		{"fr", "M. Dupont est arrivé.", []string{"M. Dupont est arrivé."}},
	})
}

// TestRuleWrappedLines checks that a line ending with an article,
// preposition or conjunction is wrapped, not ended, while lines without
// stops otherwise stay units of their own.
func TestRuleWrappedLines(t *testing.T) {
	checkRules(t, []ruleCase{
		{"de", "Der Bericht beschreibt die\nErgebnisse der Studie.", []string{"Der Bericht beschreibt die Ergebnisse der Studie."}},
		{"en", "The report describes the\nResults of the study.", []string{"The report describes the Results of the study."}},
		{"fr", "Le rapport décrit les\nRésultats de l'étude.", []string{"Le rapport décrit les Résultats de l'étude."}},
		{"ru", "Он вернулся в\nМоскву вчера.", []string{"Он вернулся в Москву вчера."}},
		{"en", "Features\nContact manager\nEvents, activities", []string{"Features", "Contact manager", "Events, activities"}},
		{"de", "Zutaten\nMehl und Zucker\nEier", []string{"Zutaten", "Mehl und Zucker", "Eier"}},
	})
}

// TestRuleMoreLanguages checks the Ethiopic doubled word space as a full
// stop, titles in Devanagari, Greek and Bulgarian, and sentence starters
// of Polish, Slovak, Czech, Dutch, Swedish, Bulgarian and Greek after an
// abbreviation.
func TestRuleMoreLanguages(t *testing.T) {
	checkRules(t, []ruleCase{
		{"am", "እሱ ወደ ቤት ሄደ። እኔም ሄድኩ፡፡ ደህና ነህ?", []string{"እሱ ወደ ቤት ሄደ።", "እኔም ሄድኩ፡፡", "ደህና ነህ?"}},
		{"am", "ሰላም፡ እንዴት ነህ።", []string{"ሰላም፡ እንዴት ነህ።"}},
		{"mr", "डॉ. पाटील आले. ते आनंदी होते.", []string{"डॉ. पाटील आले.", "ते आनंदी होते."}},
		{"hi", "डॉ. शर्मा आए। वे खुश थे।", []string{"डॉ. शर्मा आए।", "वे खुश थे।"}},
		{"el", "Ο κ. Παπαδόπουλος ήρθε. Η κα Παπαδοπούλου όχι.", []string{"Ο κ. Παπαδόπουλος ήρθε.", "Η κα Παπαδοπούλου όχι."}},
		{"el", "Αγόρασε μήλα, αχλάδια κλπ. Μετά έφυγε.", []string{"Αγόρασε μήλα, αχλάδια κλπ.", "Μετά έφυγε."}},
		{"bg", "Г-н Иванов дойде. Г-жа Иванова не дойде.", []string{"Г-н Иванов дойде.", "Г-жа Иванова не дойде."}},
		{"bg", "Той купи ябълки и т.н. После си тръгна.", []string{"Той купи ябълки и т.н.", "После си тръгна."}},
		{"pl", "Stało się to w 1990 r. Potem się zmieniło.", []string{"Stało się to w 1990 r.", "Potem się zmieniło."}},
		{"sk", "Prišiel o 10. hod. Potom odišiel.", []string{"Prišiel o 10. hod.", "Potom odišiel."}},
		{"cs", "Přišel ve 3 hod. Potom odešel.", []string{"Přišel ve 3 hod.", "Potom odešel."}},
		{"nl", "Het kost ca. 5 euro. Dat is goedkoop.", []string{"Het kost ca. 5 euro.", "Dat is goedkoop."}},
	})
}

// TestRuleGuessedLanguage checks sentences whose language is guessed (the
// endpoint has no language field): a title of any language before a name
// when the guess had no evidence, and English rules as the default.
func TestRuleGuessedLanguage(t *testing.T) {
	checkRules(t, []ruleCase{
		{"", "De holdt Skt. Hans i byen.", []string{"De holdt Skt. Hans i byen."}},
		{"", "local crew!!! home team rocks", []string{"local crew!!!", "home team rocks"}},
		{"", "Dijo que no. Luego se fue.", []string{"Dijo que no.", "Luego se fue."}},
		{"", "Jeg ved det ikke. Han kommer.", []string{"Jeg ved det ikke.", "Han kommer."}},
		{"", "Kupiłem jabłka, gruszki itd. Potem wróciłem.", []string{"Kupiłem jabłka, gruszki itd.", "Potem wróciłem."}},
	})
}

// TestRuleScriptColons checks the colon that ends sentences in Armenian
// (also after a closing quote) and Arabic headlines, but not a colon that
// introduces a quotation in Arabic, Persian or Urdu.
func TestRuleScriptColons(t *testing.T) {
	checkRules(t, []ruleCase{
		{"hy", "Նա ասաց. «Վաղը կգամ»: Հետո գնաց:", []string{"Նա ասաց. «Վաղը կգամ»:", "Հետո գնաց:"}},
		{"ar", "قال الدكتور أحمد: \"سأحضر غداً\". ثم غادر.", []string{"قال الدكتور أحمد: \"سأحضر غداً\".", "ثم غادر."}},
		{"fa", "او گفت: «فردا می‌آیم». سپس رفت.", []string{"او گفت: «فردا می‌آیم».", "سپس رفت."}},
		{"ar", "الصنداي تايمز: رئيس الموساد قد يصبح ضحية.", []string{"الصنداي تايمز:", "رئيس الموساد قد يصبح ضحية."}},
	})
}

// TestRuleReferenceNumbers checks that a number after a numbered reference
// is a cardinal in German too, spaced or glued to the next sentence, even
// for references the plain list also has ("Kap.", "Abs."), and that a
// domain with a capitalised top level is not split.
func TestRuleReferenceNumbers(t *testing.T) {
	checkRules(t, []ruleCase{
		{"de", "Siehe Abb. 3.Dann weiter.", []string{"Siehe Abb. 3.", "Dann weiter."}},
		{"de", "Er spielt in der 2.Liga.", []string{"Er spielt in der 2.Liga."}},
		{"de", "Vgl. Kap. 3. Dort steht es.", []string{"Vgl. Kap. 3.", "Dort steht es."}},
		{"de", "Siehe Abs. 2. Dort steht es.", []string{"Siehe Abs. 2.", "Dort steht es."}},
		{"de", "Am 2. Dezember kam er.", []string{"Am 2. Dezember kam er."}},
		{"en", "Posted via Newsfeeds.Com today.", []string{"Posted via Newsfeeds.Com today."}},
		// Footnote numbers after a stop stay with the sentence they mark.
		{"en", "Agendas create a gap in a consultation.11 12 Take the common cold.", []string{"Agendas create a gap in a consultation.11 12", "Take the common cold."}},
		{"en", "It spread fast.3,4 The virus mutated.", []string{"It spread fast.3,4", "The virus mutated."}},
		{"en", "The gap in a consultation.11 12 take it.", []string{"The gap in a consultation.11 12 take it."}},
		{"en", "He lived in Paris.It was nice.", []string{"He lived in Paris.", "It was nice."}},
	})
}

// TestRuleJapaneseAndUnits checks Japanese polite sentence-final forms
// followed directly by the next sentence, and a temperature unit that is
// not an initial.
func TestRuleJapaneseAndUnits(t *testing.T) {
	checkRules(t, []ruleCase{
		{"ja", "刺身は最悪でしたソフトバンク直営店より高く売っていますしかし店員は親切です。", []string{"刺身は最悪でした", "ソフトバンク直営店より高く売っています", "しかし店員は親切です。"}},
		{"ja", "行きますが、遅れます。", []string{"行きますが、遅れます。"}},
		{"ja", "雨が降っていますね。", []string{"雨が降っていますね。"}},
		{"es", "La temperatura subió 2º C. Muchos científicos lo creen.", []string{"La temperatura subió 2º C.", "Muchos científicos lo creen."}},
		{"en", "It was 20 °C. Nobody went out.", []string{"It was 20 °C.", "Nobody went out."}},
		{"en", "Written by John C. Smith.", []string{"Written by John C. Smith."}},
		{"en", "The box is 10 in. wide. It fits.", []string{"The box is 10 in. wide.", "It fits."}},
		{"en", "He stayed in. Nobody came.", []string{"He stayed in.", "Nobody came."}},
	})
}

// TestRuleColonSentence checks that an English colon after a whole clause
// ends it before what reads as a sentence of its own, but not after a label
// or before a title or a name.
func TestRuleColonSentence(t *testing.T) {
	checkRules(t, []ruleCase{
		{"en", "They accept these groups as legitimate forms of a political party: On the same day the group said it would run.", []string{"They accept these groups as legitimate forms of a political party:", "On the same day the group said it would run."}},
		{"en", "Results: In most samples the level rose.", []string{"Results: In most samples the level rose."}},
		{"en", "He wrote a book about it, Medieval Herbal Remedies: The Old English Herbarium.", []string{"He wrote a book about it, Medieval Herbal Remedies: The Old English Herbarium."}},
		{"en", "The actual vote is a little confusing, so stay with me now: John Paul Stevens wrote the opinion.", []string{"The actual vote is a little confusing, so stay with me now: John Paul Stevens wrote the opinion."}},
	})
}

// TestRuleMoreNumberedReferences checks page and figure references in
// Czech, Swedish, Finnish and Ukrainian: a period after the number ends
// the sentence before a capital, and none after the reference itself.
func TestRuleMoreNumberedReferences(t *testing.T) {
	checkRules(t, []ruleCase{
		{"cs", "Viz obr. 3. Tam je to.", []string{"Viz obr. 3.", "Tam je to."}},
		{"sv", "Se sid. 12 för detaljer.", []string{"Se sid. 12 för detaljer."}},
		{"fi", "Katso s. 12. Siellä se on.", []string{"Katso s. 12.", "Siellä se on."}},
		{"uk", "Див. рис. 3. Там усе є.", []string{"Див. рис. 3.", "Там усе є."}},
	})
}

// TestRuleLabelledNumbers checks numbered items under a label ("Step 1.",
// "Question 2)"), which start at the label, and numbered references in
// prose ("see Table 1. … Table 2."), which are not list items at all.
func TestRuleLabelledNumbers(t *testing.T) {
	checkRules(t, []ruleCase{
		{"en", "Step 1. Open the box. Step 2. Remove the device.", []string{"Step 1. Open the box.", "Step 2. Remove the device."}},
		{"en", "Step 1. Open the box Step 2. Remove the device", []string{"Step 1. Open the box", "Step 2. Remove the device"}},
		{"en", "Question 1) What is it? Question 2) Why is it?", []string{"Question 1) What is it?", "Question 2) Why is it?"}},
		{"en", "Steps:\nStep 1. Open it\nStep 2. Close it", []string{"Steps:", "Step 1. Open it", "Step 2. Close it"}},
		{"en", "See Table 1. Then see Table 2. Both agree.", []string{"See Table 1.", "Then see Table 2.", "Both agree."}},
		{"en", "Go to Step 1. Then Step 2. Done.", []string{"Go to Step 1.", "Then Step 2.", "Done."}},
		{"de", "Siehe Abb. 1. Dann Abb. 2. Fertig.", []string{"Siehe Abb. 1.", "Dann Abb. 2.", "Fertig."}},
		{"en", "Fig. 1. A cat. Fig. 2. A dog.", []string{"Fig. 1. A cat.", "Fig. 2. A dog."}},
	})
}

// TestRuleElidedAbbreviation checks an abbreviation after an elided article
// or preposition (Italian, French): the abbreviation still binds.
func TestRuleElidedAbbreviation(t *testing.T) {
	checkRules(t, []ruleCase{
		{"it", "Ho chiamato l'avv. Neri stamattina.", []string{"Ho chiamato l'avv. Neri stamattina."}},
		{"it", "Il progetto dell'ing. Galli è pronto. Domani si parte.", []string{"Il progetto dell'ing. Galli è pronto.", "Domani si parte."}},
		{"it", "Era l’ultimo. Poi partì.", []string{"Era l’ultimo.", "Poi partì."}}, // a word, not an abbreviation
		{"fr", "Voici la lettre de l'abbé. Elle est longue.", []string{"Voici la lettre de l'abbé.", "Elle est longue."}},
	})
}

// TestRuleUnitAfterNumber checks a one-letter unit after a number ("m",
// "g", "l"): before a capitalised word it ends the sentence, unless the
// next word is itself a short abbreviation (an era: "v. Chr.", "a. C.").
// The abbreviations of "year" after a number end a sentence only before a
// sentence starter.
func TestRuleUnitAfterNumber(t *testing.T) {
	checkRules(t, []ruleCase{
		{"fr", "La tour fait 324 m. Gustave Eiffel l'a construite.", []string{"La tour fait 324 m.", "Gustave Eiffel l'a construite."}},
		{"es", "La cuerda mide 40 m. Nadie la quiso.", []string{"La cuerda mide 40 m.", "Nadie la quiso."}},
		{"en", "Add 250 g. Stir well.", []string{"Add 250 g.", "Stir well."}},
		{"de", "Er lebte um 3300 v. Chr. in den Alpen.", []string{"Er lebte um 3300 v. Chr. in den Alpen."}},
		{"es", "Se fundó hacia 700 a. C. La ciudad creció.", []string{"Se fundó hacia 700 a. C.", "La ciudad creció."}},
		{"en", "It weighs 5 g. or less.", []string{"It weighs 5 g. or less."}},
		// Year abbreviations.
		{"pl", "Wyjechał w 2004 r. Jego brat został.", []string{"Wyjechał w 2004 r.", "Jego brat został."}},
		{"pl", "W 2004 r. Polska weszła do Unii.", []string{"W 2004 r. Polska weszła do Unii."}},
		{"ru", "В 1961 г. Гагарин полетел в космос.", []string{"В 1961 г. Гагарин полетел в космос."}},
		{"ru", "Это случилось в 1961 г. Его имя знают все.", []string{"Это случилось в 1961 г.", "Его имя знают все."}},
		{"kk", "Ол 1991 ж. Алматыда туған.", []string{"Ол 1991 ж. Алматыда туған."}},
	})
}

// TestRuleGuessedReferences checks that, the language being guessed, a
// numbered reference of any language binds to the number after it, and a
// title of any language (three letters or more in English text) to the
// name after it.
func TestRuleGuessedReferences(t *testing.T) {
	checkRules(t, []ruleCase{
		{"", "Leia o cap. 4 e a pág. 7. Depois volte.", []string{"Leia o cap. 4 e a pág. 7.", "Depois volte."}},
		{"", "Podívej se na obr. 5. Je tam graf.", []string{"Podívej se na obr. 5.", "Je tam graf."}},
		{"", "Zie blz. 40 voor de tabel. Daar staat alles.", []string{"Zie blz. 40 voor de tabel.", "Daar staat alles."}},
		{"", "Вж. фиг. 2 и табл. 1. Там е всичко.", []string{"Вж. фиг. 2 и табл. 1.", "Там е всичко."}},
		{"", "Mevr. Bakker was here. Dhr. Smit was not.", []string{"Mevr. Bakker was here.", "Dhr. Smit was not."}},
		{"", "He was late. Fig. 3 shows why.", []string{"He was late.", "Fig. 3 shows why."}},
	})
}

// TestRuleClockReference checks Scandinavian "kl." (klokken, klockan,
// klokka) binding to the hour after it.
func TestRuleClockReference(t *testing.T) {
	for _, lang := range []string{"da", "sv", "no", "nb", ""} {
		checkRules(t, []ruleCase{
			{lang, "Vi ses kl. 9 i morgen.", []string{"Vi ses kl. 9 i morgen."}},
		})
	}
	checkRules(t, []ruleCase{
		{"sv", "Tåget går kl. 7. Var där i tid.", []string{"Tåget går kl. 7.", "Var där i tid."}},
		{"no", "Butikken stenger kl. 20. Kom før det.", []string{"Butikken stenger kl. 20.", "Kom før det."}},
	})
}

// TestRuleEtcBulgarian checks Bulgarian "и т.н." (and so on) ending a
// sentence before a capital, like the other languages' "etc.".
func TestRuleEtcBulgarian(t *testing.T) {
	checkRules(t, []ruleCase{
		{"bg", "Взехме сирене, хляб и т.н. Тръгнахме рано.", []string{"Взехме сирене, хляб и т.н.", "Тръгнахме рано."}},
		{"bg", "Взехме сирене, хляб и т.н. за път.", []string{"Взехме сирене, хляб и т.н. за път."}},
	})
}

// TestRuleGluedShortWord checks a two-letter word glued to the next
// sentence by its period ("an.Das"), which ends the sentence unless it is
// an abbreviation ("z.B.", "ca.").
func TestRuleGluedShortWord(t *testing.T) {
	checkRules(t, []ruleCase{
		{"de", "Der Bus kam spät an.Die Fahrt dauerte lange.", []string{"Der Bus kam spät an.", "Die Fahrt dauerte lange."}},
		{"en", "Nobody saw it.Then the lights went out.", []string{"Nobody saw it.", "Then the lights went out."}},
		{"de", "Das kostet ca.Zehn Euro.", []string{"Das kostet ca.Zehn Euro."}},
		{"en", "Open e.g.Word or another editor.", []string{"Open e.g.Word or another editor."}},
	})
}

// TestRuleDomainAtEnd checks a domain or file name ending a sentence: the
// part after its last dot, written in lower case, is no abbreviation even
// when a table lists it ("pt", "no", "doc").
func TestRuleDomainAtEnd(t *testing.T) {
	checkRules(t, []ruleCase{
		{"pt", "Visite loja.pt. Temos novidades.", []string{"Visite loja.pt.", "Temos novidades."}},
		{"en", "Read notes.doc. It is short.", []string{"Read notes.doc.", "It is short."}},
		{"en", "Read bbc.com. Nothing else is needed.", []string{"Read bbc.com.", "Nothing else is needed."}},
		{"it", "La sig.ra Rossi è arrivata.", []string{"La sig.ra Rossi è arrivata."}},
		{"en", "It rained all Tuesday.Mr. Smith stayed in.", []string{"It rained all Tuesday.", "Mr. Smith stayed in."}},
	})
}

// TestRuleMoreAbbreviations checks the Ukrainian, Finnish, Hungarian and
// Turkish abbreviation tables.
func TestRuleMoreAbbreviations(t *testing.T) {
	checkRules(t, []ruleCase{
		{"uk", "Музей на просп. Шевченка відкрито. Вхід вільний.", []string{"Музей на просп. Шевченка відкрито.", "Вхід вільний."}},
		{"uk", "Квиток коштує 50 грн. Діти безкоштовно.", []string{"Квиток коштує 50 грн.", "Діти безкоштовно."}},
		{"ru", "Билет стоит 300 руб. Дети проходят бесплатно.", []string{"Билет стоит 300 руб.", "Дети проходят бесплатно."}},
		{"ru", "Билет стоит 300 руб. за вход.", []string{"Билет стоит 300 руб. за вход."}},
		{"de", "Der Bau kostet 3 Mio. Euro.", []string{"Der Bau kostet 3 Mio. Euro."}},
		{"pl", "Bilet kosztuje 20 zł. Dzieci wchodzą za darmo.", []string{"Bilet kosztuje 20 zł.", "Dzieci wchodzą za darmo."}},
		{"sk", "Obchod zatvára o 18 hod. Potom je zavreté.", []string{"Obchod zatvára o 18 hod.", "Potom je zavreté."}},
		{"fi", "Tuo mm. leipää ja maitoa. Kiitos.", []string{"Tuo mm. leipää ja maitoa.", "Kiitos."}},
		{"fi", "Talo rakennettiin v. 1920 Ouluun.", []string{"Talo rakennettiin v. 1920 Ouluun."}},
		{"hu", "Vegyél pl. almát. Az olcsó.", []string{"Vegyél pl. almát.", "Az olcsó."}},
		{"hu", "Vettünk almát, körtét stb. Aztán hazamentünk.", []string{"Vettünk almát, körtét stb.", "Aztán hazamentünk."}},
		{"tr", "Meyve aldık: elma, armut vb. Sonra eve döndük.", []string{"Meyve aldık: elma, armut vb.", "Sonra eve döndük."}},
	})
}

// TestRuleStatesWeekdaysTitles checks US state abbreviations (AP style),
// Spanish and Italian weekday abbreviations before a date, Romanian
// titles, and "+" as a bullet at a line start.
func TestRuleStatesWeekdaysTitles(t *testing.T) {
	checkRules(t, []ruleCase{
		{"en", "She was born in Macon, Ga. in 1950.", []string{"She was born in Macon, Ga. in 1950."}},
		{"en", "He lives in Reno, Nev. He likes it.", []string{"He lives in Reno, Nev.", "He likes it."}},
		{"es", "Cerrado el dom. 5 de mayo.", []string{"Cerrado el dom. 5 de mayo."}},
		{"it", "Chiuso ven. 3 maggio.", []string{"Chiuso ven. 3 maggio."}},
		{"ro", "Dna. Pop este aici. Dl. Pop nu.", []string{"Dna. Pop este aici.", "Dl. Pop nu."}},
		{"", "Dl. Pop a plecat mâine.", []string{"Dl. Pop a plecat mâine."}},
		{"en", "Good:\n+ fast\n+ small", []string{"Good:", "+ fast", "+ small"}},
		{"en", "The sum 2 + 2 is four.", []string{"The sum 2 + 2 is four."}},
	})
}

// TestRuleRomanReference checks a numbered reference before a Roman number
// ("Art. IV", "Kap. XII"), which binds as before a digit.
func TestRuleRomanReference(t *testing.T) {
	checkRules(t, []ruleCase{
		{"en", "Read Art. IV of the treaty.", []string{"Read Art. IV of the treaty."}},
		{"de", "Das steht in Kap. XII des Buches.", []string{"Das steht in Kap. XII des Buches."}},
		{"en", "I love modern art. It moves me.", []string{"I love modern art.", "It moves me."}},
		{"es", "Véase el vol. II, pág. 40.", []string{"Véase el vol. II, pág. 40."}},
	})
}

// TestRuleGreetingLine checks the salutation line of a letter or a mail,
// ended by a comma or a colon and a line break, in several languages; a
// line that merely ends with a comma wraps.
func TestRuleGreetingLine(t *testing.T) {
	checkRules(t, []ruleCase{
		{"de", "Liebe Anna,\nwie geht es dir?", []string{"Liebe Anna,", "wie geht es dir?"}},
		{"fr", "Chère Claire,\nMerci pour ta lettre.", []string{"Chère Claire,", "Merci pour ta lettre."}},
		{"es", "Estimado Sr. Gil:\nLe escribo por lo siguiente.", []string{"Estimado Sr. Gil:", "Le escribo por lo siguiente."}},
		{"pl", "Szanowny Panie,\nDziękuję za list.", []string{"Szanowny Panie,", "Dziękuję za list."}},
		{"en", "Yesterday, after lunch,\nwe went home.", []string{"Yesterday, after lunch, we went home."}},
		{"de", "Er schrieb: Hallo Anna,\nwie geht es dir?", []string{"Er schrieb: Hallo Anna, wie geht es dir?"}},
	})
}

// TestRuleDatesAndDays checks an abbreviated month after a day number
// (the date ends its phrase), English weekday abbreviations before a word
// that is no month, time units after a number, and Hungarian dates with a
// period after every part.
func TestRuleDatesAndDays(t *testing.T) {
	checkRules(t, []ruleCase{
		{"nl", "Open tot 3 okt. Daarna dicht.", []string{"Open tot 3 okt.", "Daarna dicht."}},
		{"ru", "Скидки до 31 дек. Успейте купить.", []string{"Скидки до 31 дек.", "Успейте купить."}},
		{"da", "Åbent til 23. dec. kl. 16.", []string{"Åbent til 23. dec. kl. 16."}},
		{"en", "Due Apr. 30 at noon.", []string{"Due Apr. 30 at noon."}},
		{"en", "We met Sat. Nobody came.", []string{"We met Sat.", "Nobody came."}},
		{"en", "It opens Tue. Jan. 5 at nine.", []string{"It opens Tue. Jan. 5 at nine."}},
		{"en", "Wait 10 min. Then stir.", []string{"Wait 10 min.", "Then stir."}},
		{"en", "Cook for 3 hrs. Serve hot.", []string{"Cook for 3 hrs.", "Serve hot."}},
		{"hu", "Megnyílik 2026. 3. 15-én a kiállítás.", []string{"Megnyílik 2026. 3. 15-én a kiállítás."}},
		{"", "Przyjmuje od godz. 8. Zapraszamy.", []string{"Przyjmuje od godz. 8.", "Zapraszamy."}},
	})
}

func TestRuleArabicOneWordClause(t *testing.T) {
	checkRules(t, []ruleCase{
		// One word before the comma: an answer or a vocative, no clause.
		{"ar", "نعم، سآتي غدا.", []string{"نعم، سآتي غدا."}},
		{"ar", "هل انتهيت؟ لا، ليس بعد.", []string{"هل انتهيت؟", "لا، ليس بعد."}},
		{"fa", "بله، فردا می‌آیم.", []string{"بله، فردا می‌آیم."}},
		// A clause of its own before the comma still ends there.
		{"ar", "وصل الوفد صباح اليوم، بدأ الاجتماع بعد ساعة.", []string{"وصل الوفد صباح اليوم،", "بدأ الاجتماع بعد ساعة."}},
	})
}

func TestRuleUnitsOfMeasure(t *testing.T) {
	checkRules(t, []ruleCase{
		// A unit after an amount binds to a lower-case word and ends the
		// sentence before a capitalised one.
		{"en", "Add 2 gal. of water. Stir well.", []string{"Add 2 gal. of water.", "Stir well."}},
		{"en", "The crate weighs 40 lbs. Two men can lift it.", []string{"The crate weighs 40 lbs.", "Two men can lift it."}},
		{"en", "Use 8 oz. Then add the rest.", []string{"Use 8 oz.", "Then add the rest."}},
		{"ru", "Вес 5 кг. Цена договорная.", []string{"Вес 5 кг.", "Цена договорная."}},
		{"ru", "До города 12 км. по шоссе.", []string{"До города 12 км. по шоссе."}},
		{"bg", "Пакетът тежи 2 кг. Доставката е безплатна.", []string{"Пакетът тежи 2 кг.", "Доставката е безплатна."}},
		{"de", "Die Strecke ist 12 km. Danach folgt die Pause.", []string{"Die Strecke ist 12 km.", "Danach folgt die Pause."}},
	})
}

func TestRuleLetteredLabels(t *testing.T) {
	checkRules(t, []ruleCase{
		// A numbered reference binds to a one-letter label as to a number.
		{"en", "The proof is in App. B. It is short.", []string{"The proof is in App. B.", "It is short."}},
		{"en", "See Fig. A and Sec. C for the layout.", []string{"See Fig. A and Sec. C for the layout."}},
		{"de", "Siehe Abb. C. Dort ist alles gezeigt.", []string{"Siehe Abb. C.", "Dort ist alles gezeigt."}},
		// The pronoun I and a lower-case word that is an abbreviation
		// only before a number keep their reading.
		{"en", "I downloaded the app. I like it.", []string{"I downloaded the app.", "I like it."}},
		{"en", "Get the app. A new version is out.", []string{"Get the app.", "A new version is out."}},
		{"en", "Is it true? No. A man was seen there.", []string{"Is it true?", "No.", "A man was seen there."}},
	})
}

func TestRuleMonthAndYear(t *testing.T) {
	checkRules(t, []ruleCase{
		// An abbreviated month between a day and a year is inside a date.
		{"pl", "Umowa wygasa 30 wrz. 2026 r. Nie zwlekaj.", []string{"Umowa wygasa 30 wrz. 2026 r.", "Nie zwlekaj."}},
		{"bg", "Срокът е 1 фев. 2026 г. Не закъснявайте.", []string{"Срокът е 1 фев. 2026 г.", "Не закъснявайте."}},
		{"ru", "Собрание 3 дек. 2025 года. Явка обязательна.", []string{"Собрание 3 дек. 2025 года.", "Явка обязательна."}},
		{"en", "Prices rose in Feb. 2024 and fell later.", []string{"Prices rose in Feb. 2024 and fell later."}},
		// Without a year, a capital after the month still starts a sentence.
		{"nl", "Gesloten op 27 apr. Tot dan.", []string{"Gesloten op 27 apr.", "Tot dan."}},
	})
}

func TestRuleMoreReferenceAbbreviations(t *testing.T) {
	checkRules(t, []ruleCase{
		{"el", "Βλ. κεφ. 3 για λεπτομέρειες. Εκεί εξηγούνται.", []string{"Βλ. κεφ. 3 για λεπτομέρειες.", "Εκεί εξηγούνται."}},
		{"sk", "Podľa § 2 ods. 3 zákona to platí. Nič viac.", []string{"Podľa § 2 ods. 3 zákona to platí.", "Nič viac."}},
		{"pl", "Zob. też rozdz. 4. Tam jest opis.", []string{"Zob. też rozdz. 4.", "Tam jest opis."}},
	})
}

// TestRuleGuessedLanguageAbbreviations runs with the language guessed (""):
// another language's abbreviation before a lower-case word, its title
// written in lower case, and its clock or page reference before a number
// bind as in that language.
func TestRuleGuessedLanguageAbbreviations(t *testing.T) {
	checkRules(t, []ruleCase{
		{"", "Neem brood, kaas enz. mee. Wij zorgen voor drinken.", []string{"Neem brood, kaas enz. mee.", "Wij zorgen voor drinken."}},
		{"", "Zob. art. 5 ustawy oraz rozdz. 2. To wszystko.", []string{"Zob. art. 5 ustawy oraz rozdz. 2.", "To wszystko."}},
		// Guessed as English, an English word that another language
		// abbreviates ends its sentence as any word.
		{"", "i saw him at the vet two days ago. then he left.", []string{"i saw him at the vet two days ago.", "then he left."}},
		{"", "Dhr. Jansen en mevr. De Vries waren er. De zaal was vol.", []string{"Dhr. Jansen en mevr. De Vries waren er.", "De zaal was vol."}},
		{"", "Mötet är den 4. juni kl. 9. Kom i tid.", []string{"Mötet är den 4. juni kl. 9.", "Kom i tid."}},
		// A capital after them still starts a sentence.
		{"", "We bought apples, pears etc. Then we went home.", []string{"We bought apples, pears etc.", "Then we went home."}},
	})
}

func TestRuleOneWordGreeting(t *testing.T) {
	checkRules(t, []ruleCase{
		// A greeting line of one word and a name, in any language, the
		// language given or guessed.
		{"en", "Ciao Mark,\n\nthanks for the photos.", []string{"Ciao Mark,", "thanks for the photos."}},
		{"", "Ciao Marco,\n\ngrazie mille. Ci sentiamo.", []string{"Ciao Marco,", "grazie mille.", "Ci sentiamo."}},
		{"en", "Yo Dave,\n\nsee you tonight.", []string{"Yo Dave,", "see you tonight."}},
		// Initials signing the previous unit are not a greeting.
		{"en", "Here you go. AC\n\nSanjeev, I have the list.", []string{"Here you go.", "AC", "Sanjeev,", "I have the list."}},
	})
}

func TestRuleLabelSalutation(t *testing.T) {
	checkRules(t, []ruleCase{
		// A one-word salutation or label with a colon after a name that
		// signed the unit before, then a sentence (line breaks lost).
		{"en", "See you there. Thanks - Davis Clint: I spoke with Mike today.", []string{"See you there.", "Thanks -", "Davis", "Clint:", "I spoke with Mike today."}},
		{"en", "It should be fine. Susan Susan: While you review it, call me.", []string{"It should be fine.", "Susan", "Susan:", "While you review it, call me."}},
		{"en", "Room to grow within the firm. KM Requirements: You'll need a degree.", []string{"Room to grow within the firm.", "KM", "Requirements:", "You'll need a degree."}},
		// A full name before the colon (the colon rule may still end the
		// clause), a lower-case word before the name, or no sentence after
		// the colon: no boundary before the name.
		{"en", "Our new hire is Anna Smith: She starts Monday.", []string{"Our new hire is Anna Smith:", "She starts Monday."}},
		{"en", "We finally visited Paris: It was lovely.", []string{"We finally visited Paris: It was lovely."}},
		{"en", "Done. Susan Agenda: budget and staffing.", []string{"Done.", "Susan Agenda: budget and staffing."}},
	})
}

func TestRuleLoneName(t *testing.T) {
	checkRules(t, []ruleCase{
		// A name standing alone (text or line start, after a stop or a
		// closing bracket), then a clause opener and a lower-case word.
		{"en", "Rodgers As we discussed, here is the draft.", []string{"Rodgers", "As we discussed, here is the draft."}},
		{"en", "The total is 16 billion (not 10 as discussed) Mark As promised, here is the copy.", []string{"The total is 16 billion (not 10 as discussed)", "Mark", "As promised, here is the copy."}},
		{"en", "See you then. Paul If you need anything, call.", []string{"See you then.", "Paul", "If you need anything, call."}},
		// A name inside a clause, a capitalised word after the opener, or a
		// sentence starter: no boundary.
		{"en", "I told Paul If he wants it, he can have it.", []string{"I told Paul If he wants it, he can have it."}},
		{"en", "Chapter Two. Mark When Lions Roar.", []string{"Chapter Two.", "Mark When Lions Roar."}},
	})
}

func TestRuleRound2Markers(t *testing.T) {
	checkRules(t, []ruleCase{
		// List markers in the digits of other scripts.
		{"fa", "موارد:\n۱. گذرنامه\n۲. عکس\n۳. فرم", []string{"موارد:", "۱. گذرنامه", "۲. عکس", "۳. فرم"}},
		{"ar", "الخطوات:\n١) افتح الملف\n٢) احفظه", []string{"الخطوات:", "١) افتح الملف", "٢) احفظه"}},
		{"hi", "सूची:\n१. दूध\n२. चीनी", []string{"सूची:", "१. दूध", "२. चीनी"}},
		// A reversed guillemet closing a quotation after its stop.
		{"da", "Hun sagde: »Det er fint.« Så gik hun.", []string{"Hun sagde: »Det er fint.«", "Så gik hun."}},
		{"de", "Er fragte: »Kommst du?« Sie nickte.", []string{"Er fragte: »Kommst du?«", "Sie nickte."}},
		{"sv", "Han sa: »Jag kommer.« Sedan gick han.", []string{"Han sa: »Jag kommer.«", "Sedan gick han."}},
		{"fr", "Il a dit : « Oui. » Puis il est parti.", []string{"Il a dit : « Oui. »", "Puis il est parti."}},
		// A time or a score glued to the next sentence.
		{"de", "Das Spiel endete 2:1.Danach feierten alle.", []string{"Das Spiel endete 2:1.", "Danach feierten alle."}},
		{"en", "We met at 10:30.Then we left.", []string{"We met at 10:30.", "Then we left."}},
		{"en", "Read John 3:16 first.", []string{"Read John 3:16 first."}},
		// Danish "stk." after "pr." is a piece, not a subsection.
		{"da", "Prisen er 20 kr. pr. stk. Levering er gratis.", []string{"Prisen er 20 kr. pr. stk.", "Levering er gratis."}},
		{"da", "Efter § 3, stk. 2 gælder reglen.", []string{"Efter § 3, stk. 2 gælder reglen."}},
	})
}

func TestRuleSignoffAfterNumber(t *testing.T) {
	checkRules(t, []ruleCase{
		// A sign-off after the number that ends a signature or table line
		// (line breaks lost).
		{"en", "Ph: (713) 853-5620 Fax: (713) 646-3490 Thanks. Sara", []string{"Ph: (713) 853-5620 Fax: (713) 646-3490", "Thanks.", "Sara"}},
		{"en", "Total due -$ 166,960 Thanks As seen below, please pay.", []string{"Total due -$ 166,960", "Thanks", "As seen below, please pay."}},
		// A capitalised word other than a sign-off: no boundary.
		{"en", "Call 555-1234 Monday morning.", []string{"Call 555-1234 Monday morning."}},
	})
}

func TestRuleRound3TimeZone(t *testing.T) {
	checkRules(t, []ruleCase{
		// A time zone after a.m. or p.m. belongs to the clock time.
		{"en", "The launch is at 9 a.m. PT on Tuesday. Tune in early.", []string{"The launch is at 9 a.m. PT on Tuesday.", "Tune in early."}},
		{"en", "Polls close at 8 p.m. EST. Results follow.", []string{"Polls close at 8 p.m. EST.", "Results follow."}},
		{"en", "We land at 6 a.m. GMT and rest.", []string{"We land at 6 a.m. GMT and rest."}},
		{"de", "Der Anruf ist um 14:00 CET. Bitte pünktlich.", []string{"Der Anruf ist um 14:00 CET.", "Bitte pünktlich."}},
		// Any other capitalised word after p.m. still starts a sentence.
		{"en", "We closed at 5 p.m. Nobody stayed.", []string{"We closed at 5 p.m.", "Nobody stayed."}},
	})
}

func TestRuleRound3Emoji(t *testing.T) {
	checkRules(t, []ruleCase{
		// Emoji after a stop belong to the sentence they follow.
		{"en", "We won!! 🏆🎉 Party at eight.", []string{"We won!! 🏆🎉", "Party at eight."}},
		{"en", "Happy birthday! ❤️ Call me later.", []string{"Happy birthday! ❤️", "Call me later."}},
		{"de", "Endlich Urlaub. 😎 Bis bald.", []string{"Endlich Urlaub. 😎", "Bis bald."}},
		// An emoji after a word, before a capitalised word, ends the unit.
		{"en", "Best concert ever 🎸 Thanks to everyone who came.", []string{"Best concert ever 🎸", "Thanks to everyone who came."}},
		// An emoji opening a line marks an item; inside a sentence it stays.
		{"en", "🔹 Fast setup\n🔹 Low cost", []string{"🔹 Fast setup", "🔹 Low cost"}},
		{"en", "I love 🍕 and pasta.", []string{"I love 🍕 and pasta."}},
	})
}

func TestRuleRound3Approx(t *testing.T) {
	checkRules(t, []ruleCase{
		// "approximately" after the amount it qualifies ends the phrase
		// before a capitalised word.
		{"es", "El viaje dura 3 h aprox. Salimos a las ocho.", []string{"El viaje dura 3 h aprox.", "Salimos a las ocho."}},
		{"en", "The hike is 12 km approx. Bring water.", []string{"The hike is 12 km approx.", "Bring water."}},
		{"en", "Tickets cost 40 approx. Parking is extra.", []string{"Tickets cost 40 approx.", "Parking is extra."}},
		// Before an amount, or after a word, it binds.
		{"de", "Wir fahren ca. Mitte Mai los.", []string{"Wir fahren ca. Mitte Mai los."}},
		{"es", "Cuesta aprox. 20 euros. Pagamos ya.", []string{"Cuesta aprox. 20 euros.", "Pagamos ya."}},
		{"en", "It weighs approx. 3 kg in total.", []string{"It weighs approx. 3 kg in total."}},
	})
}

func TestRuleRound3BareNumber(t *testing.T) {
	checkRules(t, []ruleCase{
		// An unknown abbreviation before a number with a stop: a bare
		// number is no sentence, so the number belongs to the abbreviation.
		{"nl", "Het kantoor is aan de Stationsstr. 18. Kom gerust langs.", []string{"Het kantoor is aan de Stationsstr. 18.", "Kom gerust langs."}},
		{"nl", "Lees hfdst. 7. Daarna volgt de toets.", []string{"Lees hfdst. 7.", "Daarna volgt de toets."}},
		{"nl", "Het schema staat in afb. 3. Daar zie je alles.", []string{"Het schema staat in afb. 3.", "Daar zie je alles."}},
		// A number that goes on (a list item, a year with words) may open a
		// sentence after a word.
		{"en", "We sold the house. 2019 was a hard year.", []string{"We sold the house.", "2019 was a hard year."}},
		{"en", "Do this first.\n1. Open the box.\n2. Read the note.", []string{"Do this first.", "1. Open the box.", "2. Read the note."}},
	})
}

func TestRuleRound3Tables(t *testing.T) {
	checkRules(t, []ruleCase{
		// Hungarian "de." and "du." (before and after noon) before an hour.
		{"hu", "A bolt du. 2 órától zár, de. 9-kor nyit. Kérem, vegye figyelembe.", []string{"A bolt du. 2 órától zár, de. 9-kor nyit.", "Kérem, vegye figyelembe."}},
		{"hu", "Szeretném, de. Nem megy.", []string{"Szeretném, de.", "Nem megy."}},
		// A Dutch chapter reference.
		{"nl", "Zie hst. 2 en bijlage B. Dat is alles.", []string{"Zie hst. 2 en bijlage B.", "Dat is alles."}},
		// Another language's vowelless abbreviation binds before a lower-case
		// word, also when the guess is English ("dvs.", "bzw.", "vgl.").
		{"", "Vi startar kl. 8, dvs. innan lunch. Ta med dator.", []string{"Vi startar kl. 8, dvs. innan lunch.", "Ta med dator."}},
		{"", "Kommt am Montag bzw. am Dienstag. Gut.", []string{"Kommt am Montag bzw. am Dienstag.", "Gut."}},
		// An English word ending a sentence before a lower-case word stays
		// a possible end when the guess is English ("ago.").
		{"", "it happened years ago. then we moved on.", []string{"it happened years ago.", "then we moved on."}},
	})
}

func TestRuleRound3EllipsisI(t *testing.T) {
	checkRules(t, []ruleCase{
		// An ellipsis written against the last word of a clause ends it
		// before "I" as before any capital.
		{"en", "The queue at the desk was endless... I gave up and left.", []string{"The queue at the desk was endless...", "I gave up and left."}},
		{"en", "We tried every shop in town… I found nothing.", []string{"We tried every shop in town…", "I found nothing."}},
		// A spaced ellipsis marks words left out, and one after a word or
		// two is a hesitation: no boundary.
		{"en", "What I mean is . . . I never wanted it.", []string{"What I mean is . . . I never wanted it."}},
		{"en", "Well... I suppose so.", []string{"Well... I suppose so."}},
	})
}

func TestRuleRound3Months(t *testing.T) {
	checkRules(t, []ruleCase{
		// Month abbreviations of Austrian German ("Jän."), Dutch ("mrt."),
		// German ("Mrz.") and Portuguese ("fev.", "mai.") before a year.
		{"de", "Am 13. Jän. 2025 schneite es. Dann taute es.", []string{"Am 13. Jän. 2025 schneite es.", "Dann taute es."}},
		{"de", "Seit 1. Mrz. 2024 gilt der Tarif. Er ist günstiger.", []string{"Seit 1. Mrz. 2024 gilt der Tarif.", "Er ist günstiger."}},
		{"nl", "Op 4 mrt. 2023 opende de zaak. Het was druk.", []string{"Op 4 mrt. 2023 opende de zaak.", "Het was druk."}},
		{"pt", "Em 3 fev. 2022 e 9 mai. 2023 houve greves. Tudo parou.", []string{"Em 3 fev. 2022 e 9 mai. 2023 houve greves.", "Tudo parou."}},
	})
}

func TestRuleRound4Glued(t *testing.T) {
	checkRules(t, []ruleCase{
		// A score or range of two numbers ends a sentence glued to the next.
		{"es", "Ganamos 2-0.Mañana jugamos otra vez.", []string{"Ganamos 2-0.", "Mañana jugamos otra vez."}},
		{"sv", "Resultatet blev 3–2.Publiken jublade.", []string{"Resultatet blev 3–2.", "Publiken jublade."}},
		{"da", "Det endte 1-0.Alle gik hjem.", []string{"Det endte 1-0.", "Alle gik hjem."}},
		{"el", "Έχασαν 0-3.Ο προπονητής παραιτήθηκε.", []string{"Έχασαν 0-3.", "Ο προπονητής παραιτήθηκε."}},
		{"en", "Sales grew in 2019-2020.Then they fell.", []string{"Sales grew in 2019-2020.", "Then they fell."}},
		// A date before a month, a sign, or three parts stay.
		{"de", "Wir sind vom 2-5.Juni weg.", []string{"Wir sind vom 2-5.Juni weg."}},
		// In a script without case: a number or a word of three letters or
		// more glued to the next word by the period.
		{"ar", "انتهت المباراة 3-0.عاد اللاعبون إلى الفندق.", []string{"انتهت المباراة 3-0.", "عاد اللاعبون إلى الفندق."}},
		{"fa", "او به خانه رفت.فردا برمی‌گردد.", []string{"او به خانه رفت.", "فردا برمی‌گردد."}},
		{"mr", "तो घरी गेला.उद्या परत येईल.", []string{"तो घरी गेला.", "उद्या परत येईल."}},
		// Abbreviations of a letter or two, and dotted ones, stay.
		{"ar", "وصل د.أحمد إلى المكتب.", []string{"وصل د.أحمد إلى المكتب."}},
		{"hi", "गाँव 5 कि.मी.दूर है।", []string{"गाँव 5 कि.मी.दूर है।"}},
		// The Armenian full stop needs no space after it.
		{"hy", "Մենք պարտվեցինք 1:3։Հաջորդ անգամ կհաղթենք։", []string{"Մենք պարտվեցինք 1:3։", "Հաջորդ անգամ կհաղթենք։"}},
	})
}

func TestRuleRound4Enumerators(t *testing.T) {
	checkRules(t, []ruleCase{
		// Item numbers of CJK text open a line: Chinese numerals with the
		// enumeration comma, numbers in full-width brackets, full-width
		// digits with the full-width period.
		{"zh", "一、目的\n二、范围\n三、要求", []string{"一、目的", "二、范围", "三、要求"}},
		{"zh", "（一）总则\n（二）细则", []string{"（一）总则", "（二）细则"}},
		{"zh", "1、准备材料\n2、开始实验", []string{"1、准备材料", "2、开始实验"}},
		{"ja", "（1）申込書を書く\n（2）窓口に出す", []string{"（1）申込書を書く", "（2）窓口に出す"}},
		{"ja", "１．準備\n２．実行", []string{"１．準備", "２．実行"}},
		// A script's full stop after an item number is its period.
		{"ur", "1۔ دودھ خریدیں۔\n2۔ گھر جائیں۔", []string{"1۔ دودھ خریدیں۔", "2۔ گھر جائیں۔"}},
		{"my", "၁။ ထမင်းစားပါ။\n၂။ အိပ်ပါ။", []string{"၁။ ထမင်းစားပါ။", "၂။ အိပ်ပါ။"}},
		{"am", "1። ቅጹን ይሙሉ።\n2። ፎቶ ያያይዙ።", []string{"1። ቅጹን ይሙሉ።", "2። ፎቶ ያያይዙ።"}},
		{"hi", "१। दूध लाओ।\n२। घर जाओ।", []string{"१। दूध लाओ।", "२। घर जाओ।"}},
		// A CJK line wrap without an item number stays a wrap; a number
		// ending a sentence inside a line still ends it.
		{"zh", "我们明天\n去公园。", []string{"我们明天去公园。"}},
		{"ur", "جواب ہے 42۔ یہ درست ہے۔", []string{"جواب ہے 42۔", "یہ درست ہے۔"}},
	})
}

func TestRuleRound4References(t *testing.T) {
	checkRules(t, []ruleCase{
		// A number after a written-out reference is a cardinal, not an
		// ordinal, also for the nouns of legal and technical text.
		{"de", "Das regelt Satz 2. Weitere Fragen klärt der Vertrag.", []string{"Das regelt Satz 2.", "Weitere Fragen klärt der Vertrag."}},
		{"de", "Der Fehler steht in Zeile 4. Dort fehlt ein Komma.", []string{"Der Fehler steht in Zeile 4.", "Dort fehlt ein Komma."}},
		{"de", "Am 2. Weihnachtstag bleiben wir zu Hause.", []string{"Am 2. Weihnachtstag bleiben wir zu Hause."}},
		// A numbered-reference abbreviation after a number is a unit or a
		// count, which ends the phrase before a capital.
		{"ru", "Масса — 3 т. Погрузка завтра.", []string{"Масса — 3 т.", "Погрузка завтра."}},
		{"de", "Das Buch hat 120 S. Leider fehlt ein Register.", []string{"Das Buch hat 120 S.", "Leider fehlt ein Register."}},
		{"de", "Band 3 Nr. 5 ist vergriffen.", []string{"Band 3 Nr. 5 ist vergriffen."}},
		// Greek references and the hour before and after noon.
		{"el", "Το σχ. 4 δείχνει την τάση. Ο πίνακας ακολουθεί.", []string{"Το σχ. 4 δείχνει την τάση.", "Ο πίνακας ακολουθεί."}},
		{"el", "Το άρθ. 12 ισχύει από σήμερα.", []string{"Το άρθ. 12 ισχύει από σήμερα."}},
		{"el", "Το κατάστημα κλείνει στις 9 μ.μ. Αύριο είναι κλειστό.", []string{"Το κατάστημα κλείνει στις 9 μ.μ.", "Αύριο είναι κλειστό."}},
		{"sv", "Vi ses kl. 3 e.m. Ta med kaffe.", []string{"Vi ses kl. 3 e.m.", "Ta med kaffe."}},
		// The hour as a unit after a clock time.
		{"bg", "Срещата е в 10 ч. Моля, елате навреме.", []string{"Срещата е в 10 ч.", "Моля, елате навреме."}},
		// "about" before an amount binds in any language, also guessed.
		{"bg", "Струва ок. 15 лв. на ден.", []string{"Струва ок. 15 лв. на ден."}},
		{"", "Pesa aprox. 3 kg. Es ligero.", []string{"Pesa aprox. 3 kg.", "Es ligero."}},
		// Swedish abbreviations.
		// Swedish abbreviations; another language's sentence starter
		// (Italian "per") is a name after one when the language is given.
		{"sv", "Dit kom bl.a. Per Holm. Han talade först.", []string{"Dit kom bl.a. Per Holm.", "Han talade först."}},
		// A version written in Latin letters in Japanese text; "ver" a
		// Spanish word still ends a sentence.
		{"ja", "Ver. 3.0では新機能が追加された。", []string{"Ver. 3.0では新機能が追加された。"}},
		{"es", "Vamos a ver. Luego hablamos.", []string{"Vamos a ver.", "Luego hablamos."}},
		// Polish sentence starters after a year; a year phrase opening a
		// sentence stays.
		{"pl", "Termin mija 5.06.2025 r. Prosimy o terminowe wpłaty.", []string{"Termin mija 5.06.2025 r.", "Prosimy o terminowe wpłaty."}},
		{"pl", "W 2020 r. Komisja Europejska zdecydowała inaczej.", []string{"W 2020 r. Komisja Europejska zdecydowała inaczej."}},
		// Dutch function words let short Dutch text be guessed as Dutch.
		{"", "Dat is bijv. wat ik bedoel. Hij komt morgen.", []string{"Dat is bijv. wat ik bedoel.", "Hij komt morgen."}},
		{"", "Het is nl. te vroeg. We wachten.", []string{"Het is nl. te vroeg.", "We wachten."}},
	})
}

func TestRuleRound4Devanagari(t *testing.T) {
	checkRules(t, []ruleCase{
		// One letter with its vowel sign is an initial; dotted letters with
		// vowel signs are an abbreviation.
		{"hi", "सी. वी. रमन को नोबेल मिला। वे भौतिकविद थे।", []string{"सी. वी. रमन को नोबेल मिला।", "वे भौतिकविद थे।"}},
		{"hi", "दूरी 12 कि.मी. है। हम पैदल चले।", []string{"दूरी 12 कि.मी. है।", "हम पैदल चले।"}},
		{"mr", "डॉ. बी. आर. आंबेडकर यांनी संविधान लिहिले. ते महान होते.", []string{"डॉ. बी. आर. आंबेडकर यांनी संविधान लिहिले.", "ते महान होते."}},
		// A word of more letters still ends a Marathi sentence.
		{"mr", "ते आले. मी गेलो.", []string{"ते आले.", "मी गेलो."}},
	})
}

func TestRuleRound4ColonQuote(t *testing.T) {
	checkRules(t, []ruleCase{
		// A colon before a quotation introduces it, whichever way the marks
		// are typed in right-to-left text.
		{"ur", "استاد نے کہا: ”کل چھٹی ہے۔“ سب خوش ہو گئے۔", []string{"استاد نے کہا: ”کل چھٹی ہے۔“", "سب خوش ہو گئے۔"}},
		{"ar", "قال المدرب: »سنفوز غداً.« ثم غادر.", []string{"قال المدرب: »سنفوز غداً.«", "ثم غادر."}},
		// An Arabic headline ending with a colon still ends there.
		{"ar", "الصنداي تايمز: رئيس الوزراء يستقيل. الحكومة تجتمع.", []string{"الصنداي تايمز:", "رئيس الوزراء يستقيل.", "الحكومة تجتمع."}},
	})
}

func TestRuleRound4BracketedSentence(t *testing.T) {
	checkRules(t, []ruleCase{
		// Brackets opened at a sentence start hold a sentence of their own.
		{"ja", "（写真は昨年のもの。）今年も開催される。", []string{"（写真は昨年のもの。）", "今年も開催される。"}},
		{"ja", "雨が降った。（傘は持っていた。）だから濡れなかった。", []string{"雨が降った。", "（傘は持っていた。）", "だから濡れなかった。"}},
		// Inside a sentence they, and quotations, continue it.
		{"ja", "彼は（たぶん冗談で。）と言った。", []string{"彼は（たぶん冗談で。）と言った。"}},
		{"ja", "彼女は「もう帰る。」と言った。", []string{"彼女は「もう帰る。」と言った。"}},
	})
}

func TestRuleRound4Check(t *testing.T) {
	checkRules(t, []ruleCase{
		// A range of per-cents glued to the next sentence, the sign written
		// on or spaced off.
		{"en", "Support fell to 30-35%.Then it recovered.", []string{"Support fell to 30-35%.", "Then it recovered."}},
		{"fr", "Le taux est de 5-6 %.Il baisse encore.", []string{"Le taux est de 5-6 %.", "Il baisse encore."}},
		// Day numbers before a month are dates, not a numbered list.
		{"de", "Am 1. Mai und am 2. Mai ist das Amt zu.", []string{"Am 1. Mai und am 2. Mai ist das Amt zu."}},
		{"de", "Vom 3. März bis zum 4. März ist Messe. Danach nicht.", []string{"Vom 3. März bis zum 4. März ist Messe.", "Danach nicht."}},
		{"de", "1. Brot kaufen 2. Milch holen", []string{"1. Brot kaufen", "2. Milch holen"}},
		// A two-letter word of Arabic script glued to the next.
		{"fa", "باران آمد و هوا سرد شد.مردم به خانه رفتند.", []string{"باران آمد و هوا سرد شد.", "مردم به خانه رفتند."}},
		// Where the danda ends sentences, a period after a Devanagari
		// letter marks an abbreviation; Marathi, ending sentences with a
		// period, still does.
		{"hi", "दाल 1 कि. ग्रा. लो। फिर घर आओ।", []string{"दाल 1 कि. ग्रा. लो।", "फिर घर आओ।"}},
		{"mr", "ते आले. मी गेलो.", []string{"ते आले.", "मी गेलो."}},
	})
}
