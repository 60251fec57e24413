package normalize_test

import "testing"

// TestTableEntries reads a sample of the entries each language's data file
// gained when its tables were completed from published grammar data
// (issue 10, task D: units, currencies, time zones, abbreviations and
// electronic words no earlier case used). Each case fails if its row is
// not read: without the row the written form stays as written, or the
// spoken words stay words. The cases are written from the table rows, not
// taken from the shared suites.
func TestTableEntries(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// de [units]: byte plurals (NeMo's suppletive table), grains,
		// drams, pico and deci units, megavolt and kilonewton beside
		// millivolt and knots
		{"de byte plural", "de", tn, "5 GB", "fünf gigabytes"},
		{"de byte singular", "de", tn, "1 GB", "ein gigabyte"},
		{"de byte plural back", "de", itn, "fünf gigabytes", "5 gb"},
		{"de kilobit", "de", tn, "7 kbit", "sieben kilobits"},
		{"de grain", "de", tn, "3 gr", "drei korn"},
		{"de dram", "de", tn, "2 dr", "zwei drachmen"},
		{"de picogram", "de", tn, "3 pg", "drei pikogramm"},
		{"de decisecond", "de", tn, "4 ds", "vier dezisekunden"},
		{"de decisecond back", "de", itn, "vier dezisekunden", "4 ds"},
		{"de megavolt", "de", tn, "2 MV", "zwei megavolt"},
		{"de millivolt stays", "de", tn, "2 mV", "zwei millivolt"},
		{"de kilonewton", "de", tn, "5 kN", "fünf kilonewton"},
		{"de knots stay", "de", tn, "12 kn", "zwölf knoten"},
		{"de kilonewton back", "de", itn, "fünf kilonewton", "5 kN"},
		{"de megaampere", "de", tn, "3 MA", "drei megaampere"},
		{"de school class is no temperature", "de", tn, "Klasse 5c", "Klasse 5c"},
		// de [electronic_words] `tld`: a top-level domain is a word after a
		// domain's dot, spelled in a user name or an @-handle
		{"de tld in an e-mail", "de", tn, "abc@gmail.info", "a b c at g mail punkt info"},
		{"de tld in a URL", "de", tn, "www.nvidia.gov", "w w w punkt nvidia punkt gov"},
		{"de tld spelled in a handle", "de", tn, "@jensen.me", "at j e n s e n punkt m e"},
		{"de tld spelled in a user name", "de", tn, "me@abc.me", "m e at a b c punkt me"},
		{"de tld spelled after www", "de", tn, "www.bio.info", "w w w punkt b i o punkt info"},

		// es [currencies]: the former and accounting units of NeMo's main
		// table (masculine and feminine), both directions
		{"es former peso", "es", tn, "1 BOP", "un peso boliviano"},
		{"es escudo", "es", tn, "5 cle", "cinco escudos chilenos"},
		{"es feminine unit of account", "es", tn, "21 UYW", "veintiuna unidades previsionales uruguayas"},
		{"es former currency back", "es", itn, "cinco sucres ecuatorianos", "ECS5"},
		{"es earlier row wins in ITN", "es", itn, "cinco pesos mexicanos", "Mex$5"},
		// es [timezones]: NeMo's additional zones, upper case, after a time
		{"es more zones", "es", tn, "10:00 ACDT", "diez hora de verano de australia central"},
		{"es more zones after minutes", "es", tn, "las 3:30 WAT", "las tres y media hora estándar de áfrica occidental"},
		{"es zone back", "es", itn, "las diez y media hora estándar de áfrica occidental", "las 10:30 WAT"},
		{"es zone is not a word", "es", tn, "2 CAT", "dos CAT"},
		// es [symbols] and [electronic_words]
		{"es underscore", "es", tn, "a_b@gmx.com", "a barra baja b arroba gmx punto com"},
		{"es hyphen", "es", tn, "ab-c@msn.com", "a b guión c arroba msn punto com"},
		{"es plus sign", "es", tn, "www.a+b.com", "w w w punto a signo más b punto com"},
		{"es hash back", "es", itn, "j almohadilla k arroba msn punto com", "j#k@msn.com"},
		{"es tld", "es", tn, "abc@yandex.ru", "a b c arroba yandex punto ru"},
		{"es tld spelled in a user name", "es", tn, "in@abc.com", "i n arroba a b c punto com"},
		{"es other domains spelled", "es", tn, "www.abc.es", "w w w punto a b c punto e s"},
		// es [telephone_prompts] and [ip_prompts]
		{"es spaced number after a prompt", "es", tn, "llámame al 612 345 678", "llámame al seis uno dos tres cuatro cinco seis siete ocho"},
		{"es run of digits after a prompt", "es", tn, "mi número es 612345678", "mi número es seis uno dos tres cuatro cinco seis siete ocho"},
		{"es same digits without a prompt", "es", tn, "gané 612345678 euros", "gané seiscientos doce millones trescientos cuarenta y cinco mil seiscientos setenta y ocho euros"},
		{"es ip prompt", "es", tn, "el ip es 10.0.0.1", "el i p es uno cero punto cero punto cero punto uno"},

		// fr [units]: SI prefixes on the base units NeMo's French ITN
		// composes (mètre, gramme, litre, seconde) and the common SI units,
		// with their gender
		{"fr hectometre", "fr", tn, "5 hm", "cinq hectomètres"},
		{"fr hectometre back", "fr", itn, "trois hectomètres", "3 hm"},
		{"fr decagram back", "fr", itn, "cinq décagrammes", "5 dag"},
		{"fr feminine second", "fr", tn, "21 ds", "vingt et une décisecondes"},
		{"fr microsecond back", "fr", itn, "deux nanosecondes", "2 ns"},
		{"fr pressure", "fr", tn, "4 hPa", "quatre hectopascals"},
		{"fr pressure back", "fr", itn, "quatre hectopascals", "4 hPa"},
		{"fr feminine mole", "fr", tn, "1 mol", "une mole"},
		{"fr energy", "fr", tn, "10 TWh", "dix térawattheures"},
		{"fr bits", "fr", tn, "2 Mbit", "deux mégabits"},
		// fr [currencies] and [symbols]: NeMo's ITN spoken forms
		{"fr sterling back", "fr", itn, "cinq livres sterling", "5 £"},
		{"fr underscore said souligné", "fr", itn, "a souligné b arobase gmail point com", "a_b@gmail.com"},
		{"fr at said chez", "fr", itn, "j chez gmail point com", "j@gmail.com"},

		// pt [units]: CLDR units beyond NeMo's table; noitn rows stay
		// words in ITN
		{"pt feminine inch", "pt", tn, "1 in", "uma polegada"},
		{"pt pressure", "pt", tn, "3 hPa", "três hectopascals"},
		{"pt data", "pt", tn, "10 GB", "dez gigabytes"},
		{"pt data back", "pt", itn, "dez gigabytes", "10 GB"},
		{"pt feet read", "pt", tn, "2 ft", "dois pés"},
		{"pt feet stay words", "pt", itn, "dois pés", "dois pés"},
		{"pt pounds are money", "pt", itn, "cinco libras", "£ 5"},
		// pt [currencies]: CLDR names
		{"pt yen", "pt", tn, "¥5", "cinco ienes"},
		{"pt yen back", "pt", itn, "cinco ienes", "¥ 5"},
		{"pt yen has no cents", "pt", itn, "cinco ienes e dois", "¥ 5 e dois"},
		{"pt real has", "pt", itn, "cinco reais e cinquenta", "R$ 5,50"},
		{"pt franc with centimes", "pt", tn, "CHF 2,50", "dois francos suíços e cinquenta cêntimos"},
		// pt [symbols]: NeMo's TN table ("-" traço)
		{"pt hyphen", "pt", tn, "a-b@msn.com", "a traço b arroba msn ponto com"},
		{"pt plus", "pt", tn, "a_b+c@aol.com", "a underscore b mais c arroba aol ponto com"},
		{"pt hash back", "pt", itn, "x cerquilha y arroba aol ponto com", "x#y@aol.com"},
		// pt [telephone_prompts] and [ip_prompts]
		{"pt digits after a prompt", "pt", tn, "meu número é 11987654321", "meu número é um um nove oito sete seis cinco quatro três dois um"},
		{"pt ip prompt", "pt", tn, "endereço de ip 192.168.0.1", "endereço de i p um nove dois ponto um seis oito ponto zero ponto um"},

		// zh [classifiers]: WeTextProcessing's measure words, before which 2
		// reads 两; 分, 毫 and 兆 keep 二 as the suites read them
		{"zh page", "zh", tn, "2页", "两页"},
		{"zh ordinal page keeps er", "zh", tn, "第2页", "第二页"},
		{"zh years since", "zh", tn, "2年来", "两年来"},
		{"zh hundred", "zh", tn, "2百人", "两百人"},
		{"zh degree", "zh", tn, "2度", "两度"},
		{"zh clock minutes keep er", "zh", tn, "3点2分", "三点二分"},
		{"zh milli keeps er", "zh", tn, "2ms", "二毫秒"},
		{"zh second-hand keeps er", "zh", tn, "2手车", "二手车"},
		{"zh regnal number keeps er", "zh", tn, "乔治2世", "乔治二世"},
		// zh [currencies]: NeMo's codes with WeTextProcessing's names and
		// symbols, both directions; symbols of several tokens
		{"zh code", "zh", tn, "EGP500", "五百埃及镑"},
		{"zh code back", "zh", itn, "五百埃及镑", "EGP500"},
		{"zh symbol", "zh", tn, "₦200", "二百尼日利亚奈拉"},
		{"zh symbol back", "zh", itn, "三点五乌克兰格里夫纳", "₴3.5"},
		{"zh letters and dollar sign", "zh", tn, "J$50", "五十牙买加元"},
		{"zh letters and dollar sign of an older row", "zh", tn, "HKD$50", "五十港元"},
		{"zh symbol with a period", "zh", tn, "S/.5", "五秘鲁索尔"},
		{"zh full-width symbol", "zh", tn, "HK＄50", "五十港元"},
		{"zh plain dollar", "zh", tn, "$500", "五百美元"},
		{"zh second name", "zh", itn, "五十以色列谢克尔", "₪50"},

		// zh [abbreviations]: the rest of NeMo's Chinese ITN whitelist
		{"zh ITN acronym", "zh", itn, "我用全球定位系统导航", "我用GPS导航"},
		{"zh ITN acronym GPA", "zh", itn, "平均学分绩点", "GPA"},
		// zh [tn_terms]: terms of several tokens, TN; only standing apart
		{"zh B2B", "zh", tn, "B2B模式", "B to B模式"},
		{"zh P2P", "zh", tn, "P2P平台", "P to P平台"},
		{"zh spaced size", "zh", tn, "X X L的衣服", "XXL的衣服"},
		{"zh dotted am", "zh", tn, "a.m.", "AM"},
		{"zh term glued to a letter stays", "zh", tn, "AO2O", "AO2O"},
		// zh [itn_keep]: phrases ITN leaves alone
		{"zh idiom", "zh", itn, "他三心二意的", "他三心二意的"},
		{"zh a little", "zh", itn, "慢一点走", "慢一点走"},
		{"zh place name", "zh", itn, "十堰", "十堰"},
		{"zh numbers still read", "zh", itn, "十万八千", "108,000"},

		// zh [units]: WeTextProcessing's Latin units the table lacked
		{"zh degree sign", "zh", tn, "45º", "四十五度"},
		{"zh degree is not written back", "zh", itn, "他一度想放弃", "他一度想放弃"},
		{"zh miles per hour", "zh", tn, "60mph", "六十英里每小时"},
		{"zh miles per hour back", "zh", itn, "六十英里每小时", "60mph"},
		{"zh square miles", "zh", tn, "5mi²", "五平方英里"},

		// zh [sport_teams]: a score after a team reads with 比
		{"zh national team score", "zh", tn, "中国1-2", "中国一比二"},
		{"zh club score after a space", "zh", tn, "拉齐奥 2/2", "拉齐奥二比二"},
		{"zh club with Latin letters", "zh", tn, "AC米兰1-0", "AC米兰一比零"},
		{"zh score before a verb", "zh", tn, "阿森纳 2-2战平", "阿森纳二比二战平"},
		{"zh month range after a country is no score", "zh", tn, "中国1-2月出口", "中国一到二月出口"},
		{"zh fraction after no team", "zh", tn, "我们1/2的人", "我们二分之一的人"},
	})
}
