package align

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/sphinx"
)

// openPackBackend opens a Lattice-1 backend whose "de" pack is the Debian
// English model and dictionary (the real packs cannot be downloaded in the
// tests; the wiring is the same for any Sphinx model) and whose "zh" pack
// is not downloaded.
func openPackBackend(t *testing.T) *lattice {
	t.Helper()
	if _, err := os.Stat(filepath.Join(sphinx.DefaultModelDir, "mdef")); err != nil {
		t.Skipf("the Debian en-us acoustic model is not installed: %v", err)
	}
	cfg := backend.Config{Model: "Sotto/Lattice-1", Options: map[string]string{
		OptPackDir + "de":     sphinx.DefaultModelDir,
		OptPackDict + "de":    sphinx.DefaultDictPath,
		OptPackMissing + "zh": "zh/cmusphinx-zh-cn-5.2/zh_cn.cd_cont_5000/mdef is not on disk",
	}}
	b, err := openLattice(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b.(*lattice)
}

func TestPackLanguage(t *testing.T) {
	l := openPackBackend(t)
	if l.packs["de"] == nil || l.packs["zh"] == nil {
		t.Fatalf("packs = %v; want de and zh", l.packs)
	}
	a, _, err := audio.DecodeFile(context.Background(), filepath.Join(testdata(t), "speech", "en_jfk_16k.wav"), audio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := l.Align(context.Background(), a, jfkText, Options{Language: "de"})
	if err != nil {
		t.Fatalf("Align(de pack) = %v", err)
	}
	ws := words(res)
	if len(ws) != 22 {
		t.Fatalf("got %d words; want 22", len(ws))
	}
	for i, w := range ws {
		if w.End <= w.Start || (i > 0 && w.Start < ws[i-1].End-1e-9) {
			t.Errorf("word %d %+v has bad times", i, w)
		}
	}
	if p := l.packs["de"]; p.model == nil || p.model == l.model {
		t.Error("the de pack was not loaded as a model of its own")
	}
	// A word the pack dictionary lacks is a 422 naming it.
	_, err = l.Align(context.Background(), a, "ask not qzxvq what zzqxw", Options{Language: "de"})
	var se *sotto.Error
	if !errors.As(err, &se) || se.Code != "out_of_vocabulary" || se.Kind != sotto.ErrUnsatisfiable {
		t.Fatalf("Align(OOV) = %v; want a 422 out_of_vocabulary", err)
	}
	if d, _ := se.Detail.(map[string]any); d == nil || !slices.Equal(d["words"].([]string), []string{"qzxvq", "zzqxw"}) {
		t.Errorf("detail = %#v; want words qzxvq, zzqxw", se.Detail)
	}
	// A pack that is not downloaded is reported as such.
	_, err = l.Align(context.Background(), a, "你好", Options{Language: "zh"})
	if !errors.As(err, &se) || se.Code != "model_not_downloaded" || se.Kind != sotto.ErrInvalidRequest {
		t.Errorf("Align(zh, no pack) = %v; want model_not_downloaded", err)
	}
	// English still uses the backend's own model.
	if pl, err := l.packFor(context.Background(), "en", true); pl != nil || err != nil {
		t.Errorf("packFor(en) = %v, %v; want no pack", pl, err)
	}
	// A detected language whose pack is missing keeps the path without packs.
	if pl, err := l.packFor(context.Background(), "zh", false); pl != nil || err != nil {
		t.Errorf("packFor(zh, detected) = %v, %v; want no pack and no error", pl, err)
	}
	if pl, err := l.packFor(context.Background(), "de-AT", false); pl == nil || err != nil {
		t.Errorf("packFor(de-AT, detected) = %v, %v; want the de pack", pl, err)
	}
}

func TestSegmentLongest(t *testing.T) {
	if _, err := os.Stat(filepath.Join(sphinx.DefaultModelDir, "mdef")); err != nil {
		t.Skipf("the Debian en-us acoustic model is not installed: %v", err)
	}
	m, err := sphinx.Load(context.Background(), sphinx.Config{Dict: os.DevNull})
	if err != nil {
		t.Fatal(err)
	}
	d := &sphinx.Dict{}
	dict := "你 N IY\n你好 N IY HH AW\n好 HH AW\n世界 SH ER L D\n世 SH ER\n"
	if err := sphinx.ParseDict("zh.dic", []byte(dict), m.Mdef, false, d); err != nil {
		t.Fatal(err)
	}
	m.Dict = d
	for _, tc := range []struct {
		in   string
		want []string
		bad  string
	}{
		{"你好世界", []string{"你好", "世界"}, ""},
		{"好你", []string{"好", "你"}, ""},
		{"世好", []string{"世", "好"}, ""},
		{"你们", nil, "们"},
	} {
		got, bad := segmentLongest(d, tc.in)
		if !slices.Equal(got, tc.want) || bad != tc.bad {
			t.Errorf("segmentLongest(%q) = %q, %q; want %q, %q", tc.in, got, bad, tc.want, tc.bad)
		}
	}
	toks := []token{{Text: "你好世界", Parts: []string{"你好世界"}}, {Text: "你们", Parts: []string{"你们"}}}
	err = pronounceFromDict(m, "zh", toks)
	var se *sotto.Error
	if !errors.As(err, &se) || se.Code != "out_of_vocabulary" {
		t.Fatalf("pronounceFromDict = %v; want out_of_vocabulary", err)
	}
	want := []string{"N", "IY", "HH", "AW", "SH", "ER", "L", "D"}
	if len(toks[0].Prons) != 1 || !slices.Equal(toks[0].Prons[0], want) {
		t.Errorf("Prons(你好世界) = %v; want [%v]", toks[0].Prons, want)
	}
}
