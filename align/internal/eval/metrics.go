package main

import (
	"math"
	"slices"
)

// match pairs the words an aligner returned with the transcript tokens by
// a longest common subsequence over normalized spellings. It returns, for
// each token, the index of its word or -1.
func match(tokens []string, words []span) []int {
	n, m := len(tokens), len(words)
	a := make([]string, n)
	for i, t := range tokens {
		a[i] = norm(t)
	}
	b := make([]string, m)
	for j, w := range words {
		b[j] = norm(w.Label)
	}
	// dp[i][j] = LCS of a[i:], b[j:].
	dp := make([][]int32, n+1)
	for i := range dp {
		dp[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case a[i] == b[j]:
				dp[i][j] = dp[i+1][j+1] + 1
			case dp[i+1][j] >= dp[i][j+1]:
				dp[i][j] = dp[i+1][j]
			default:
				dp[i][j] = dp[i][j+1]
			}
		}
	}
	out := make([]int, n)
	for i := range out {
		out[i] = -1
	}
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case a[i] == b[j]:
			out[i] = j
			i++
			j++
		case dp[i+1][j] >= dp[i][j+1]:
			i++
		default:
			j++
		}
	}
	return out
}

// boundaryStats summarizes the absolute errors of word (or line)
// boundaries against a reference.
type boundaryStats struct {
	N        int     // boundaries compared
	Missing  int     // reference items with no aligned counterpart
	Within   [3]int  // boundaries within 20, 50 and 100 ms (or 0.5 s for lines)
	SumAbs   float64 // seconds
	MaxAbs   float64 // seconds
	Tol      [3]float64
	Compared bool
	// Signed sums of start and end errors (aligned minus reference), for
	// the bias; word references only.
	SumStart, SumEnd float64
	Words            int
}

// Bias returns the mean signed start and end errors in seconds.
func (s boundaryStats) Bias() (start, end float64) {
	if s.Words == 0 {
		return math.NaN(), math.NaN()
	}
	return s.SumStart / float64(s.Words), s.SumEnd / float64(s.Words)
}

var (
	wordTols = [3]float64{0.020, 0.050, 0.100}
	lineTols = [3]float64{0.1, 0.25, 0.5}
)

func (s *boundaryStats) add(err float64) {
	err = math.Abs(err)
	s.N++
	s.SumAbs += err
	s.MaxAbs = max(s.MaxAbs, err)
	for i, t := range s.Tol {
		if err <= t+1e-9 {
			s.Within[i]++
		}
	}
}

// Share returns the share of boundaries within tolerance i, 0 to 1.
func (s boundaryStats) Share(i int) float64 {
	if s.N == 0 {
		return math.NaN()
	}
	return float64(s.Within[i]) / float64(s.N)
}

// MAE is the mean absolute error in seconds.
func (s boundaryStats) MAE() float64 {
	if s.N == 0 {
		return math.NaN()
	}
	return s.SumAbs / float64(s.N)
}

func (s *boundaryStats) merge(o boundaryStats) {
	s.N += o.N
	s.Missing += o.Missing
	s.SumAbs += o.SumAbs
	s.MaxAbs = max(s.MaxAbs, o.MaxAbs)
	for i := range s.Within {
		s.Within[i] += o.Within[i]
	}
	s.Compared = s.Compared || o.Compared
	s.SumStart += o.SumStart
	s.SumEnd += o.SumEnd
	s.Words += o.Words
}

// tokenTimes maps aligned words onto the recording's tokens: the times of
// each token, or ok false for tokens left unmatched.
func tokenTimes(r *recording, words []span) (times []span, ok []bool) {
	idx := match(r.Tokens, words)
	times = make([]span, len(r.Tokens))
	ok = make([]bool, len(r.Tokens))
	for i, j := range idx {
		if j >= 0 {
			times[i], ok[i] = words[j], true
		}
	}
	return times, ok
}

// wordBoundaries compares token times with a word reference (one token
// per reference word): the start and end of every word.
func wordBoundaries(r *recording, words []span) boundaryStats {
	st := boundaryStats{Tol: wordTols, Compared: true}
	times, ok := tokenTimes(r, words)
	for i, ref := range r.Ref {
		if i >= len(times) || !ok[i] {
			st.Missing++
			continue
		}
		st.add(times[i].Start - ref.Start)
		st.add(times[i].End - ref.End)
		st.SumStart += times[i].Start - ref.Start
		st.SumEnd += times[i].End - ref.End
		st.Words++
	}
	return st
}

// lineBoundaries compares the inner line boundaries of an aeneas map with
// the aligned pause between the last word of a line and the first word of
// the next: the error is the distance from the reference boundary to that
// pause (zero inside it), since aeneas puts its boundaries in the pauses.
// The map's first start and last end (the file's ends) are not boundaries.
func lineBoundaries(r *recording, words []span) boundaryStats {
	st := boundaryStats{Tol: lineTols, Compared: true}
	times, ok := tokenTimes(r, words)
	first := make([]float64, len(r.Ref))
	last := make([]float64, len(r.Ref))
	for i := range first {
		first[i], last[i] = math.NaN(), math.NaN()
	}
	for i, l := range r.Line {
		if !ok[i] {
			continue
		}
		if math.IsNaN(first[l]) {
			first[l] = times[i].Start
		}
		last[l] = times[i].End
	}
	for l := 0; l+1 < len(r.Ref); l++ {
		end, start := last[l], first[l+1]
		if math.IsNaN(end) || math.IsNaN(start) {
			st.Missing++
			continue
		}
		b := r.Ref[l].End
		lo, hi := min(end, start), max(end, start)
		switch {
		case b < lo:
			st.add(lo - b)
		case b > hi:
			st.add(b - hi)
		default:
			st.add(0)
		}
	}
	return st
}

// energyCheck tells whether aligned words lie on speech, without
// reference timings: frame energies (25 ms windows every 10 ms) are split
// at a threshold 30 % of the way from the file's noise floor (10th
// percentile, dB) to its loud speech (95th percentile).
type energyCheck struct {
	InSpeech  float64 // share of frames inside words that are above the threshold
	OutSpeech float64 // share of frames outside words (between first and last word) above it
	InDB      float64 // mean frame energy inside words, dB relative to the floor
	OutDB     float64 // mean frame energy in the gaps between words, dB relative to the floor
	Gaps      int     // pauses of 150 ms or more between consecutive words
	GapsAtEnd int     // of those, pauses after a word ending in . , ; : ! ? or a line end
	Ends      int     // words ending a sentence, clause or line (not the last word)
	EndsGap   int     // of those, followed by a pause of 100 ms or more
}

func checkEnergy(samples []float32, rate int, words []span, lineEnd []bool) energyCheck {
	var c energyCheck
	if len(words) == 0 {
		return c
	}
	win, hop := rate*25/1000, rate/100
	var db []float64
	for s := 0; s+win <= len(samples); s += hop {
		var e float64
		for _, x := range samples[s : s+win] {
			e += float64(x) * float64(x)
		}
		db = append(db, 10*math.Log10(e/float64(win)+1e-10))
	}
	if len(db) == 0 {
		return c
	}
	sorted := slices.Clone(db)
	slices.Sort(sorted)
	floor, loud := sorted[len(sorted)/10], sorted[len(sorted)*95/100]
	thr := floor + 0.3*(loud-floor)
	inWord := make([]bool, len(db))
	for _, w := range words {
		for f := max(0, int(w.Start*100)); f < min(len(db), int(w.End*100)); f++ {
			inWord[f] = true
		}
	}
	lo, hi := max(0, int(words[0].Start*100)), min(len(db), int(words[len(words)-1].End*100))
	var nIn, nOut, spIn, spOut int
	var sumIn, sumOut float64
	for f := lo; f < hi; f++ {
		if inWord[f] {
			nIn++
			sumIn += db[f] - floor
			if db[f] > thr {
				spIn++
			}
		} else {
			nOut++
			sumOut += db[f] - floor
			if db[f] > thr {
				spOut++
			}
		}
	}
	c.InSpeech, c.OutSpeech = ratio(spIn, nIn), ratio(spOut, nOut)
	c.InDB, c.OutDB = sumIn/math.Max(1, float64(nIn)), sumOut/math.Max(1, float64(nOut))
	if nOut == 0 {
		c.OutDB = math.NaN()
	}
	for i := 0; i+1 < len(words); i++ {
		gap := words[i+1].Start - words[i].End
		end := (i < len(lineEnd) && lineEnd[i]) || endsClause(words[i].Label)
		if gap >= 0.15 {
			c.Gaps++
			if end {
				c.GapsAtEnd++
			}
		}
		if end {
			c.Ends++
			if gap >= 0.1 {
				c.EndsGap++
			}
		}
	}
	return c
}

func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

func endsClause(w string) bool {
	r := []rune(w)
	if len(r) == 0 {
		return false
	}
	switch r[len(r)-1] {
	case '.', ',', ';', ':', '!', '?', '。', '、', '，', '！', '？':
		return true
	}
	return false
}
