package normalize_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/normalize"
)

func TestRBNFLanguages(t *testing.T) {
	tests := []struct {
		lang string
		mode normalize.Mode
		in   string
		want string
	}{
		// Cardinals straight from CLDR.
		{"ru", normalize.TN, "у меня 2 300 книг", "у меня две тысячи триста книг"},
		{"ru", normalize.TN, "-050", "минус пятьдесят"},
		{"pl", normalize.TN, "mam 21 lat", "mam dwadzieścia jeden lat"},
		{"ko", normalize.TN, "-93", "마이너스 구십삼"},
		{"it", normalize.TN, "3 gatti", "tre gatti"},
		// Ordinals as each language writes them (CLDR's %digits-ordinal).
		{"ru", normalize.TN, "22-я", "двадцать вторая"},
		{"ru", normalize.TN, "8-го", "восьмого"},
		// ordinals written with the word's full ending, not CLDR's marker
		{"ru", normalize.TN, "1-ая глава", "первая глава"},
		{"ru", normalize.TN, "в 3-ем классе", "в третьем классе"},
		{"ru", normalize.TN, "5-ого мая", "пятого мая"},
		{"ru", normalize.TN, "3-ий", "третий"},
		{"ru", normalize.TN, "4-ую", "четвертую"},
		{"ru", normalize.TN, "21-ом", "двадцать первом"},
		{"ru", normalize.TN, "5-ти", "5-ти"}, // a cardinal's case ending: no ordinal ends so
		{"ru", normalize.TN, "1-ЫЙ", "1-ЫЙ"},
		// Arabic: "اثنان" with the plain alif, the nominative "ألفان"
		{"ar", normalize.TN, "12", "اثنا عشر"},
		{"ar", normalize.TN, "2007", "ألفان وسبعة"},
		{"ar", normalize.TN, "1002", "ألف واثنان"},
		{"ar", normalize.ITN, "إثنان وعشرون", "22"},
		{"ar", normalize.ITN, "اثنان وعشرون", "22"},
		// Swedish full-stop ordinals take the common form, not the masculine
		{"sv", normalize.TN, "den 2. maj", "den andra maj"},
		{"sv", normalize.TN, "1.", "första"},
		{"sv", normalize.TN, "2:a", "andra"},
		// Korean: the first is 첫번째 (data/ko.tsv), 11th and 21st keep 한
		{"ko", normalize.TN, "오늘 1번째 경기", "오늘 첫번째 경기"},
		{"ko", normalize.TN, "21번째", "스물한번째"},
		{"ko", normalize.ITN, "첫번째", "1번째"},
		{"ko", normalize.ITN, "첫 경기", "첫 경기"},
		// a grouped number past CLDR's range stays digits, whole
		{"hu", normalize.TN, "100 000 000 000 000 000 000 002", "100 000 000 000 000 000 000 002"},
		{"hu", normalize.TN, "2019 100 ember", "kettőezer-tizenkilenc száz ember"},
		{"it", normalize.TN, "il 3º posto", "il terzo posto"},
		{"vi", normalize.TN, "thứ 4", "thứ tư"},
		{"ja", normalize.TN, "第2", "第二"},
		{"hi", normalize.TN, "४थी", "चौथी"},
		{"hu", normalize.TN, "a 31. sor", "a harmincegyedik sor"}, // the full-stop convention
		{"ko", normalize.TN, "2번째", "두번째"},
		{"ko", normalize.TN, "189번째", "백팔십구번째"},
		// Conventions.
		{"vi", normalize.TN, "101", "một trăm linh một"},
		{"sv", normalize.TN, "1056173", "miljon femtiosextusen hundrasjuttiotre"},
		{"hu", normalize.TN, "2002", "kettőezer-kettő"},
		{"ja", normalize.TN, "12345000", "一千二百三十四万五千"},
		{"ja", normalize.TN, "これから100数えて", "これから百数えて"},
		{"ko", normalize.TN, "123000", "십이만삼천"},
		{"it", normalize.TN, "1034500", "un milione trentaquattromila cinquecento"},
		{"it", normalize.TN, "243000", "duecento quarantatremila"},
		{"it", normalize.TN, "101", "cento uno"},
		{"it", normalize.TN, "300000", "trecentomila"},
		{"it", normalize.TN, "23", "ventitre"},
		{"ru", normalize.TN, "1990-е", "тысяча девятьсот девяностые"},
		{"ru", normalize.TN, "3-е", "третьи"},
		{"ru", normalize.TN, "1870-х", "тысяча восемьсот семидесятых"},
		{"ru", normalize.TN, "1000", "одна тысяча"}, // cardinals keep CLDR's "одна"
		{"sv", normalize.TN, "den 20. maj", "den tjugonde maj"},
		{"sv", normalize.TN, "21:a", "tjugoförsta"},
		{"ja", normalize.TN, "0.05", "〇点〇五"},
		{"ja", normalize.TN, "−3.5%", "マイナス三点五パーセント"},
		{"ja", normalize.TN, "1,000", "千"},
		// an identifier after 番号 is read digit by digit; a quantity is not
		{"ja", normalize.TN, "部屋番号 305", "部屋番号 三〇五"},
		{"ja", normalize.TN, "番号2048", "番号二〇四八"},
		{"ja", normalize.TN, "2048番目", "二千四十八番目"},
		{"ja", normalize.TN, "番号-5", "番号マイナス五"},
		{"vi", normalize.TN, "hôm nay thứ 2", "hôm nay thứ hai"},
		{"hu", normalize.TN, "102002302.", "százkettőmillió-kettőezer-háromszázkettedik"},
		{"hu", normalize.TN, "131 111.", "százharmincegyezer-száztizenegyedik"},
		// Whole written ordinals from the data file (hi [ordinal_words]).
		{"hi", normalize.TN, "वह 3rd था", "वह थर्ड था"},
		{"hi", normalize.TN, "१२th", "ट्वेल्फ्थ"},
		// Ordinals derived from cardinals where CLDR spells none (hy).
		{"hy", normalize.TN, "1-ին", "առաջին"},
		{"hy", normalize.TN, "4-րդ", "չորրորդ"},
		{"hy", normalize.TN, "9-րդ", "իններորդ"},
		{"hy", normalize.TN, "19-րդ", "տասնիններորդ"},
		{"hy", normalize.TN, "24-րդ", "քսանչորսերորդ"},
		{"hy", normalize.TN, "300-րդ", "երեք հարյուրերորդ"},
		{"hy", normalize.ITN, "քսանմեկերորդ", "21-րդ"},
		{"hy", normalize.ITN, "առաջին", "1-ին"},
		{"hy", normalize.ITN, "հարյուր քսանմեկերորդ", "121-րդ"},
		{"hy", normalize.ITN, "երկու միլիոն հարյուր իննսունինը", "2000199"},
		{"sv", normalize.ITN, "tjugoandra", "22."},
		{"ru", normalize.ITN, "тысяча девятьсот двадцатых", "1920-х"},
		{"hi", normalize.ITN, "दस हजार निन्यानवे", "१००९९"},
		{"vi", normalize.ITN, "sáu bảy", "67"},
		{"vi", normalize.ITN, "một trăm hai", "120"},
		{"vi", normalize.ITN, "một trăm lẻ tư", "104"},
		{"vi", normalize.ITN, "năm ngàn rưỡi", "5500"},
		{"sv", normalize.ITN, "första", "första"},
		// Not numbers to spell.
		{"ru", normalize.TN, "3.14", "3.14"},
		{"ru", normalize.TN, "99999999999999999999", "99999999999999999999"},
		// ITN.
		{"ru", normalize.ITN, "сто сорок семь тысяч четыреста пятьдесят один", "147451"},
		{"ru", normalize.ITN, "тысяча один", "1001"},
		{"ru", normalize.ITN, "второго", "2-го"},
		{"sv", normalize.ITN, "femhundranittiotre", "593"},
		{"ja", normalize.ITN, "五千億", "500,000,000,000"},
		{"ja", normalize.ITN, "三番目", "3番目"},
		{"ko", normalize.ITN, "다섯번째", "5번째"},
		{"hi", normalize.ITN, "तीन सौ नौ", "३०९"},
		{"ko", normalize.ITN, "마이너스 일", "-1"},
		{"ru", normalize.ITN, "сторона", "сторона"},
	}
	for _, tt := range tests {
		res, err := normalize.Normalize(context.Background(), tt.in, normalize.Options{Language: tt.lang, Mode: tt.mode, TopK: 1})
		if err != nil {
			t.Errorf("Normalize(%q, %s %s): %v", tt.in, tt.lang, tt.mode, err)
			continue
		}
		if got := res.Best(); got != tt.want {
			t.Errorf("Normalize(%q, %s %s) = %q; want %q", tt.in, tt.lang, tt.mode, got, tt.want)
		}
	}
}

func TestRBNFYearAlternative(t *testing.T) {
	res, err := normalize.Normalize(context.Background(), "1999", normalize.Options{Language: "pl", TopK: 4})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range res.Alternatives {
		got = append(got, a.Text)
	}
	if len(got) < 2 || got[0] != "tysiąc dziewięćset dziewięćdziesiąt dziewięć" {
		t.Errorf("Normalize(1999, pl) alternatives = %q; want the cardinal first and a year after", got)
	}
}

// Every CLDR language without hand-written rules is listed for the
// cardinal and ordinal classes (where CLDR has ordinals).
func TestRBNFCapabilities(t *testing.T) {
	caps := normalize.Capabilities()
	byTag := map[string]normalize.LanguageCapability{}
	for _, l := range caps.Languages {
		byTag[l.Language] = l
	}
	for _, tag := range []string{"ru", "pl", "ja", "ko", "hi", "vi", "sv", "hu", "it", "fi", "tr"} {
		l, ok := byTag[tag]
		if !ok {
			t.Errorf("Capabilities() lacks %s", tag)
			continue
		}
		if !slices.Contains(l.Modes[normalize.TN], normalize.Cardinal) || !slices.Contains(l.Modes[normalize.ITN], normalize.Cardinal) {
			t.Errorf("%s modes = %v; want cardinal in TN and ITN", tag, l.Modes)
		}
		if !slices.Contains(l.Modes[normalize.TN], normalize.Ordinal) {
			t.Errorf("%s TN classes = %v; want ordinal", tag, l.Modes[normalize.TN])
		}
	}
	// Arabic writes ordinals as bare digits: nothing marks them.
	if slices.Contains(byTag["ar"].Modes[normalize.TN], normalize.Ordinal) {
		t.Errorf("ar TN classes = %v; want no ordinal (CLDR's ar digits carry no marker)", byTag["ar"].Modes[normalize.TN])
	}
	if len(caps.Languages) < 70 {
		t.Errorf("Capabilities() lists %d languages; want every CLDR one (~80)", len(caps.Languages))
	}
	// Hand-written rules win over the generated ones.
	if byTag["en"].Name != "English" || !slices.Contains(byTag["en"].Modes[normalize.TN], normalize.Money) {
		t.Errorf("en = %+v; want the hand-written rules", byTag["en"])
	}
}

func FuzzRBNF(f *testing.F) {
	for _, s := range []struct{ in, lang string }{
		{"у меня 2 300 книг и 22-я глава, -050", "ru"},
		{"сто сорок семь тысяч второго", "ru"},
		{"第2 これから100数えて 五千億 三番目", "ja"},
		{"2번째 123000 마이너스 일 다섯번째", "ko"},
		{"४थी 5वां ०००१ तीन सौ नौ", "hi"},
		{"thứ 4 101 một trăm linh một", "vi"},
		{"a 31. sor 2002", "hu"},
		{"1 234,5 km 3.14", "pl"},
		{"1-ին 9-րդ 2540-րդ քսանմեկերորդ", "hy"},
		{"−3.5% 0.0005 9.99999 1,000", "ja"},
		{"1990-е 3-е 1870-х", "ru"},
		{"den 20. maj 21:a", "sv"},
		{"3rd ३rd 12th", "hi"},
		{"102002302. 131 111.", "hu"},
	} {
		f.Add(s.in, s.lang, false)
		f.Add(s.in, s.lang, true)
	}
	f.Fuzz(func(t *testing.T, in, lang string, itn bool) {
		if len(in) > 2048 {
			return
		}
		mode := normalize.TN
		if itn {
			mode = normalize.ITN
		}
		opts := normalize.Options{Language: lang, Mode: mode, TopK: 3}
		res, err := normalize.Normalize(context.Background(), in, opts)
		if err != nil {
			var se *sotto.Error
			if !errors.As(err, &se) {
				t.Fatalf("Normalize(%q, %q) error %v is not a *sotto.Error", in, lang, err)
			}
			return
		}
		checkInvariants(t, in, opts, res)
	})
}

// ruProse is Russian running text with numbers, about 1 KB.
const ruProse = "В 2023 году в городе жили 1 254 300 человек, из них 22-я часть — дети. " +
	"Поезд отправился в 8 часов и прошёл 350 километров; на 3-й день мы увидели 12 озёр. " +
	"Сто сорок семь тысяч четыреста пятьдесят один житель проголосовал, второго числа было тепло. " +
	"Библиотека получила 2 300 книг и 45 журналов, а музей — 17 картин и 1001 открытку. "

func BenchmarkNormalizeRBNF(b *testing.B) {
	ctx := context.Background()
	for _, c := range []struct {
		name, lang, text string
		mode             normalize.Mode
	}{
		{"ru/tn", "ru", ruProse, normalize.TN},
		{"ru/itn", "ru", ruProse, normalize.ITN},
		{"en/tn", "en", proseParagraph, normalize.TN}, // the peer in the same run
	} {
		b.Run(c.name, func(b *testing.B) {
			text := strings.Repeat(c.text+"\n", 64)
			opts := normalize.Options{Language: c.lang, Mode: c.mode, TopK: 1}
			if _, err := normalize.Normalize(ctx, text, opts); err != nil { // build the lazy tables
				b.Fatal(err)
			}
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := normalize.Normalize(ctx, text, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
