package whisper

import "math"

// mt19937 is the 32-bit Mersenne Twister (std::mt19937), the generator
// whisper.cpp's decoders sample with. The algorithm and its constants are
// the published MT19937 definition.
type mt19937 struct {
	mt  [624]uint32
	idx int
}

func newMT19937(seed uint32) *mt19937 {
	r := &mt19937{}
	r.seed(seed)
	return r
}

func (r *mt19937) seed(seed uint32) {
	r.mt[0] = seed
	for i := 1; i < 624; i++ {
		r.mt[i] = 1812433253*(r.mt[i-1]^(r.mt[i-1]>>30)) + uint32(i)
	}
	r.idx = 624
}

func (r *mt19937) next() uint32 {
	if r.idx >= 624 {
		for i := range 624 {
			y := r.mt[i]&0x80000000 | r.mt[(i+1)%624]&0x7fffffff
			v := r.mt[(i+397)%624] ^ y>>1
			if y&1 != 0 {
				v ^= 0x9908b0df
			}
			r.mt[i] = v
		}
		r.idx = 0
	}
	y := r.mt[r.idx]
	r.idx++
	y ^= y >> 11
	y ^= y << 7 & 0x9d2c5680
	y ^= y << 15 & 0xefc60000
	y ^= y >> 18
	return y
}

// canonical returns a double in [0, 1) from two draws, low word first, as
// GNU libstdc++'s std::generate_canonical<double, 53> does with a 32-bit
// generator.
func (r *mt19937) canonical() float64 {
	const two32 = 4294967296.0
	sum := float64(r.next())
	sum += float64(r.next()) * two32
	v := sum / (two32 * two32)
	if v >= 1 {
		v = math.Nextafter(1, 0)
	}
	return v
}

// discrete draws an index with probability proportional to w, as GNU
// libstdc++'s std::discrete_distribution<int> does (the C++ library
// whisper.cpp is built with on Linux): weights normalized by their double
// sum, cumulative sums with the last set to 1, and the first cumulative
// value not below a canonical draw. cum is scratch of len(w).
func (r *mt19937) discrete(w []float32, cum []float64) int {
	if len(w) < 2 {
		return 0 // libstdc++ returns 0 without a draw
	}
	var sum float64
	for _, v := range w {
		sum += float64(v)
	}
	var acc float64
	for i, v := range w {
		acc += float64(v) / sum
		cum[i] = acc
	}
	cum[len(w)-1] = 1
	p := r.canonical()
	lo, hi := 0, len(w)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if cum[m] < p {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
