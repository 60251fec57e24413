package sphinx

import (
	"slices"
)

// Segmental batch CMN: audio joined from recordings made in different rooms
// or through different microphones has one long-term cepstral mean per
// recording, and a single batch mean fits none of them (two MFA corpus
// recordings joined lose the standard search's path). CMNStats collects,
// block by block, what is needed to find where that mean shifts, and
// Regions splits the audio there, so that each homogeneous region is
// normalised with its own mean. Audio without such a shift stays one
// region and gets exactly the whole-utterance batch CMN.
//
// The detector compares the mean of c1..c12 over the frames batch CMN
// averages (c0 ≥ 0, "speech frames" below, though with this front end
// that is every frame but digital silence) in a window of cmnSegWindow
// blocks (10 s) before and one after each candidate boundary, every block
// of cmnSegBlock frames. The distance is the mean over the twelve
// coefficients of the squared difference of the two means in units of
// their pooled variance (a squared effect size, so it does not grow with
// the amount of audio). The largest distance above cmnSegThreshold splits
// a region, the boundary is refined (refine), and the two halves are
// searched again (binary segmentation), as long as every region keeps
// cmnSegMinRegion blocks (5 s). c0 (the level) is left out of the test: it
// changes with how loud a speaker talks, not only with the channel.
//
// Calibration (the front end of the Debian en-us model, the 40 shared
// recordings of 1.4 to 68 s, and joins of them): the largest distance
// inside one recording was 0.14 (en_mfa_acoustic_corpus, where the speaker
// slows down and speaks lower); across the junction of two recordings it
// was 0.28 (en_mfa_acoustic_corpus then en_mfa_cold_corpus, two rooms and
// microphones) to 1.2 (to en_jfk). The threshold sits between.

const (
	// cmnSegBlock is the resolution of the statistics and of the region
	// boundaries, in frames.
	cmnSegBlock = 25
	// cmnSegWindow is the length of the audio compared on each side of a
	// candidate boundary, in blocks.
	cmnSegWindow = 40
	// cmnSegMinRegion is the shortest region, in blocks.
	cmnSegMinRegion = 20
	// cmnSegMinSpeech is the fewest speech frames a side of the comparison
	// must have.
	cmnSegMinSpeech = 300
	// cmnSegThreshold is the distance above which the mean has shifted.
	cmnSegThreshold = 0.2
)

// CMNStats accumulates the statistics of segmental CMN over cepstra added
// in order, in memory proportional to the number of blocks (27 values, 224
// bytes, per quarter second with 13 coefficients: about 3 MB per hour, a
// twelfth of the cepstra), not a copy of the frames. It is not safe for
// concurrent use.
type CMNStats struct {
	ncep   int
	frames int
	// total and count are the sum and number of all speech frames, summed
	// frame by frame in the order CMNBatch sums them.
	total []float64
	count int
	// Per block: the frames with c0 ≥ 0, their sums and their sums of
	// squares (ncep values each).
	cnt      []int
	sum, sq  []float64
	lastDone int // frames in the last (possibly partial) block
}

// NewCMNStats starts the statistics of ncep coefficients per frame.
func NewCMNStats(ncep int) *CMNStats {
	return &CMNStats{ncep: ncep, total: make([]float64, ncep), lastDone: cmnSegBlock}
}

// Add appends the frames of cep (ncep values each, not normalised).
func (s *CMNStats) Add(cep []float32) {
	nc := s.ncep
	for t := 0; t+nc <= len(cep); t += nc {
		b := s.next()
		c := cep[t : t+nc]
		if c[0] < 0 {
			continue
		}
		s.cnt[b]++
		sum, sq := s.sum[b*nc:(b+1)*nc], s.sq[b*nc:(b+1)*nc]
		for i, v := range c {
			s.total[i] += float64(v)
			sum[i] += float64(v)
			sq[i] += float64(v) * float64(v)
		}
		s.count++
	}
}

// AddAt adds the frames of cep as frames frame0, frame0+1, … of the audio:
// frames skipped since the last call count as frames without speech, and
// frames already added are not added again. It lets the statistics of
// audio cut into blocks (each with its own front end, which may yield a
// frame fewer than the block holds) keep the frame numbering of the whole.
func (s *CMNStats) AddAt(frame0 int, cep []float32) {
	for s.frames < frame0 {
		s.next()
	}
	if skip := (s.frames - frame0) * s.ncep; skip > 0 {
		cep = cep[min(skip, len(cep)):]
	}
	s.Add(cep)
}

// next counts one more frame and returns its block, starting a new block
// when the last one is full.
func (s *CMNStats) next() int {
	if s.lastDone == cmnSegBlock {
		s.cnt = append(s.cnt, 0)
		s.sum = append(s.sum, make([]float64, s.ncep)...)
		s.sq = append(s.sq, make([]float64, s.ncep)...)
		s.lastDone = 0
	}
	s.lastDone++
	s.frames++
	return len(s.cnt) - 1
}

// Frames returns the number of frames added.
func (s *CMNStats) Frames() int { return s.frames }

// CMNRegion is a stretch of frames [Start, End) normalised with one mean.
type CMNRegion struct {
	Start, End int
	// Mean is the cepstral mean subtracted from the region's frames; nil
	// when the region has no speech frame (its frames are left as they
	// are, as CMNBatch leaves an utterance without speech).
	Mean []float64
}

// Regions splits the frames added so far where the long-term cepstral mean
// shifts and returns the regions in order with their means. Without a
// shift it returns one region whose mean is exactly the one CMNBatch
// computes for the same frames.
func (s *CMNStats) Regions() []CMNRegion {
	nb := len(s.cnt)
	var cuts []int
	s.split(0, nb, &cuts)
	if len(cuts) == 0 {
		r := CMNRegion{End: s.frames}
		if s.count > 0 {
			r.Mean = make([]float64, s.ncep)
			for i := range r.Mean {
				r.Mean[i] = s.total[i] / float64(s.count)
			}
		}
		return []CMNRegion{r}
	}
	slices.Sort(cuts)
	out := make([]CMNRegion, 0, len(cuts)+1)
	lo := 0
	for _, b := range append(cuts, nb) {
		r := CMNRegion{Start: lo * cmnSegBlock, End: min(b*cmnSegBlock, s.frames)}
		if m, n := s.mean(lo, b, 0); n > 0 {
			r.Mean = m
		}
		out = append(out, r)
		lo = b
	}
	return out
}

// split adds to cuts the blocks in [lo, hi) where the mean shifts. The
// two windows slide with the candidate boundary, so each candidate costs
// O(ncep), and a split costs O(ncep) per block of its region.
func (s *CMNStats) split(lo, hi int, cuts *[]int) {
	first, last := lo+cmnSegMinRegion, hi-cmnSegMinRegion
	if first > last {
		return
	}
	l, r := s.newSide(), s.newSide()
	for k := max(lo, first-cmnSegWindow); k < first; k++ {
		l.add(s, k, 1)
	}
	for k := first; k < min(hi, first+cmnSegWindow); k++ {
		r.add(s, k, 1)
	}
	best, at := cmnSegThreshold, -1
	for b := first; ; b++ {
		if d := s.distance(l, r); d > best {
			best, at = d, b
		}
		if b == last {
			break
		}
		l.add(s, b, 1)
		if b-cmnSegWindow >= lo {
			l.add(s, b-cmnSegWindow, -1)
		}
		r.add(s, b, -1)
		if b+cmnSegWindow < hi {
			r.add(s, b+cmnSegWindow, 1)
		}
	}
	if at < 0 {
		return
	}
	at = s.refine(lo, at, hi)
	*cuts = append(*cuts, at)
	s.split(lo, at, cuts)
	s.split(at, hi, cuts)
}

// side is the running statistics of one window of the comparison.
type side struct {
	n       int
	sum, sq []float64
}

func (s *CMNStats) newSide() *side {
	return &side{sum: make([]float64, s.ncep), sq: make([]float64, s.ncep)}
}

// add adds (sign 1) or removes (sign −1) block k.
func (w *side) add(s *CMNStats, k int, sign float64) {
	nc := s.ncep
	w.n += int(sign) * s.cnt[k]
	for i := range nc {
		w.sum[i] += sign * s.sum[k*nc+i]
		w.sq[i] += sign * s.sq[k*nc+i]
	}
}

// distance compares two windows: the mean over c1..c(ncep-1) of the
// squared difference of their means divided by the pooled within-window
// variance. It is 0 when a window has too little speech.
func (s *CMNStats) distance(l, r *side) float64 {
	nc := s.ncep
	if l.n < cmnSegMinSpeech || r.n < cmnSegMinSpeech || nc < 2 {
		return 0
	}
	nl, nr := float64(l.n), float64(r.n)
	d := 0.0
	for i := 1; i < nc; i++ {
		ml, mr := l.sum[i]/nl, r.sum[i]/nr
		// The second moment of both windows minus each one's squared mean.
		v := (l.sq[i] + r.sq[i] - nl*ml*ml - nr*mr*mr) / (nl + nr)
		if !(v > 1e-9) {
			continue
		}
		d += (ml - mr) * (ml - mr) / v
	}
	return d / float64(nc-1)
}

// refine moves a boundary b found in [lo, hi) to where the speech around it
// changes from one side's mean to the other's: the means of the two
// windows are held fixed and every block within half a window of b is
// given to the side whose mean is nearer (in units of the pooled variance),
// as a least-squares fit of two constant means would. The distance at b
// compares whole windows, so it peaks anywhere the windows straddle the
// change, including a second or two of pause or a short word away from it.
// Among equally good boundaries (a stretch without speech) the middle one
// is taken.
func (s *CMNStats) refine(lo, b, hi int) int {
	nc := s.ncep
	wl, wr := max(lo, b-cmnSegWindow), min(hi, b+cmnSegWindow)
	ml, nl := s.mean(wl, b, 1)
	mr, nr := s.mean(b, wr, 1)
	// w[i] = (ml−mr)/v and c = Σ (ml²−mr²)/v, over c1..c(ncep-1): a
	// block's cost on the left minus its cost on the right is then
	// Σ_i −2·w[i]·sum_i + cnt·c.
	w := make([]float64, nc-1)
	c := 0.0
	for i := 1; i < nc; i++ {
		var q float64
		for k := wl; k < wr; k++ {
			q += s.sq[k*nc+i]
		}
		m1, m2 := ml[i-1], mr[i-1]
		v := (q - float64(nl)*m1*m1 - float64(nr)*m2*m2) / float64(nl+nr)
		if !(v > 1e-12) {
			continue
		}
		w[i-1] = (m1 - m2) / v
		c += (m1*m1 - m2*m2) / v
	}
	from := max(lo+cmnSegMinRegion, b-cmnSegWindow/2)
	to := min(hi-cmnSegMinRegion, b+cmnSegWindow/2)
	// cost is the fit's cost at boundary k minus its cost at from.
	cost, best, first, last := 0.0, 0.0, from, from
	for k := from; k < to; k++ {
		d := float64(s.cnt[k]) * c
		for i := 1; i < nc; i++ {
			d -= 2 * w[i-1] * s.sum[k*nc+i]
		}
		cost += d
		switch {
		case cost < best:
			best, first, last = cost, k+1, k+1
		case cost == best:
			last = k + 1
		}
	}
	return (first + last) / 2
}

// mean returns the mean of the speech frames of blocks [lo, hi) from
// coefficient from on, and their number.
func (s *CMNStats) mean(lo, hi, from int) ([]float64, int) {
	nc := s.ncep
	m := make([]float64, nc-from)
	n := 0
	for b := lo; b < hi; b++ {
		n += s.cnt[b]
		for i := range m {
			m[i] += s.sum[b*nc+from+i]
		}
	}
	if n > 0 {
		for i := range m {
			m[i] /= float64(n)
		}
	}
	return m, n
}

// CMNSegmental is batch CMN per region of constant long-term mean: it finds
// the regions with CMNStats and subtracts each region's mean from its
// frames, in place. When no shift is found it is exactly CMNBatch. It
// returns the regions.
func CMNSegmental(cep []float32, ncep int) []CMNRegion {
	s := NewCMNStats(ncep)
	s.Add(cep)
	regions := s.Regions()
	if len(regions) == 1 {
		CMNBatch(cep, ncep)
		return regions
	}
	for _, r := range regions {
		SubtractMean(cep[r.Start*ncep:r.End*ncep], r.Mean)
	}
	return regions
}

// SubtractMean subtracts mean (len(mean) values per frame) from every frame
// of cep in place; a nil mean leaves cep unchanged.
func SubtractMean(cep []float32, mean []float64) {
	nc := len(mean)
	if nc == 0 {
		return
	}
	for t := 0; t+nc <= len(cep); t += nc {
		c := cep[t : t+nc]
		for i := range c {
			c[i] = float32(float64(c[i]) - mean[i])
		}
	}
}
