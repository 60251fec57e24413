package sphinx

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAlignFrames checks that the frame-callback search gives the result of
// AlignFeatures, calls the callback once per frame in order, reports the
// graph size GraphSize predicts, and returns its statistics on failure.
func TestAlignFrames(t *testing.T) {
	m := loadTestModel(t)
	x := readWAVFloat(t, speechFile(t, "en_ps_sense0880_16k.wav"))
	words := []string{"he", "was", "not", "an", "ill", "disposed", "young", "man"}
	ctx := context.Background()
	feats, n, err := m.Features(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.AlignFeatures(ctx, feats, n, words, AlignOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dim := len(feats) / n
	next := 0
	frame := func(f int) []float32 {
		if f != next {
			t.Fatalf("frame(%d) called; want frame(%d)", f, next)
		}
		next++
		return feats[f*dim : (f+1)*dim]
	}
	got, st, err := m.AlignFrames(ctx, frame, n, words, AlignOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if next != n {
		t.Errorf("frame called for %d frames; want %d", next, n)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("AlignFrames differs from AlignFeatures (-want +got):\n%s", d)
	}
	nodes, states, err := m.GraphSize(words, AlignOptions{})
	if err != nil || nodes != st.Nodes || states != st.States {
		t.Errorf("GraphSize = %d, %d, %v; want the search's %d, %d", nodes, states, err, st.Nodes, st.States)
	}
	// A beam too narrow for the path fails with the statistics kept.
	_, st, err = m.AlignFrames(ctx, func(f int) []float32 { return feats[f*dim : (f+1)*dim] }, n, words, AlignOptions{Beam: 1})
	if err == nil {
		t.Skip("a 1-nat beam found a path on this recording")
	}
	if st.States != states || st.MaxActive == 0 {
		t.Errorf("failed search stats %+v; want the graph size and active states", st)
	}
	if _, _, err := m.GraphSize([]string{"qzxqzxqzx"}, AlignOptions{}); err == nil {
		t.Errorf("GraphSize(unknown word) = nil error; want one")
	}
}
