package normalize

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/language"

	sharedtestdata "github.com/sottolabs/sotto/internal/testdata"
)

// zhWriteTW spells s in the traditional characters of the table (Taiwan).
func zhWriteTW(s string) string {
	return zhVariant(language.MustParse("zh-TW"), TN).write(s)
}

func zhBest(t *testing.T, lang string, mode Mode, in string) Alternative {
	t.Helper()
	res, err := Normalize(context.Background(), in, Options{Language: lang, Mode: mode, TopK: 1})
	if err != nil {
		t.Fatalf("%s %s %q: %v", lang, mode, in, err)
	}
	if len(res.Alternatives) == 0 {
		t.Fatalf("%s %s %q: no alternative", lang, mode, in)
	}
	return res.Alternatives[0]
}

// TestZhTraditionalTable: the [traditional] rows are one character for
// one, of one UTF-8 length (ITN rewrites in place), and no two
// characters share a form, so that the rewrite can be undone.
func TestZhTraditionalTable(t *testing.T) {
	if len(zhTradTW) < 60 {
		t.Fatalf("[traditional] has %d rows; want the whole table", len(zhTradTW))
	}
	for name, m := range map[string]map[rune]rune{"TW": zhTradTW, "HK": zhTradHK} {
		seen := map[rune]rune{}
		for s, tr := range m {
			if o, dup := seen[tr]; dup {
				t.Errorf("%s: %c and %c are both written %c", name, s, o, tr)
			}
			seen[tr] = s
			if _, isKey := m[tr]; isKey && tr != s {
				t.Errorf("%s: %c's traditional form %c is itself a simplified form in the table", name, s, tr)
			}
			if tr != s && zhSimp[tr] != s {
				t.Errorf("%s: %c reads back as %c, not %c", name, tr, zhSimp[tr], s)
			}
		}
	}
	for _, c := range []struct{ s, tw, hk rune }{{'万', '萬', '萬'}, {'两', '兩', '兩'}, {'点', '點', '點'}, {'负', '負', '負'}, {'叙', '敘', '敍'}, {'兑', '兌', '兑'}, {'台', '臺', '台'}} {
		if zhTradTW[c.s] != c.tw || zhTradHK[c.s] != c.hk {
			t.Errorf("%c: TW %c HK %c; want %c %c", c.s, zhTradTW[c.s], zhTradHK[c.s], c.tw, c.hk)
		}
	}
}

// TestZhHantTN: a tag whose script is Hant (given or likely) gets
// traditional characters; the text around the conversions is the input's.
func TestZhHantTN(t *testing.T) {
	for _, c := range []struct{ lang, in, want string }{
		{"zh-TW", "10000", "一萬"},
		{"zh-TW", "20000", "兩萬"},
		{"zh-TW", "3.5億", "三點五億"},
		{"zh-TW", "-1000", "負一千"},
		{"zh-TW", "12:30", "十二點三十分"},
		{"zh-TW", "2h", "兩小時"},
		{"zh-TW", "5°C", "五攝氏度"},
		{"zh-TW", "3>2", "三大於二"},
		{"zh-TW", "¥5", "五人民幣"},
		{"zh-TW", "NT$100", "一百新臺幣"},
		{"zh-TW", "5mi", "五英里"}, // 里 stays 里 in a unit
		{"zh-TW", "SYP100", "一百敘利亞鎊"},
		{"zh-Hant", "10000", "一萬"},
		{"zh-HK", "SYP100", "一百敍利亞鎊"},
		{"zh-MO", "NT$100", "一百新台幣"},
		{"zh-Hant-HK", "BAM5", "五波斯尼亞和黑塞哥維那可兑換馬克"},
		{"zh-Hant", "我们有2个人和300万元", "我们有兩个人和三百万元"}, // the input's own characters are kept
		// Simplified tags, whatever the region.
		{"zh", "10000", "一万"},
		{"zh-CN", "3.5亿", "三点五亿"},
		{"zh-SG", "20000", "两万"},
		{"zh-Hans-HK", "-1000", "负一千"},
	} {
		if got := zhBest(t, c.lang, TN, c.in).Text; got != c.want {
			t.Errorf("TN %s %q = %q; want %q", c.lang, c.in, got, c.want)
		}
	}
}

// TestZhHantITN: ITN reads traditional characters as their simplified
// forms; a span written in them answers in them, as does every span for
// a Hant tag, and the text between the spans is the input's.
func TestZhHantITN(t *testing.T) {
	for _, c := range []struct{ lang, in, want string }{
		{"zh", "三點五", "3.5"},
		{"zh", "負一千", "-1,000"},
		{"zh", "五攝氏度", "5°C"},
		{"zh", "一百歐元", "€100"},
		{"zh", "五十英鎊", "£50"},
		{"zh", "五噸", "5t"},
		{"zh", "三個小時", "3個小時"},
		{"zh", "十點半", "10點半"},
		{"zh", "二零二四年五月一號", "2024年5月1號"},
		{"zh", "一百新臺幣", "TWD100"},
		{"zh", "我們有負一千", "我們有-1,000"},
		{"zh-TW", "三个小时", "3個小時"},
		{"zh-TW", "二零二四年五月一号", "2024年5月1號"},
		// Simplified input under a simplified tag is unchanged.
		{"zh", "三个小时", "3个小时"},
		{"zh", "一百新台币", "TWD100"},
	} {
		alt := zhBest(t, c.lang, ITN, c.in)
		if alt.Text != c.want {
			t.Errorf("ITN %s %q = %q; want %q", c.lang, c.in, alt.Text, c.want)
		}
		for _, sp := range alt.Spans {
			if sp.Source != c.in[sp.StartByte:sp.EndByte] {
				t.Errorf("ITN %s %q: span source %q is not the input's %q", c.lang, c.in, sp.Source, c.in[sp.StartByte:sp.EndByte])
			}
		}
	}
}

// TestZhHantSuites runs the Chinese suites both ways: TN for zh-TW writes
// what TN for zh writes, in traditional characters, with no simplified
// character of the table left in what it wrote; ITN of an input spelt in
// traditional characters reads as ITN of the simplified input.
func TestZhHantSuites(t *testing.T) {
	inputs, dir := zhSuiteInputs(t)
	if len(inputs[TN]) < 100 || len(inputs[ITN]) < 100 {
		t.Skipf("the Chinese suites are not under %s", dir)
	}
	tnOut := 0
	for _, in := range inputs[TN] {
		hans, hant := zhBest(t, "zh", TN, in), zhBest(t, "zh-TW", TN, in)
		if zhReadSimplified(hant.Text) != zhReadSimplified(hans.Text) {
			t.Errorf("TN %q: zh-TW %q, zh %q: more than the script differs", in, hant.Text, hans.Text)
		}
		for _, sp := range hant.Spans {
			for _, r := range sp.Output {
				if _, simplified := zhTradTW[r]; simplified {
					t.Errorf("TN zh-TW %q writes %q: %c is simplified", in, sp.Output, r)
				}
				if unicode.Is(unicode.Han, r) {
					tnOut++
				}
			}
		}
	}
	changed := 0
	for _, in := range inputs[ITN] {
		trad := zhWriteTW(in)
		if trad == in {
			continue
		}
		changed++
		hans, hant := zhBest(t, "zh", ITN, in), zhBest(t, "zh", ITN, trad)
		if zhReadSimplified(hant.Text) != zhReadSimplified(hans.Text) {
			t.Errorf("ITN %q: %q, and in traditional characters %q: %q", in, hans.Text, trad, hant.Text)
		}
		if !slices.EqualFunc(hans.Spans, hant.Spans, func(a, b Span) bool { return a.StartByte == b.StartByte && a.EndByte == b.EndByte }) {
			t.Errorf("ITN %q and %q: spans differ: %+v, %+v", in, trad, hans.Spans, hant.Spans)
		}
	}
	t.Logf("TN: %d inputs, %d Han characters written; ITN: %d of %d inputs respelt in traditional characters", len(inputs[TN]), tnOut, changed, len(inputs[ITN]))
	if changed < 50 {
		t.Errorf("only %d ITN inputs hold a character of the table", changed)
	}
}

// zhHantKept are the Han characters TN writes for zh-TW (over every
// unit, currency and math symbol of data/zh.tsv, and numbers, dates and
// times) that the table leaves as they are: the same in both scripts, or
// kept on purpose (里 厘 群 秘 幺, see the table's comment).
const zhHantKept = "一七三丹之乘九也二五人代令以伊伏伯俄保元兆先克八公六共其典冰分列利到力加勒匈十千升南博卡印危厘原及古可司吉和哈哥四土圭地坡坦埃埔培基塔塞墨士多大太夫奈姆委威嫩子字安富寨寸小尼尺巴布希帕平年幺度廷弗弧律微恩慕戈所披拉拜拿挪捷提摩文斐斯新方日普智曼月朗朝林查柬根格桑梅正每比毛毫氏民求汗沃沙泊法波泰洛津洪港澳焦牙特玻瑞瓜瓦疆白百的皮盎直盾磅福科秒秘立第等米索群美老耳色舌英茨荷莫菲蒂蒙西赫越迪那郎都酋里量阿陀除隆零雷非黎黑"

// TestZhHantComplete: every Han character TN can write for zh-TW is in
// the table's traditional forms or in zhHantKept, so a unit or currency
// added with a new character cannot go out simplified unseen.
func TestZhHantComplete(t *testing.T) {
	lx := lexiconFor("zh")
	var ins []string
	for _, u := range lx.units() {
		for _, w := range u.written {
			ins = append(ins, "5"+w, "2"+w, "-3.5"+w)
		}
	}
	for _, c := range lx.currencies() {
		for _, w := range c.symbols {
			ins = append(ins, w+"5", "5"+w, w+"12.5", w+"100万")
		}
	}
	for _, p := range lx.pairs("math") {
		for _, w := range p.written {
			ins = append(ins, "3"+w+"4")
		}
	}
	ins = append(ins, "1234567890", "-20000.05", "1000000000000", "50%", "-12.5%", "3-5%", "3/4", "-1/2", "2024年5月1日",
		"2024-05-01", "公元前221年", "12:30:45", "8:05-10:00", "2:1", "1-2岁", "电话13800138000", "+86 10 1234 5678", "第2名", "2个")
	var got []rune
	for _, in := range ins {
		res, err := Normalize(context.Background(), in, Options{Language: "zh-TW", Mode: TN, TopK: 8})
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		for _, a := range res.Alternatives {
			for _, sp := range a.Spans {
				for _, r := range sp.Output {
					if unicode.Is(unicode.Han, r) && !slices.Contains(got, r) {
						got = append(got, r)
					}
				}
			}
		}
	}
	traditional := map[rune]bool{}
	for _, tr := range zhTradTW {
		traditional[tr] = true
	}
	for _, r := range got {
		if !traditional[r] && !strings.ContainsRune(zhHantKept, r) {
			t.Errorf("TN zh-TW writes %c, which is neither a traditional form of data/zh.tsv [traditional] nor in zhHantKept: add a row for it, or, when it is the same in both scripts, add it to zhHantKept", r)
		}
	}
	for _, r := range zhHantKept {
		if !slices.Contains(got, r) {
			t.Errorf("zhHantKept holds %c, which TN zh-TW no longer writes", r)
		}
	}
}

// zhSuiteInputs returns the inputs of the Chinese normalization suites
// under $SOTTO_TESTDATA by mode, and the folder they were read from.
func zhSuiteInputs(t *testing.T) (map[Mode][]string, string) {
	t.Helper()
	dir := sharedtestdata.Dir(t, "text", "normalize", "zh")
	inputs := map[Mode][]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".jsonl") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var c struct{ Mode, Input string }
			if json.Unmarshal(sc.Bytes(), &c) == nil && c.Input != "" {
				inputs[Mode(c.Mode)] = append(inputs[Mode(c.Mode)], c.Input)
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return inputs, dir
}
