package normalize_test

import "testing"

// TestRound7Rules covers the rule gaps found by the seventh generalization
// round (testdata/generalize/round7) and the gaps task D left, each with
// neighbouring inputs the rule must leave alone.
func TestRound7Rules(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// Chinese ranges: a dash or tilde between two halves of a range is
		// 到 (WeTextProcessing's measure, time and range rules)
		{"zh age range", "zh", tn, "1-2岁", "一到两岁"},
		{"zh count range", "zh", tn, "3-5天", "三到五天"},
		{"zh range first number counts", "zh", tn, "2-3天", "两到三天"},
		{"zh tilde range", "zh", tn, "10~20个", "十到二十个"},
		{"zh unit range", "zh", tn, "5kg-10kg", "五千克到十千克"},
		{"zh measure words both sides", "zh", tn, "3个-5个", "三个到五个"},
		{"zh time range", "zh", tn, "08:30-10:00", "八点三十分到十点"},
		{"zh date range", "zh", tn, "5月1日-5月5日", "五月一日到五月五日"},
		{"zh month range", "zh", tn, "1-2月", "一到二月"},
		{"zh minus after a word stays", "zh", tn, "气温-5℃", "气温负五摄氏度"},
		{"zh minus after 天 not counted", "zh", tn, "今天-5度", "今天负五度"},
		{"zh telephone stays", "zh", tn, "010-12345678", "零幺零幺二三四五六七八"},
		{"zh iso date stays", "zh", tn, "2021-05-08", "二零二一年五月八日"},
		{"zh bare score stays", "zh", tn, "比分2-1", "比分二-一"},
		{"zh team score stays", "zh", tn, "中国1-2", "中国一比二"},
		// Chinese: a written unit after 万 or 亿
		{"zh unit after 万", "zh", tn, "300万t", "三百万吨"},
		{"zh unit after 亿", "zh", tn, "1.5亿kWh", "一点五亿千瓦时"},
		{"zh 万 before money stays", "zh", tn, "2万元", "两万元"},
		{"zh 万 before a Han unit stays", "zh", tn, "5万米", "五万米"},
		// Latin-script time ranges: two clock times joined by a dash, the
		// dash said as the year ranges say it
		{"de time range", "de", tn, "14:00-16:00 Uhr", "vierzehn uhr bis sechzehn uhr"},
		{"de spaced time range", "de", tn, "08:30 – 12:00 Uhr", "acht uhr dreißig bis zwölf uhr"},
		{"de number range before a unit stays", "de", tn, "5-10 kg", "fünf bis zehn kilogramm"},
		{"de hour range before Uhr", "de", tn, "14-16 Uhr", "vierzehn bis sechzehn uhr"},
		{"de time, then a count", "de", tn, "14:00 Uhr, 16 Gäste", "vierzehn uhr, sechzehn Gäste"},
		{"es time range", "es", tn, "9:00-14:00", "nueve a catorce"},
		{"es time range with suffixes", "es", tn, "10:30 a.m.-11:00 a.m.", "diez y media de la mañana a once de la mañana"},
		{"es bare numbers stay", "es", tn, "1-2", "uno-dos"},
		{"pt time range", "pt", tn, "9:00-14:00", "nove horas a catorze horas"},
		// Spanish ITN reads every denominator TN says, the accent of the
		// cardinal dropped before -avo included
		{"es sixteenths", "es", itn, "siete dieciseisavos", "7/16"},
		{"es twenty-thirds", "es", itn, "tres veintitresavos", "3/23"},
		{"es eighteenths", "es", itn, "cinco dieciochoavos", "5/18"},
		{"es an ordinal after el stays", "es", itn, "el octavo día", "el octavo día"},
		// French dates: an abbreviated month ([months] column 2), and a
		// dotted weekday abbreviation only before a date
		{"fr dotted month", "fr", tn, "8 févr. 1962", "huit février mille neuf cent soixante-deux"},
		{"fr month without period", "fr", tn, "le 5 sept 2020", "le cinq septembre deux mille vingt"},
		{"fr dotted month then text", "fr", tn, "12 janv. à Paris", "douze janvier à Paris"},
		{"fr weekday before a date", "fr", tn, "lun. 3 juin", "lundi trois juin"},
		{"fr mer. is the sea elsewhere", "fr", tn, "la mer. Il", "la mer. Il"},
		{"fr full month stays", "fr", tn, "3 mars", "trois mars"},
		// French times: a zone of [timezones] after the time, both ways;
		// minutes 00 are not said
		{"fr ITN zone after a time", "fr", itn, "quatorze heures quinze u t c", "14 h 15 UTC"},
		{"fr ITN zone after midi", "fr", itn, "il est midi c e t", "il est 12 h CET"},
		{"fr ITN letters without a time stay", "fr", itn, "u t c", "u t c"},
		{"fr TN zone after a time", "fr", tn, "9h05 CET", "neuf heures cinq c e t"},
		{"fr TN on the hour", "fr", tn, "16h00", "seize heures"},
		{"fr TN a place after a time stays", "fr", tn, "10 h 30 Paris", "dix heures trente Paris"},
		{"fr TN time range", "fr", tn, "14h30-16h00", "quatorze heures trente à seize heures"},
		// Latin-script ITN: a unit word that begins a spoken time zone of
		// [timezones] is not a unit
		{"es zone after a bare hour is no unit", "es", itn, "las diez hora estándar de argentina", "las 10 hora estándar de argentina"},
		{"es zone after minutes", "es", itn, "las diez y media hora estándar de argentina", "las 10:30 ART"},
		{"es hours stay a unit", "es", itn, "tres horas", "3 h"},
		{"es hours before a word stay a unit", "es", itn, "dos horas estándar", "2 h estándar"},
		// Portuguese TN: the symbols of NeMo's symbol whitelist that no
		// other rule reads, standing alone ([abbreviations] of pt.tsv)
		{"pt section sign", "pt", tn, "§ 5 da lei", "parágrafo cinco da lei"},
		{"pt copyright", "pt", tn, "© 2024 Globo", "direitos autorais dois mil e vinte e quatro Globo"},
		{"pt registered mark alone", "pt", tn, "Produto ® da empresa", "Produto marca registrada da empresa"},
		{"pt mark glued to a word stays", "pt", tn, "Marca® registrada", "Marca® registrada"},
		{"pt percent stays a measure", "pt", tn, "5 %", "cinco por cento"},
		{"pt ITN writes no symbol", "pt", itn, "o parágrafo trinta e dois", "o parágrafo 32"},
		// Latin-script ITN money: no cents across a line break
		{"pt cents not across a line", "pt", itn, "cinco reais\ndois", "R$ 5\ndois"},
		{"es cents not across a line", "es", itn, "cinco euros\ndos", "€5\ndos"},
		{"de cents not across a line", "de", itn, "fünf euro\nzwanzig", "€5\n20"},
		{"pt cents on the same line", "pt", itn, "cinco reais e dois centavos", "R$ 5,02"},
		{"de cents on the same line", "de", itn, "zwei dollar zwanzig", "$2,20"},
		// milliampere-hours (de, fr, pt tables), and a French unit said
		// with a hyphen, as TN writes it
		{"fr mAh TN", "fr", tn, "4000 mAh", "quatre mille milliampères-heures"},
		{"fr mAh ITN hyphenated", "fr", itn, "quatre mille milliampères-heures", "4 000 mAh"},
		{"fr mAh ITN spaced", "fr", itn, "un milliampère heure", "1 mAh"},
		{"fr milliamperes stay mA", "fr", itn, "deux milliampères", "2 mA"},
		{"de mAh", "de", tn, "4000 mAh", "vier tausend milliamperestunden"},
		{"de mAh ITN", "de", itn, "vier tausend milliamperestunden", "4000 mAh"},
		{"pt mAh", "pt", tn, "5000 mAh", "cinco mil miliamperes hora"},
		{"pt mAh ITN", "pt", itn, "cinco mil miliamperes hora", "5000 mAh"},
		// Chinese ITN: 负 before a percentage is its sign
		{"zh negative percent", "zh", itn, "负百分之十二点五", "-12.5%"},
		{"zh negative whole percent", "zh", itn, "负百分之五", "-5%"},
		{"zh percent", "zh", itn, "百分之五", "5%"},
		{"zh 负 before a word stays", "zh", itn, "负数", "负数"},
		// French ITN mixed numbers: a proper fraction after "et"
		{"fr two and three quarters", "fr", itn, "deux et trois quarts", "2 3/4"},
		{"fr five and two thirds", "fr", itn, "cinq et deux tiers", "5 2/3"},
		{"fr one and a half", "fr", itn, "un et demi", "1 1/2"},
		{"fr improper fraction after et stays apart", "fr", itn, "trois et cinq quarts", "trois et 5/4"},
		{"fr et before a noun", "fr", itn, "pain et deux croissants", "pain et deux croissants"},
	})
}
