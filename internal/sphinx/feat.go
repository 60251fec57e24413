package sphinx

// CMNBatch subtracts the mean cepstrum of the whole utterance from every
// frame of cep (ncep values per frame), in place, as the peer's batch CMN
// does (frames with c0 < 0 are left out of the mean).
func CMNBatch(cep []float32, ncep int) {
	n := len(cep) / ncep
	if n == 0 {
		return
	}
	mean := make([]float64, ncep)
	cnt := 0
	for t := range n {
		c := cep[t*ncep : (t+1)*ncep]
		if c[0] < 0 {
			continue
		}
		for i, v := range c {
			mean[i] += float64(v)
		}
		cnt++
	}
	if cnt == 0 {
		return
	}
	for i := range mean {
		mean[i] /= float64(cnt)
	}
	for t := range n {
		c := cep[t*ncep : (t+1)*ncep]
		for i := range c {
			c[i] = float32(float64(c[i]) - mean[i])
		}
	}
}

// LiveCMN is the peer's running ("live", "prior") cepstral mean
// normalisation for streams: frames are normalised with the current mean
// estimate, which starts at a prior (feat.params -cmninit) and is updated
// after each Apply call from a decaying window of about 500 frames. It is not
// safe for concurrent use.
type LiveCMN struct {
	mean   []float64
	sum    []float64
	nframe int
}

const (
	cmnWin    = 500
	cmnWinHWM = 800
)

// NewLiveCMN starts a live CMN of ncep coefficients from prior (missing
// values are zero).
func NewLiveCMN(ncep int, prior []float64) *LiveCMN {
	l := &LiveCMN{mean: make([]float64, ncep), sum: make([]float64, ncep), nframe: cmnWin}
	copy(l.mean, prior[:min(len(prior), ncep)])
	for i := range l.sum {
		l.sum[i] = l.mean[i] * cmnWin
	}
	return l
}

// Apply normalises cep (whole frames of ncep values) in place and then
// updates the running mean.
func (l *LiveCMN) Apply(cep []float32) {
	ncep := len(l.mean)
	for t := range len(cep) / ncep {
		c := cep[t*ncep : (t+1)*ncep]
		if c[0] < 0 {
			continue
		}
		for i := range c {
			l.sum[i] += float64(c[i])
			c[i] = float32(float64(c[i]) - l.mean[i])
		}
		l.nframe++
	}
	if l.nframe > cmnWinHWM {
		for i := range l.mean {
			l.mean[i] = l.sum[i] / float64(l.nframe)
		}
		sf := float64(cmnWin) / float64(l.nframe)
		for i := range l.sum {
			l.sum[i] *= sf
		}
		l.nframe = cmnWin
	}
}

// Mean returns a copy of the current mean estimate.
func (l *LiveCMN) Mean() []float64 { return append([]float64(nil), l.mean...) }

// FeatureAt writes the 1s_c_d_dd feature vector of frame t into dst
// (3·ncep values) and returns it: c, Δc = c[t+2]−c[t−2] and
// ΔΔc = (c[t+3]−c[t−1])−(c[t+1]−c[t−3]), with the first and last frames
// repeated beyond the edges as the peer pads them.
func FeatureAt(dst, cep []float32, ncep, t int) []float32 {
	last := len(cep)/ncep - 1
	at := func(k int) []float32 {
		k = max(0, min(last, k))
		return cep[k*ncep : (k+1)*ncep]
	}
	dst = dst[:3*ncep]
	c := at(t)
	p2, m2 := at(t+2), at(t-2)
	p3, m1, p1, m3 := at(t+3), at(t-1), at(t+1), at(t-3)
	for i := range ncep {
		dst[i] = c[i]
		dst[ncep+i] = p2[i] - m2[i]
		dst[2*ncep+i] = (p3[i] - m1[i]) - (p1[i] - m3[i])
	}
	return dst
}

// Features computes FeatureAt for every frame of cep and returns one flat
// slice of frames × 3·ncep values.
func Features(cep []float32, ncep int) []float32 {
	n := len(cep) / ncep
	dim := 3 * ncep
	out := make([]float32, n*dim)
	for t := range n {
		FeatureAt(out[t*dim:(t+1)*dim], cep, ncep, t)
	}
	return out
}
