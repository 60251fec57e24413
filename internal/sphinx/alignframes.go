package sphinx

import "context"

// AlignFrames is Align on features supplied one frame at a time: frame(t)
// returns the feature vector of frame t (39 values for 1s_c_d_dd), valid
// until the next call. The search calls frame exactly once per frame, in
// order t = 0 … n-1, so a caller can compute features lazily and report
// progress from it. Unlike Align, AlignFrames also returns the search
// statistics when the search fails (for example a "no_path" failure), so
// a caller can size a wider search from the effort of the failed one.
func (m *Model) AlignFrames(ctx context.Context, frame func(t int) []float32, n int, words []string, opts AlignOptions) (*Alignment, AlignStats, error) {
	return m.alignFrames(ctx, frame, n, words, opts)
}

// GraphSize returns the number of phone HMMs and HMM states of the graph
// Align would search for words with opts, without searching. Unknown words
// give the same errors as Align.
func (m *Model) GraphSize(words []string, opts AlignOptions) (nodes, states int, err error) {
	if err := m.checkWords(words); err != nil {
		return 0, 0, err
	}
	g, err := m.buildGraph(words, opts)
	if err != nil {
		return 0, 0, err
	}
	return len(g.nodes), 3 * len(g.nodes), nil
}
