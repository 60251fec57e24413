package normalize_test

import "testing"

// TestRound6Rules covers the de/es/fr/zh rule gaps round 6 of the
// generalization set found (docs/bench/normalize.md): each rule with cases
// it changes and cases near it that it must leave alone. The cases are
// written from the rules, not taken from the shared suites.
func TestRound6Rules(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// French telephone pairs said with "et un" / "et onze"
		{"pair with et un", "fr", itn, "zéro six quarante et un vingt-deux treize quatre-vingt-dix-neuf", "06 41 22 13 99"},
		{"pairs 21 31 51 71", "fr", itn, "zéro un vingt et un trente et un cinquante et un soixante et onze", "01 21 31 51 71"},
		{"et un outside a number", "fr", itn, "il a quarante et un ans", "il a 41 ans"},
		{"four pairs stay words", "fr", itn, "zéro six quarante et un vingt-deux treize", "zéro six 41 22 13"},
		// Chinese ratios and scores: a colon that cannot be a clock time
		{"score", "zh", tn, "比赛以2:0结束", "比赛以二比零结束"},
		{"score past 59", "zh", tn, "比分是78:96", "比分是七十八比九十六"},
		{"scale ratio", "zh", tn, "1:50000", "一比五万"},
		{"clock time stays", "zh", tn, "10:05", "十点五分"},
		{"h:m:s stays", "zh", tn, "07:08:09", "七点八分九秒"},
		// Chinese 零下 before a temperature
		{"below zero", "zh", itn, "零下五摄氏度", "-5°C"},
		{"below zero decimal", "zh", itn, "零下十二点五摄氏度", "-12.5°C"},
		{"below zero without a temperature unit", "zh", itn, "零下五千克", "零下5kg"},
		{"below zero alone", "zh", itn, "零下", "零下"},
		// Chinese: two digits before 年 after a word that counts time are a
		// duration, after 第 an ordinal; otherwise a year read digit by digit
		{"duration after 了", "zh", tn, "他在北京住了15年", "他在北京住了十五年"},
		{"duration after 约", "zh", tn, "约30年", "约三十年"},
		{"two years", "zh", tn, "过了2年", "过了两年"},
		{"ordinal year", "zh", tn, "第2年", "第二年"},
		{"short year", "zh", tn, "在05年", "在零五年"},
		{"full year after 了", "zh", tn, "到了2015年", "到了二零一五年"},
		// a compound scale word before a currency or unit (es "mil millones")
		{"mil millones before a currency", "es", tn, "3 mil millones €", "tres mil millones de euros"},
		{"mil millones before a unit", "es", tn, "5 mil millones km", "cinco mil millones de kilómetros"},
		{"mil before a noun stays", "es", tn, "3 mil personas", "tres mil personas"},
		{"mille milliards", "fr", tn, "2 mille milliards €", "deux mille milliards d'euros"},
		// a unit after a scale word and "de" in ITN, written as TN reads it
		{"unit after millones de", "es", itn, "cinco millones de toneladas", "5 millones de t"},
		{"noun after millones de", "es", itn, "dos millones de personas", "2 millones de personas"},
		{"unit after millions de", "fr", itn, "cinq millions de kilomètres", "5 millions de km"},
		// French ITN groups only the number, not a scale word after it
		{"scale before a unit", "fr", itn, "cinq millions kilomètres", "5 millions km"},
		{"grouped number before a unit", "fr", itn, "quarante-deux-mille-deux-cent-cinquante-neuf par mètre carré", "42 259 /m²"},
		// French "2d", "2de" (and the superscripts ITN writes) for second(e)
		{"2de", "fr", tn, "la 2de place", "la seconde place"},
		{"2ᵈ", "fr", tn, "le 2ᵈ tour", "le second tour"},
		{"de after another number", "fr", tn, "12de", "douze de"},
		// a number after a number reference is written in digits
		{"Nr.", "de", itn, "zimmer nummer drei", "zimmer Nr. 3"},
		{"small number stays", "de", itn, "ich habe fünf", "ich habe fünf"},
		{"número", "es", itn, "página tres", "página 3"},
		{"numéro", "fr", itn, "numéro cinq", "numéro 5"},
		// Chinese measures keep a round 万 as cardinals do; 一万五千米 is metres
		{"round 万 before a unit", "zh", itn, "五百万吨", "500万t"},
		{"千 of the number after 万", "zh", itn, "一万五千米", "15000m"},
		{"千 taken back by the unit", "zh", itn, "五千克", "5kg"},
		// German mixed numbers above one take the unit's plural
		{"mixed number plural", "de", tn, "2 1/2 h", "zwei ein halb stunden"},
		{"fraction below one singular", "de", tn, "1/2 h", "ein halb stunde"},
		// German dative plurals of units in ITN
		{"dative plural", "de", itn, "mit zwei litern", "mit 2 l"},
		{"dative plural kilometer", "de", itn, "in drei kilometern", "in 3 km"},
		// Spanish "del mediodía" is p.m. (as TN reads "12.15 p.m.")
		{"del mediodía", "es", itn, "las doce del mediodía", "las 12:00 p.m."},
		{"de la tarde", "es", itn, "las cuatro y diez de la tarde", "las 4:10 p.m."},
		// German micro units written with the Greek mu, as the suite's μm
		{"microgram", "de", itn, "zwei hundert fünfzig mikrogramm", "250 μg"},
		{"microsecond", "de", itn, "drei mikrosekunden", "3 μs"},
		{"micrometer", "de", itn, "drei hundert mikrometer", "300 μm"},
		{"micro sign read", "de", tn, "5 µg", "fünf mikrogramm"},
	})
}
