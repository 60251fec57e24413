package whisper

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/sottolabs/sotto/internal/tensor"
)

// Strategy is how tokens are chosen.
type Strategy int

const (
	// Greedy takes the most probable token at temperature 0 and samples
	// BestOf candidates at higher temperatures.
	Greedy Strategy = iota
	// BeamSearch keeps BeamSize candidate sequences at temperature 0 and
	// max(BestOf, 1) at higher temperatures. It is whisper.cpp's variant:
	// each beam draws BeamSize candidate tokens from its distribution
	// (rather than taking the most probable ones), and the candidates
	// with the highest summed log probability, duplicates skipped, become
	// the next beams.
	BeamSearch
)

// Params are the decoding settings, named and defaulted as whisper.cpp's
// whisper_full_params (see [DefaultParams]).
type Params struct {
	Strategy Strategy
	BestOf   int // candidates sampled at temperature > 0 (greedy.best_of)
	BeamSize int // beams at temperature 0 (beam_search.beam_size)

	// Language is a code from [Languages]; "" or "auto" detects it from
	// the first window. English-only models ignore it.
	Language  string
	Translate bool // the translate task instead of transcribe

	NoTimestamps  bool // <|notimestamps|>: one segment per window, no timestamp tokens
	SingleSegment bool // one segment per window even with timestamps
	// Prompt is previous-text conditioning: tokens put after
	// <|startofprev|> (whisper.cpp's initial_prompt, tokenized with
	// [Tokenizer.Encode]). Each later window is conditioned on the text
	// before it as whisper.cpp does within one call (below temperature
	// 0.5, at most NTextCtx/2 − 1 tokens). Every call starts without
	// context, like whisper.cpp's no_context (its default).
	Prompt     []int
	MaxTextCtx int // the most tokens of previous text in a prompt (n_max_text_ctx)

	OffsetMS, DurationMS int // the part of the audio to transcribe (0: all)
	MaxTokens            int // the most tokens per segment (0: no limit)

	SuppressBlank bool    // no blank or <|endoftext|> as the first token
	MaxInitialTS  float32 // seconds: the latest first timestamp (0: no limit)
	LengthPenalty float32 // ≤ 0: score = sum of logprobs / length

	// Temperature fallback: decoding starts at Temperature and, while the
	// result fails the thresholds, retries at Temperature + k·TemperatureInc
	// up to 1 (TemperatureInc 0: a single attempt).
	Temperature, TemperatureInc float32
	EntropyThold                float32 // fail a result whose last 32 tokens have less entropy (nats)
	LogprobThold                float32 // fail a result whose mean token logprob is lower …
	NoSpeechThold               float32 // … unless P(<|nospeech|>) is above this (then: silence)

	// LogitFilter, when set, may change the logits of a step after the
	// standard suppressions and before the timestamp rules, as
	// whisper.cpp's logits_filter_callback. tokens are the sequence so far.
	LogitFilter func(tokens []TokenData, logits []float32)
}

// DefaultParams returns whisper.cpp's defaults for strategy s: English,
// timestamps on, no context between windows, temperature 0 with 0.2 steps
// of fallback, entropy threshold 2.4, logprob threshold −1, no-speech
// threshold 0.6, first timestamp at most 1 s, 5 candidates or beams.
func DefaultParams(s Strategy) Params {
	p := Params{
		Strategy: s, BestOf: -1, BeamSize: -1, Language: "en", MaxTextCtx: 16384,
		SuppressBlank: true, MaxInitialTS: 1, LengthPenalty: -1,
		TemperatureInc: 0.2, EntropyThold: 2.4, LogprobThold: -1, NoSpeechThold: 0.6,
	}
	if s == Greedy {
		p.BestOf = 5
	} else {
		p.BeamSize = 5
	}
	return p
}

// TokenData is a decoded token with the probabilities whisper.cpp reports.
type TokenData struct {
	ID    int     // token id
	TID   int     // the most probable timestamp token at this step
	P     float32 // probability of the token
	PLog  float32 // its log probability
	PT    float32 // probability of TID among the timestamps
	PTSum float32 // total probability of the timestamp tokens
}

// Segment is a stretch of transcript with its times in centiseconds from
// the start of the audio.
type Segment struct {
	T0, T1       int64
	Text         string
	Tokens       []TokenData
	NoSpeechProb float32
}

// Result is the transcript of a whole recording.
type Result struct {
	Language string // the language decoded (detected or given)
	Segments []Segment
}

// Sizes of Whisper's windows: 30 s of audio, 100 mel frames per second.
const (
	chunkSeconds = 30
	deltaMin     = 10 // frames: stop when less than 100 ms is left
)

// Transcriber runs the whole model: encoder, decoder, token rules and
// long-form seeking over 30 s windows, as whisper.cpp's whisper_full does.
// It is not safe for concurrent use.
type Transcriber struct {
	m     *Model
	enc   *Encoder
	dec   *Decoder
	tok   *Tokenizer
	tk    Tokens
	pool  *tensor.Pool
	space int // the id of " ", suppressed as a first token

	// The last encoded window, reused when the same mel and offset come
	// again (language detection, then transcription).
	encMel *Mel
	encOff int
	audio  *Audio

	slots  []*slot
	spares []*DecoderState
	cum    []float64

	// trace, when set (by tests), sees decoder 0 before each of its
	// greedy choices: the window's start, the step and the slot.
	trace func(seek, step int, s *slot)
}

// slot is one decoder of whisper.cpp's whisper_full: a candidate sequence
// with its cache and step buffers.
type slot struct {
	st                       *DecoderState
	seq                      sequence
	seekDelta                int
	failed, completed, hasTS bool
	logits, logprobs, probs  []float32
	rng                      *mt19937
	// tsMargin is how far the timestamps' total log probability was above
	// the best text token's at the last step (negative: below).
	tsMargin float32
}

type sequence struct {
	tokens                                                   []TokenData
	resultLen                                                int
	sumLogprobsAll, sumLogprobs, avgLogprobs, entropy, score float64
}

func (s *sequence) clone() sequence {
	c := *s
	c.tokens = slices.Clone(s.tokens)
	return c
}

// NewTranscriber prepares m (which must stay open) for transcription on
// pool.
func NewTranscriber(m *Model, pool *tensor.Pool) (*Transcriber, error) {
	if m.Hparams.NVocab < 51864 {
		return nil, fmt.Errorf("%w: %d tokens: not a Whisper vocabulary (at least 51864)", ErrFormat, m.Hparams.NVocab)
	}
	enc, err := NewEncoder(m)
	if err != nil {
		return nil, err
	}
	dec, err := NewDecoder(m)
	if err != nil {
		return nil, err
	}
	tok := NewTokenizer(m)
	t := &Transcriber{m: m, enc: enc, dec: dec, tok: tok, tk: tok.Tokens(), pool: pool, space: -1}
	if id, ok := tok.ID(" "); ok {
		t.space = id
	}
	return t, nil
}

// Tokenizer returns the model's tokenizer.
func (t *Transcriber) Tokenizer() *Tokenizer { return t.tok }

// window encodes the window of mel starting at frame seek and computes its
// cross-attention keys and values.
func (t *Transcriber) window(ctx context.Context, mel *Mel, seek int) error {
	if t.encMel == mel && t.encOff == seek && t.audio != nil {
		return nil
	}
	t.encMel = nil
	out, err := t.enc.Encode(ctx, t.pool, mel, seek)
	if err != nil {
		return err
	}
	if t.audio, err = t.dec.Audio(ctx, t.pool, out, t.audio); err != nil {
		return err
	}
	t.encMel, t.encOff = mel, seek
	return nil
}

// DetectLanguage returns the most probable language of the window starting
// at offsetMS and the probability of every language of the model (indexed
// as [Languages]), from the logits of the language tokens after
// <|startoftranscript|>. whisper.cpp ranks 100 codes on every model; here
// a 99-language model ranks its 99 (whisper.cpp's hundredth, "yue", reads
// the logit of <|translate|> on such a model).
func (t *Transcriber) DetectLanguage(ctx context.Context, mel *Mel, offsetMS int) (string, []float32, error) {
	if !t.tk.Multilingual() {
		return "", nil, fmt.Errorf("whisper: the model is English-only; it cannot detect languages")
	}
	seek := offsetMS / 10
	if seek < 0 || seek >= mel.NLenAudio {
		return "", nil, fmt.Errorf("whisper: language detection offset %d ms is outside the audio", offsetMS)
	}
	if err := t.window(ctx, mel, seek); err != nil {
		return "", nil, err
	}
	st := t.dec.NewState()
	if err := st.Step(t.pool, t.audio, t.tk.SOT, true); err != nil {
		return "", nil, err
	}
	n := min(t.tk.NumLanguages, len(Languages))
	probs := make([]float32, n)
	best := 0
	mx := math.Inf(-1)
	for i := range n {
		v := float64(st.Logits[t.tk.SOT+1+i])
		if v > mx {
			mx, best = v, i
		}
	}
	var sum float64
	e := make([]float64, n)
	for i := range n {
		e[i] = math.Exp(float64(st.Logits[t.tk.SOT+1+i]) - mx)
		sum += e[i]
	}
	for i := range n {
		probs[i] = float32(e[i] / sum)
	}
	return Languages[best], probs, nil
}

// TranscribeSamples computes the log-mel spectrogram of 16 kHz mono
// samples and transcribes it.
func (t *Transcriber) TranscribeSamples(ctx context.Context, samples []float32, p Params) (*Result, error) {
	mel, err := LogMel(ctx, samples, t.m.Filters, t.pool.Threads())
	if err != nil {
		return nil, err
	}
	return t.Transcribe(ctx, mel, p)
}

// Transcribe decodes the spectrogram mel window by window with whisper.cpp's
// rules and returns the segments. With the same model file, audio and
// parameters it gives whisper.cpp's tokens (see the package
// documentation for how closely, and what differs).
func (t *Transcriber) Transcribe(ctx context.Context, mel *Mel, p Params) (*Result, error) {
	tk := t.tk
	h := t.m.Hparams
	res := &Result{}

	if tk.Multilingual() && (p.Language == "" || p.Language == "auto") {
		lang, _, err := t.DetectLanguage(ctx, mel, 0)
		if err != nil {
			return nil, err
		}
		p.Language = lang
	}
	if p.Language == "" || p.Language == "auto" {
		p.Language = "en"
	}
	res.Language = p.Language

	seekStart := p.OffsetMS / 10
	seekEnd := mel.NLenAudio
	if p.DurationMS != 0 {
		seekEnd = seekStart + p.DurationMS/10
	}
	if seekEnd < seekStart+deltaMin {
		return res, nil // less than 100 ms: nothing to do
	}

	var temps []float32
	if p.TemperatureInc > 0 {
		for tc := p.Temperature; tc < 1+1e-6; tc += p.TemperatureInc {
			temps = append(temps, tc)
		}
	} else {
		temps = []float32{p.Temperature}
	}

	nDec := 1
	switch p.Strategy {
	case Greedy:
		nDec = p.BestOf
	case BeamSearch:
		nDec = max(p.BestOf, p.BeamSize)
	}
	nDec = max(1, nDec)
	const maxDecoders = 8 // WHISPER_MAX_DECODERS
	if nDec > maxDecoders {
		return nil, fmt.Errorf("whisper: %d decoders requested (at most %d)", nDec, maxDecoders)
	}
	t.ensureSlots(nDec)
	t.slots[0].rng = newMT19937(0) // whisper.cpp seeds decoder 0 with 0 when it makes its state
	for j := 1; j < nDec; j++ {
		t.slots[j].rng = newMT19937(uint32(j))
	}

	maxPromptCtx := min(p.MaxTextCtx, h.NTextCtx/2)
	past1 := slices.Clone(p.Prompt) // previous text (whisper.cpp's prompt_past1)

	promptInit := []int{tk.SOT}
	if tk.Multilingual() {
		lt, err := tk.Lang(p.Language)
		if err != nil {
			return nil, err
		}
		promptInit = append(promptInit, lt)
		if p.Translate {
			promptInit = append(promptInit, tk.Translate)
		} else {
			promptInit = append(promptInit, tk.Transcribe)
		}
	}
	if h.NTextLayer == 2 && h.NVocab != 51866 { // first distilled models
		p.NoTimestamps = true
	}
	if p.NoTimestamps {
		promptInit = append(promptInit, tk.NoTimestamps)
	}

	nMax := h.NTextCtx/2 - 4
	seek := seekStart
	prompt := make([]int, 0, h.NTextCtx)
	type candidate struct {
		dec, seekDelta int
		hasTS          bool
		seq            sequence
	}
	var cands []candidate

	for seek+deltaMin < seekEnd {
		if err := t.window(ctx, mel, seek); err != nil {
			return nil, err
		}
		if seek > seekStart && seek+500 >= seekEnd {
			past1 = past1[:0]
		}
		best := 0
		var noSpeech float32
		for it, tc := range temps {
			nCur := 1
			if tc > 0 {
				nCur = p.BestOf
			} else if p.Strategy == BeamSearch {
				nCur = p.BeamSize
			}
			nCur = max(1, nCur)
			for _, s := range t.slots[:nCur] {
				s.seq = sequence{tokens: s.seq.tokens[:0], sumLogprobs: math.Inf(-1), avgLogprobs: math.Inf(-1), score: math.Inf(-1)}
				s.seekDelta = 100 * chunkSeconds
				s.failed, s.completed, s.hasTS = false, false, false
			}

			prompt = prompt[:0]
			if p.MaxTextCtx > 0 && tc < 0.5 && maxPromptCtx > 0 && len(past1) > 0 {
				prompt = append(prompt, tk.Prev)
				n1 := min(maxPromptCtx-1, len(past1))
				prompt = append(prompt, past1[len(past1)-n1:]...)
			}
			prompt = append(prompt, promptInit...)

			s0 := t.slots[0]
			s0.st.Reset()
			for i, tok := range prompt {
				if err := s0.st.Step(t.pool, t.audio, tok, i == len(prompt)-1); err != nil {
					return nil, err
				}
			}
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("whisper: transcribe: %w", err)
			}
			// P(<|nospeech|>) before any filtering.
			computeLogprobs(s0.st.Logits, s0.logprobs)
			noSpeech = float32(math.Exp(float64(s0.logprobs[tk.NoSpeech])))
			t.processLogits(s0, s0.st.Logits, &p, tc, seek)
			for _, s := range t.slots[1:nCur] {
				s.st.CopyFrom(s0.st)
				copy(s.probs, s0.probs)
				copy(s.logits, s0.logits)
				copy(s.logprobs, s0.logprobs)
			}

			for i := range nMax {
				// Sampling.
				cands = cands[:0]
				for j, s := range t.slots[:nCur] {
					if s.completed || s.failed {
						continue
					}
					switch {
					case p.Strategy == BeamSearch:
						for range p.BeamSize {
							td := t.sample(s, false, true)
							c := candidate{dec: j, seekDelta: s.seekDelta, hasTS: s.hasTS, seq: s.seq.clone()}
							c.seq.tokens = append(c.seq.tokens, td)
							c.seq.sumLogprobsAll += float64(td.PLog)
							cands = append(cands, c)
						}
					default:
						if j == 0 && t.trace != nil {
							t.trace(seek, i, s)
						}
						td := t.sample(s, tc < 1e-6, false)
						s.seq.tokens = append(s.seq.tokens, td)
						s.seq.sumLogprobsAll += float64(td.PLog)
					}
				}
				if p.Strategy == BeamSearch {
					sort.SliceStable(cands, func(a, b int) bool {
						if cands[a].seq.sumLogprobsAll != cands[b].seq.sumLogprobsAll {
							return cands[a].seq.sumLogprobsAll > cands[b].seq.sumLogprobsAll
						}
						return cands[a].dec < cands[b].dec
					})
					cur := 0
					from := make([]int, nCur)
					for j, s := range t.slots[:nCur] {
						from[j] = -1
						if s.completed || s.failed {
							continue
						}
						if cur >= len(cands) {
							cur = 0
						}
						c := &cands[cur]
						cur++
						for len(cands) > cur && tokensEqual(cands[cur].seq.tokens, c.seq.tokens) && i > 0 {
							cur++
						}
						s.seekDelta, s.hasTS, s.seq = c.seekDelta, c.hasTS, c.seq.clone()
						from[j] = c.dec
					}
					for j, f := range from {
						if f >= 0 {
							t.spares[j].CopyFrom(t.slots[f].st)
						}
					}
					for j, f := range from {
						if f >= 0 {
							t.slots[j].st, t.spares[j] = t.spares[j], t.slots[j].st
						}
					}
				}

				// Completion, failure and the window's end.
				for _, s := range t.slots[:nCur] {
					if s.completed || s.failed {
						continue
					}
					tok := s.seq.tokens[len(s.seq.tokens)-1]
					if tok.ID > tk.Beg {
						newDelta := 2 * (tok.ID - tk.Beg)
						if s.hasTS && s.seekDelta > newDelta && s.seq.resultLen < i {
							s.failed = true
							continue
						}
						s.seekDelta = newDelta
						s.seq.resultLen = i + 1
						s.hasTS = true
					}
					if tok.ID == tk.EOT || (p.MaxTokens > 0 && i >= p.MaxTokens) || (s.hasTS && seek+s.seekDelta+deltaMin >= seekEnd) {
						if s.seq.resultLen == 0 && !p.NoTimestamps {
							if seek+s.seekDelta+deltaMin >= seekEnd {
								s.seq.resultLen = i + 1
							} else {
								s.failed = true
								continue
							}
						}
						if p.SingleSegment || p.NoTimestamps {
							s.seq.resultLen = i + 1
							s.seekDelta = 100 * chunkSeconds
						}
						s.completed = true
						continue
					}
					if i == nMax-1 && (s.seq.resultLen == 0 || s.seekDelta < 100*chunkSeconds/2) {
						s.failed = true // a repetition loop
					}
				}
				done := true
				for _, s := range t.slots[:nCur] {
					if !s.completed && !s.failed {
						done = false
					}
				}
				if done {
					break
				}

				// The next logits.
				if err := ctx.Err(); err != nil {
					return nil, fmt.Errorf("whisper: transcribe: %w", err)
				}
				for _, s := range t.slots[:nCur] {
					if s.completed || s.failed {
						continue
					}
					last := s.seq.tokens[len(s.seq.tokens)-1].ID
					if err := s.st.Step(t.pool, t.audio, last, true); err != nil {
						return nil, err
					}
					t.processLogits(s, s.st.Logits, &p, tc, seek)
				}
			}

			// Rank the results.
			bestScore := math.Inf(-1)
			for j, s := range t.slots[:nCur] {
				if s.failed {
					continue
				}
				s.seq.tokens = s.seq.tokens[:s.seq.resultLen]
				s.seq.scoreSeq(p.LengthPenalty)
				if s.seq.resultLen > 32 && s.seq.entropy < float64(p.EntropyThold) {
					s.failed = true
					continue
				}
				if bestScore < s.seq.score {
					bestScore, best = s.seq.score, j
				}
			}
			if it != len(temps)-1 {
				b := t.slots[best]
				if b.failed || (b.seq.avgLogprobs < float64(p.LogprobThold) && noSpeech < p.NoSpeechThold) {
					continue // fall back to the next temperature
				}
			}
			break
		}

		// Segments of the best result.
		b := t.slots[best]
		seekDelta := b.seekDelta
		resultLen := b.seq.resultLen
		toks := b.seq.tokens
		isNoSpeech := noSpeech > p.NoSpeechThold && b.seq.avgLogprobs < float64(p.LogprobThold)

		// The next window's previous text: this window's prompt text and
		// its result.
		past1 = past1[:0]
		if len(prompt) > 0 && prompt[0] == tk.Prev {
			past1 = append(past1, prompt[1:len(prompt)-len(promptInit)]...)
		}
		if !isNoSpeech {
			for _, td := range toks[:resultLen] {
				past1 = append(past1, td.ID)
			}
		}

		if len(toks) > 0 && !isNoSpeech {
			i0 := 0
			t0 := int64(seek + 2*(toks[0].TID-tk.Beg))
			var text []byte
			for i := 0; i < len(toks); i++ {
				if toks[i].ID < tk.EOT {
					text = append(text, t.tok.vocab[toks[i].ID]...)
				}
				if toks[i].ID > tk.Beg && !p.SingleSegment {
					t1 := int64(seek + 2*(toks[i].TID-tk.Beg))
					if len(text) > 0 {
						res.Segments = append(res.Segments, Segment{T0: t0, T1: t1, Text: string(text),
							Tokens: slices.Clone(toks[i0 : i+1]), NoSpeechProb: noSpeech})
					}
					text = text[:0]
					t0 = t1
					for i+1 < len(toks) && toks[i+1].ID > tk.Beg {
						i++
						t0 = int64(seek + 2*(toks[i].TID-tk.Beg))
					}
					i0 = i + 1
				}
			}
			if len(text) > 0 {
				res.Segments = append(res.Segments, Segment{T0: t0, T1: int64(seek + seekDelta), Text: string(text),
					Tokens: slices.Clone(toks[i0:]), NoSpeechProb: noSpeech})
			}
		}

		maxTokensEnding := p.MaxTokens > 0 && !p.SingleSegment && len(toks) > p.MaxTokens
		if len(toks) > 1 && !maxTokensEnding && toks[len(toks)-2].ID < tk.Beg && toks[len(toks)-1].ID > tk.Beg {
			seekDelta = min(seekEnd-seek, chunkSeconds*100) // a single timestamp ending: skip the window
		}
		seek += seekDelta
	}
	return res, nil
}

// ensureSlots makes n decoder slots (and spare states for beam search).
func (t *Transcriber) ensureSlots(n int) {
	nv := t.m.Hparams.NVocab
	for len(t.slots) < n {
		t.slots = append(t.slots, &slot{
			st:     t.dec.NewState(),
			logits: make([]float32, nv), logprobs: make([]float32, nv), probs: make([]float32, nv),
			seq: sequence{tokens: make([]TokenData, 0, t.m.Hparams.NTextCtx)},
		})
		t.spares = append(t.spares, t.dec.NewState())
	}
	if len(t.cum) < nv {
		t.cum = make([]float64, nv)
	}
}

func tokensEqual(a, b []TokenData) bool {
	if len(a) != len(b) {
		return false
	}
	for i := len(a) - 1; i >= 0; i-- {
		if a[i].ID != b[i].ID {
			return false
		}
	}
	return true
}

var negInf = float32(math.Inf(-1))

// computeLogprobs sets lp to the log-softmax of logits (−∞ stays −∞),
// in float32 as whisper.cpp computes it.
func computeLogprobs(logits, lp []float32) {
	mx := negInf
	for _, v := range logits {
		mx = max(mx, v)
	}
	var sum float32
	for _, v := range logits {
		if v > negInf {
			sum += float32(math.Exp(float64(v - mx)))
		}
	}
	lse := float32(math.Log(float64(sum))) + mx
	for i, v := range logits {
		if v > negInf {
			lp[i] = v - lse
		} else {
			lp[i] = negInf
		}
	}
}

// processLogits applies whisper.cpp's token rules to raw logits for slot s
// at temperature tc and fills s.logits, s.logprobs and s.probs.
func (t *Transcriber) processLogits(s *slot, raw []float32, p *Params, tc float32, seek int) {
	tk := t.tk
	nv := len(raw)
	logits := s.logits
	copy(logits, raw)
	if tc > 0 {
		for i := range logits {
			logits[i] /= tc
		}
	}
	toks := s.seq.tokens
	fill := func(from, to int) {
		for i := max(from, 0); i < min(to, nv); i++ {
			logits[i] = negInf
		}
	}
	if p.SuppressBlank && len(toks) == 0 {
		logits[tk.EOT] = negInf
		if t.space >= 0 {
			logits[t.space] = negInf
		}
	}
	logits[tk.NoTimestamps] = negInf
	if p.NoTimestamps {
		fill(tk.Beg, nv)
	}
	if !p.NoTimestamps && !p.SingleSegment && p.MaxTokens > 0 && len(toks) >= p.MaxTokens {
		fill(0, tk.EOT)
	}
	logits[tk.SOT] = negInf
	logits[tk.NoSpeech] = negInf
	logits[tk.SOLM] = negInf
	logits[tk.Translate] = negInf
	logits[tk.Transcribe] = negInf
	logits[tk.Prev] = negInf
	fill(tk.SOT+1, tk.SOT+1+len(Languages)) // whisper.cpp's 100 language codes, on every model
	if p.LogitFilter != nil {
		p.LogitFilter(toks, logits)
	}

	// Timestamps come in pairs, except right before <|endoftext|>.
	if n := len(toks); n > 0 && toks[n-1].ID >= tk.Beg {
		if n < 2 || toks[n-2].ID >= tk.Beg {
			fill(tk.Beg, nv)
		} else {
			fill(0, tk.EOT)
		}
	}
	// The first timestamp is at most MaxInitialTS.
	if len(toks) == 0 && p.MaxInitialTS > 0 {
		precision := float32(chunkSeconds) / float32(t.m.Hparams.NAudioCtx)
		tid0 := int(math.Round(float64(p.MaxInitialTS / precision)))
		fill(tk.Beg+tid0+1, nv)
	}
	// Timestamps do not go back.
	if s.hasTS {
		fill(tk.Beg, tk.Beg+s.seekDelta/2)
	}

	lp := s.logprobs
	computeLogprobs(logits, lp)
	// When the timestamps together are more probable than any text
	// token, the next token is a timestamp.
	tsLogprob := negInf
	{
		mx := negInf
		for _, v := range lp[tk.Beg:] {
			mx = max(mx, v)
		}
		var sum float32
		for _, v := range lp[tk.Beg:] {
			if v > negInf {
				sum += float32(math.Exp(float64(v - mx)))
			}
		}
		if sum > 0 {
			tsLogprob = float32(math.Log(float64(sum))) + mx
		}
	}
	maxText := negInf
	for _, v := range lp[:tk.Beg] {
		maxText = max(maxText, v)
	}
	s.tsMargin = tsLogprob - maxText
	if tsLogprob > maxText {
		for i := range tk.Beg {
			logits[i] = negInf
			lp[i] = negInf
		}
	}
	for i, v := range logits {
		if v == negInf {
			s.probs[i] = 0
		} else {
			s.probs[i] = float32(math.Exp(float64(lp[i])))
		}
	}
}

// sample picks the next token of s: the most probable one when best,
// otherwise a draw from its distribution. TID is the most probable
// timestamp; when no timestamp has a probability above 0 (timestamps
// suppressed) it is 0 for greedy decoding (whisper_sample_token) and
// <|0.00|> for beam search's draws (beam true, as
// whisper_sample_token_topk starts from token_beg), which makes a
// segment without timestamps start at the window's start.
func (t *Transcriber) sample(s *slot, best, beam bool) TokenData {
	tk := t.tk
	r := TokenData{}
	if beam {
		r.TID = tk.Beg
	}
	var sumTS, maxTS float64
	for i := tk.Beg; i < len(s.probs); i++ {
		p := float64(s.probs[i])
		sumTS += p
		if maxTS < p {
			maxTS = p
			r.TID = i
		}
	}
	r.PT = float32(maxTS / (sumTS + 1e-10))
	r.PTSum = float32(sumTS)
	if best {
		for i, p := range s.probs {
			if r.P < p {
				r.ID, r.P, r.PLog = i, p, s.logprobs[i]
			}
		}
	} else {
		r.ID = s.rng.discrete(s.probs, t.cum)
		r.P, r.PLog = s.probs[r.ID], s.logprobs[r.ID]
	}
	if r.ID >= tk.Beg {
		r.TID, r.PT = r.ID, r.P
	}
	return r
}

// scoreSeq sets the sums, mean, length-penalized score and the entropy of
// the last 32 tokens of the first resultLen tokens.
func (q *sequence) scoreSeq(lengthPenalty float32) {
	if q.resultLen == 0 {
		return
	}
	var sum float64
	for _, td := range q.tokens[:q.resultLen] {
		sum += float64(td.PLog)
	}
	q.sumLogprobs = sum
	q.avgLogprobs = sum / float64(q.resultLen)
	penalty := float64(q.resultLen)
	if lengthPenalty > 0 {
		penalty = math.Pow((5+penalty)/6, float64(lengthPenalty))
	}
	q.score = sum / penalty

	const n = 32
	start := max(0, q.resultLen-n)
	ids := make([]int, 0, n)
	for _, td := range q.tokens[start:q.resultLen] {
		ids = append(ids, td.ID)
	}
	slices.Sort(ids)
	var entropy float64
	cnt := float64(len(ids))
	for i := 0; i < len(ids); {
		j := i
		for j < len(ids) && ids[j] == ids[i] {
			j++
		}
		pr := float64(j-i) / cnt
		entropy -= pr * math.Log(pr)
		i = j
	}
	q.entropy = entropy
}
