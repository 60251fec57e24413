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
		// German micro units written with the Greek mu, as the suite's μm
		{"microgram", "de", itn, "zwei hundert fünfzig mikrogramm", "250 μg"},
		{"microsecond", "de", itn, "drei mikrosekunden", "3 μs"},
		{"micrometer", "de", itn, "drei hundert mikrometer", "300 μm"},
		{"micro sign read", "de", tn, "5 µg", "fünf mikrogramm"},
	})
}
