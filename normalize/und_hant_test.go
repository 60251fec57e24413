package normalize

import "testing"

// TestUndTraditional: under "und", Han runs read as under "zh": ITN reads
// traditional characters (萬 兩 點 負 紀元 歐元 …) as well as simplified,
// and a span written in them answers in them; the Latin runs around them
// read as they do alone.
func TestUndTraditional(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"五點半", "5點半"},
		{"兩點一刻", "2點1刻"},
		{"一點五萬歐元", "€1.5萬"},
		{"紀元前二零零零年三月五日", "公元前2000年3月5日"},
		{"三個小時", "3個小時"},
		{"我們有負一千", "我們有-1,000"},
		{"五点半", "5点半"}, // simplified stays simplified
		{"We meet at 五點半, not at seven thirty.", "We meet at 5點半, not at 07:30."},
		{"Wir haben zwei und dreißig Euro und 兩點一刻", "Wir haben €32 und 2點1刻"},
	} {
		if got := zhBest(t, "und", ITN, c.in).Text; got != c.want {
			t.Errorf("ITN und %q = %q; want %q", c.in, got, c.want)
		}
	}
	all, dir := zhSuiteInputs(t)
	inputs := all[ITN]
	if len(inputs) < 100 {
		t.Skipf("the Chinese ITN suites are not under %s", dir)
	}
	changed := 0
	for _, in := range inputs {
		trad := zhWriteTW(in)
		if trad == in {
			continue
		}
		changed++
		if zh, und := zhBest(t, "zh", ITN, trad), zhBest(t, "und", ITN, trad); zh.Text != und.Text {
			t.Errorf("ITN %q: zh %q, und %q", trad, zh.Text, und.Text)
		}
	}
	if changed < 50 {
		t.Errorf("only %d ITN inputs hold a character of the table", changed)
	}
}
