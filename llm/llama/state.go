package llama

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/sottolabs/sotto/internal/tensor"
)

// ErrContextFull is returned when a forward pass would go past the state's
// context length.
var ErrContextFull = errors.New("llama: context length exceeded")

// MaxBatch is the number of prompt tokens a forward pass multiplies through
// each weight matrix at once.
const MaxBatch = 64

// State is one sequence being processed: the key/value cache and the
// buffers of the forward pass. It is not safe for concurrent use; a model
// can have any number of states.
type State struct {
	m      *Model
	pool   *tensor.Pool
	ctxLen int
	pos    int
	kc, vc [][]float32 // per layer: KVHeads × ctxLen × HeadDim (each head's keys contiguous)
	rope   *tensor.Rope

	x, xb, q, k, v, att, hb, hb2 [][]float32 // per batch slot
	actD, actQ, actH             []tensor.Activation
	scores, logits, last         []float32
	lastAct                      tensor.Activation

	// Batched attention (attendBatch): the scores of attnBlock queries
	// (attnBlock × ctxLen), one head's values transposed (grown to
	// HeadDim × the longest sequence seen), and slice headers.
	bscores    []float32
	vt         []float32
	qs, ss, os [][]float32
}

// attnBlock is the number of query vectors (token and head pairs) whose
// attention scores a prompt batch computes at once.
const attnBlock = 32

// NewState prepares a sequence of up to ctxLen tokens (0 or more than the
// model's context length means the model's) computing on pool's goroutines.
// The pool may be shared by states used one at a time.
func (m *Model) NewState(ctxLen int, pool *tensor.Pool) *State {
	if ctxLen <= 0 || ctxLen > m.Context {
		ctxLen = m.Context
	}
	c := &m.Config
	kvDim := c.KVHeads * c.HeadDim
	s := &State{m: m, pool: pool, ctxLen: ctxLen}
	for range c.Layers {
		s.kc = append(s.kc, make([]float32, ctxLen*kvDim))
		s.vc = append(s.vc, make([]float32, ctxLen*kvDim))
	}
	s.rope = tensor.NewRopeFactors(c.HeadDim, c.RopeBase, c.RopeNeoX, c.RopeFactor)
	bufs := func(n int) [][]float32 {
		out := make([][]float32, MaxBatch)
		for i := range out {
			out[i] = make([]float32, n)
		}
		return out
	}
	qDim := c.Heads * c.HeadDim
	s.x, s.xb, s.q, s.k, s.v, s.att = bufs(c.Dim), bufs(c.Dim), bufs(qDim), bufs(kvDim), bufs(kvDim), bufs(qDim)
	s.hb, s.hb2 = bufs(c.Hidden), bufs(c.Hidden)
	s.actD = make([]tensor.Activation, MaxBatch)
	s.actQ = make([]tensor.Activation, MaxBatch)
	s.actH = make([]tensor.Activation, MaxBatch)
	s.scores = make([]float32, ctxLen)
	s.bscores = make([]float32, attnBlock*ctxLen)
	s.qs, s.ss, s.os = make([][]float32, attnBlock), make([][]float32, attnBlock), make([][]float32, attnBlock)
	s.logits = make([]float32, c.Vocab)
	s.last = make([]float32, c.Dim)
	return s
}

// Pos returns the number of tokens processed so far.
func (s *State) Pos() int { return s.pos }

// ContextLen returns the maximum number of tokens of the sequence.
func (s *State) ContextLen() int { return s.ctxLen }

// Reset forgets the sequence so that the state can start a new one.
func (s *State) Reset() { s.pos = 0 }

// Truncate forgets every token from position n on (to reuse a common
// prefix).
func (s *State) Truncate(n int) {
	if n < s.pos {
		s.pos = max(n, 0)
	}
}

// Forward runs tokens through the model at the next positions and returns
// the logits after the last one (Vocab values, valid until the next call).
// Prompts are processed MaxBatch tokens at a time. Cancellation is checked
// between layers; on error the state keeps the tokens completed before it.
func (s *State) Forward(ctx context.Context, tokens []int) ([]float32, error) {
	if len(tokens) == 0 {
		return nil, errors.New("llama: Forward: no tokens")
	}
	if s.pos+len(tokens) > s.ctxLen {
		return nil, fmt.Errorf("%w: %d + %d tokens > %d", ErrContextFull, s.pos, len(tokens), s.ctxLen)
	}
	for _, t := range tokens {
		if t < 0 || t >= s.m.Vocab {
			return nil, fmt.Errorf("llama: token %d out of range [0, %d)", t, s.m.Vocab)
		}
	}
	for len(tokens) > 0 {
		n := min(len(tokens), MaxBatch)
		if err := s.batch(ctx, tokens[:n]); err != nil {
			return nil, err
		}
		tokens = tokens[n:]
	}
	return s.logits, nil
}

func (s *State) batch(ctx context.Context, tokens []int) error {
	m, c := s.m, &s.m.Config
	n := len(tokens)
	for b, t := range tokens {
		m.Embed.DequantizeRow(t, s.x[b])
	}
	hd := c.HeadDim
	scale := float32(math.Sqrt(float64(hd)))
	for li := range m.Layers {
		if err := ctx.Err(); err != nil {
			return err
		}
		l := &m.Layers[li]
		for b := range n {
			tensor.RMSNorm(s.xb[b], s.x[b], l.AttnNorm, c.NormEps)
			s.actD[b].Set(s.xb[b])
		}
		s.pool.MatMul(s.q[:n], l.Wq, s.actD[:n])
		s.pool.MatMul(s.k[:n], l.Wk, s.actD[:n])
		s.pool.MatMul(s.v[:n], l.Wv, s.actD[:n])
		kc, vc := s.kc[li], s.vc[li]
		for b := range n {
			q, k, v := s.q[b], s.k[b], s.v[b]
			if l.Bq != nil {
				tensor.Add(q, l.Bq)
			}
			if l.Bk != nil {
				tensor.Add(k, l.Bk)
			}
			if l.Bv != nil {
				tensor.Add(v, l.Bv)
			}
			if l.QNorm != nil {
				for h := 0; h < len(q); h += hd {
					tensor.RMSNorm(q[h:h+hd], q[h:h+hd], l.QNorm, c.NormEps)
				}
			}
			if l.KNorm != nil {
				for h := 0; h < len(k); h += hd {
					tensor.RMSNorm(k[h:h+hd], k[h:h+hd], l.KNorm, c.NormEps)
				}
			}
			p := s.pos + b
			s.rope.Apply(q, p)
			s.rope.Apply(k, p)
			for g := range c.KVHeads {
				o := (g*s.ctxLen + p) * hd
				copy(kc[o:o+hd], k[g*hd:])
				copy(vc[o:o+hd], v[g*hd:])
			}
		}
		if n == 1 {
			s.attendOne(kc, vc, scale)
		} else {
			s.attendBatch(n, kc, vc, scale)
		}
		for b := range n {
			s.actQ[b].Set(s.att[b])
		}
		s.pool.MatMul(s.xb[:n], l.Wo, s.actQ[:n])
		for b := range n {
			tensor.Add(s.x[b], s.xb[b])
			tensor.RMSNorm(s.xb[b], s.x[b], l.FFNNorm, c.NormEps)
			s.actD[b].Set(s.xb[b])
		}
		s.pool.MatMul(s.hb[:n], l.Gate, s.actD[:n])
		s.pool.MatMul(s.hb2[:n], l.Up, s.actD[:n])
		for b := range n {
			tensor.SwiGLU(s.hb[b], s.hb2[b])
			s.actH[b].Set(s.hb[b])
		}
		s.pool.MatMul(s.xb[:n], l.Down, s.actH[:n])
		for b := range n {
			tensor.Add(s.x[b], s.xb[b])
		}
	}
	s.pos += n
	tensor.RMSNorm(s.last, s.x[n-1], m.OutNorm, c.NormEps)
	s.lastAct.Set(s.last)
	s.pool.MatVec(s.logits, m.Output, &s.lastAct)
	return nil
}

// attendOne computes the attention output of the one token at position
// s.pos into s.att[0]: per head, the scaled dot products with every key
// so far, their softmax, and the values' weighted sum.
func (s *State) attendOne(kc, vc []float32, scale float32) {
	c := &s.m.Config
	hd, group, p := c.HeadDim, c.Heads/c.KVHeads, s.pos
	out := s.att[0]
	clear(out)
	for h := range c.Heads {
		qh := s.q[0][h*hd : h*hd+hd]
		kh := kc[(h/group)*s.ctxLen*hd:]
		vh := vc[(h/group)*s.ctxLen*hd:]
		sc := s.scores[:p+1]
		for t := range sc {
			sc[t] = tensor.Dot(qh, kh[t*hd:t*hd+hd]) / scale
		}
		tensor.Softmax(sc)
		oh := out[h*hd : h*hd+hd]
		for t, a := range sc {
			tensor.Axpy(a, vh[t*hd:t*hd+hd], oh)
		}
	}
}

// attendBatch computes the causal attention of the n tokens of a prompt
// batch (positions s.pos…s.pos+n-1) into s.att. Per key-value head, the
// queries of its heads and tokens are taken attnBlock at a time: their
// scores against every key up to the last token are one matrix product
// (tensor.MulF32 over the head's contiguous keys), each row is scaled,
// masked after its token's position and normalized, and the outputs are a
// second product with the head's values, transposed once per batch. Each
// key and value is thus read once per block of queries instead of once per
// query. The results equal attendOne's up to the order of the additions.
func (s *State) attendBatch(n int, kc, vc []float32, scale float32) {
	c := &s.m.Config
	hd, group := c.HeadDim, c.Heads/c.KVHeads
	P := s.pos + n // keys the last token sees
	if cap(s.vt) < hd*P {
		s.vt = make([]float32, hd*max(P, min(2*cap(s.vt)/hd, s.ctxLen)))
	}
	vt := s.vt[:hd*P]
	for g := range c.KVHeads {
		kh := kc[g*s.ctxLen*hd : (g*s.ctxLen+P)*hd]
		vh := vc[g*s.ctxLen*hd : (g*s.ctxLen+P)*hd]
		for t := range P {
			for d, x := range vh[t*hd : t*hd+hd] {
				vt[d*P+t] = x
			}
		}
		nq := n * group
		for q0 := 0; q0 < nq; q0 += attnBlock {
			m := min(attnBlock, nq-q0)
			for j := range m {
				b, h := (q0+j)/group, g*group+(q0+j)%group
				s.qs[j] = s.q[b][h*hd : h*hd+hd]
				s.ss[j] = s.bscores[j*s.ctxLen : j*s.ctxLen+P]
				s.os[j] = s.att[b][h*hd : h*hd+hd]
			}
			tensor.MulF32(s.ss[:m], kh, s.qs[:m])
			for j := range m {
				b := (q0 + j) / group
				sc := s.ss[j]
				p := s.pos + b
				for t := range sc[:p+1] {
					sc[t] /= scale
				}
				tensor.Softmax(sc[:p+1])
				clear(sc[p+1:])
			}
			tensor.MulF32(s.os[:m], vt, s.ss[:m])
		}
	}
}

// Pool is the set of goroutines matrix products run on (see
// [NewPool]); one pool can serve many states used one at a time.
type Pool = tensor.Pool

// NewPool starts a pool of n goroutines (n ≤ 0: GOMAXPROCS). Close it when
// done.
func NewPool(n int) *Pool { return tensor.NewPool(n) }
