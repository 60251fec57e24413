package normalize_test

import "testing"

// TestMisreadingRules covers the misreadings helpers noticed in session 12
// (issue 10, task N), each rule with neighbouring inputs it must leave alone.
func TestMisreadingRules(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// French clock times written with colons read as the "h" form
		{"fr colon time full hour", "fr", tn, "14:00", "quatorze heures"},
		{"fr colon time minutes", "fr", tn, "à 8:30", "à huit heures trente"},
		{"fr colon time one o'clock", "fr", tn, "1:15", "une heure quinze"},
		{"fr colon time seconds", "fr", tn, "14:05:10", "quatorze heures cinq minutes et dix secondes"},
		{"fr colon time range", "fr", tn, "14:00-16:00", "quatorze heures à seize heures"},
		{"fr h form unchanged", "fr", tn, "14h00", "quatorze heures"},
		{"fr one-digit after colon is no time", "fr", tn, "3:1", "trois:un"},
		{"fr hour past 24 is no time", "fr", tn, "25:00", "vingt-cinq:zéro zéro"},
		{"fr minutes past 59 are no time", "fr", tn, "10:75", "dix:soixante-quinze"},
		// a hyphen where a spoken unit has a space reads as the space
		{"fr hyphenated square metres", "fr", itn, "deux mètres-carrés", "2 m²"},
		{"fr hyphenated cubic metres", "fr", itn, "cinq mètres-cubes", "5 m³"},
		{"es hyphenated square metres", "es", itn, "dos metros-cuadrados", "2 m²"},
		{"fr spaced square metres unchanged", "fr", itn, "deux mètres carrés", "2 m²"},
		{"fr hyphen to a non-unit word stays", "fr", itn, "deux mètres-là", "2 m-là"},
		// a currency name that begins a unit ITN keeps as words is that unit
		{"en pounds per square inch", "en", itn, "thirty two pounds per square inch", "32 pounds per square inch"},
		{"en pounds per square inch then words", "en", itn, "twenty pounds per square inch of pressure", "20 pounds per square inch of pressure"},
		{"en pounds per square foot written back", "en", itn, "thirty two pounds per square foot", "32 lb/sq ft"},
		{"en pounds per person stay money", "en", itn, "ten pounds per person", "£10 per person"},
		{"en pounds alone stay money", "en", itn, "thirty two pounds", "£32"},
		{"en dollars per square inch stay money", "en", itn, "five dollars per square inch", "$5 per square inch"},
		// dots between three-digit groups of a dotgroups currency are thousands
		{"en rupiah thousands", "en", tn, "Rp 50.000", "fifty thousand indonesian rupiahs"},
		{"en rupiah millions", "en", tn, "Rp 1.500.000", "one million five hundred thousand indonesian rupiahs"},
		{"en rupiah code after", "en", tn, "50.000 IDR", "fifty thousand indonesian rupiahs"},
		{"en rupiah range", "en", tn, "Rp 5.000-10.000", "five thousand to ten thousand indonesian rupiahs"},
		{"en dong thousands", "en", tn, "₫20.500", "twenty thousand five hundred vietnamese dong"},
		{"en chilean peso thousands", "en", tn, "CLP 12.000", "twelve thousand chilean pesos"},
		{"en rupiah one decimal stays", "en", tn, "Rp 50.5", "fifty point five indonesian rupiahs"},
		{"en rupiah four digits after the dot stay", "en", tn, "Rp 50.0000", "fifty indonesian rupiahs"},
		{"en dong two decimals stay", "en", tn, "₫20.50", "twenty point five zero vietnamese dong"},
		{"en dinar with fils stays a decimal", "en", tn, "KWD 1.500", "one point five zero zero kuwaiti dinars"},
		{"en dollar with cents stays a decimal", "en", tn, "$50.000", "fifty dollars"},
		// a spaced lone "b" is billion only in an amount of money
		{"en spaced b after a bare number", "en", tn, "a 5 b", "a five b"},
		{"en spaced b after a control character", "en", tn, "a\x00 5 b", "a\x00 five b"},
		{"en spaced b after a decimal", "en", tn, "2.5 b", "two point five b"},
		{"en spaced b in money", "en", tn, "¥30 b", "thirty billion yen"},
		{"en spaced b before a code", "en", tn, "30 b USD", "thirty billion dollars"},
		{"en spaced b after a money range", "en", tn, "$5-10 b", "five to ten billion dollars"},
		{"en spaced bn after a bare number", "en", tn, "5 bn", "five billion"},
		{"en glued b after a bare number", "en", tn, "5b", "five billion"},
		// Chinese: a range of percentages, the dash 到 and both halves percent
		{"zh percent range one sign", "zh", tn, "3-5%", "百分之三到百分之五"},
		{"zh percent range tilde", "zh", tn, "3~5%", "百分之三到百分之五"},
		{"zh percent range decimals", "zh", tn, "1.5-2.5%", "百分之一点五到百分之二点五"},
		{"zh percent range two signs", "zh", tn, "3%-5%", "百分之三到百分之五"},
		{"zh percent range in text", "zh", tn, "增长3-5%左右", "增长百分之三到百分之五左右"},
		{"zh negative percent stays", "zh", tn, "下降-5%", "下降负百分之五"},
		{"zh percent then minus count stays", "zh", tn, "比例5%-3个", "比例百分之五负三个"},
		{"zh count range unchanged", "zh", tn, "3-5个", "三到五个"},
	})
}
