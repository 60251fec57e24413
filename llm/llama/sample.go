package llama

import (
	"math"
	"math/rand/v2"
	"slices"
)

// SampleOptions chooses how the next token is drawn from the logits. The
// zero value is greedy decoding (the most likely token).
type SampleOptions struct {
	// Temperature divides the logits; 0 means greedy.
	Temperature float64
	// TopK keeps the K most likely tokens (0: all).
	TopK int
	// TopP keeps the smallest set of most likely tokens whose probabilities
	// add up to at least TopP (0 or 1: all).
	TopP float64
	// MinP drops tokens less likely than MinP times the most likely one.
	MinP float64
	// RepeatPenalty > 1 makes the last RepeatLastN tokens less likely: a
	// positive logit is divided by it, a negative one multiplied (as
	// llama.cpp does). 0 or 1 disables it.
	RepeatPenalty float64
	// RepeatLastN is how many recent tokens the penalty covers (0: 64).
	RepeatLastN int
	// Seed seeds the random choice; equal seeds give equal samples.
	Seed uint64
}

// Sampler draws tokens. It reuses its buffers: not safe for concurrent use.
type Sampler struct {
	o    SampleOptions
	rng  *rand.Rand
	cand []candidate
	seen map[int]bool
}

type candidate struct {
	id int
	l  float32 // logit, then probability
}

// NewSampler returns a sampler for o.
func NewSampler(o SampleOptions) *Sampler {
	if o.RepeatLastN <= 0 {
		o.RepeatLastN = 64
	}
	return &Sampler{o: o, rng: rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15)), seen: map[int]bool{}}
}

// Sample returns the next token given the logits (modified in place by the
// repetition penalty) and the tokens so far.
func (s *Sampler) Sample(logits []float32, history []int) int {
	o := &s.o
	if o.RepeatPenalty > 0 && o.RepeatPenalty != 1 {
		clear(s.seen)
		p := float32(o.RepeatPenalty)
		for _, t := range history[max(0, len(history)-o.RepeatLastN):] {
			if t < 0 || t >= len(logits) || s.seen[t] {
				continue
			}
			s.seen[t] = true
			if logits[t] > 0 {
				logits[t] /= p
			} else {
				logits[t] *= p
			}
		}
	}
	best := 0
	for i, v := range logits {
		if v > logits[best] {
			best = i
		}
	}
	if o.Temperature <= 0 {
		return best
	}
	// Candidates: tokens within 30 temperature units of the best logit (the
	// rest have probability below e^-30 relative to it).
	t := float32(o.Temperature)
	floor := logits[best] - 30*t
	s.cand = s.cand[:0]
	for i, v := range logits {
		if v >= floor {
			s.cand = append(s.cand, candidate{i, v})
		}
	}
	slices.SortFunc(s.cand, func(a, b candidate) int {
		if a.l != b.l {
			if a.l > b.l {
				return -1
			}
			return 1
		}
		return a.id - b.id
	})
	c := s.cand
	if o.TopK > 0 && o.TopK < len(c) {
		c = c[:o.TopK]
	}
	// Softmax with temperature.
	m := c[0].l
	var sum float64
	for i := range c {
		e := math.Exp(float64((c[i].l - m) / t))
		c[i].l = float32(e)
		sum += e
	}
	for i := range c {
		c[i].l = float32(float64(c[i].l) / sum)
	}
	if o.TopP > 0 && o.TopP < 1 {
		var cum float64
		for i := range c {
			cum += float64(c[i].l)
			if cum >= o.TopP {
				c = c[:i+1]
				break
			}
		}
	}
	if o.MinP > 0 {
		lim := float32(o.MinP) * c[0].l
		n := 1
		for n < len(c) && c[n].l >= lim {
			n++
		}
		c = c[:n]
	}
	var total float64
	for _, x := range c {
		total += float64(x.l)
	}
	r := s.rng.Float64() * total
	for _, x := range c {
		r -= float64(x.l)
		if r < 0 {
			return x.id
		}
	}
	return c[len(c)-1].id
}
