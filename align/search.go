package align

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/internal/sphinx"
)

// The search layer of the "go" driver: the parameters of each search
// effort, the whole-audio search, the classification of failed searches
// and the memory estimate of a wider search.

// knobs are the unexported tuning points of a lattice backend; the zero
// value is the production setting. Tests narrow or shrink them.
type knobs struct {
	// standardBeam replaces the standard beam (nats) when > 0.
	standardBeam float64
	// budget replaces the spare memory (bytes) of the extended-search
	// check when > 0; graphBudget that of the graph-size check.
	budget, graphBudget int64
	// streamSeconds replaces defaultStreamSeconds when > 0.
	streamSeconds float64
	// chunkSeconds replaces the standard streaming window when > 0.
	chunkSeconds float64
	// observe, when set, sees every successful search.
	observe func(path string, out *searchOut)
}

// defaultStreamSeconds is the audio length above which the streaming path
// (anchored chunks) is used. Below it, the whole-audio search is both
// faster and at least as exact; see docs/bench/align-search.md.
const defaultStreamSeconds = 15 * 60

func (k knobs) streamAbove() float64 {
	if k.streamSeconds > 0 {
		return k.streamSeconds
	}
	return defaultStreamSeconds
}

// searchParams are the settings of one search attempt.
type searchParams struct {
	effort string
	// beam is the Viterbi beam in nats.
	beam float64
	// silencePenalty is the log probability (nats, < 0) of each optional
	// silence; a smaller magnitude lets the search place pauses (and
	// absorb noise) more freely.
	silencePenalty float64
	// chunkFrames is the window of one streaming chunk, in frames.
	chunkFrames int
}

// extendedFactor is how much wider the extended search is: its beam and
// its streaming window are this many times the standard ones.
const extendedFactor = 3

// garbagePenalty is the log probability (nats) charged per 10 ms frame of
// audio that the garbage loop (sphinx.AlignOptions.Garbage) takes at
// either end of the whole-audio search. See docs/bench/align.md,
// "Transcripts of part of the audio".
const garbagePenalty = -4

// silencePenalty is the log probability (nats) of each optional pause the
// standard search inserts between words. The engine's default,
// sphinx.DefaultSilencePenalty (-34.4), is the peer decoder's silence
// probability scaled by its language weight, a decoding setting. Against
// reference word timings (the MFA TextGrids and pocketsphinx's own
// alignments, docs/bench/align.md), every penalty from -30 to -22.5
// placed at least as many boundaries within 50 ms as -34.4 on every
// file, and -25 the most: short pauses (40-200 ms) between words become
// silence instead of stretching a neighbouring phone over them. Cheaper
// pauses (-15 and above) moved boundaries of the pocketsphinx
// references. The extended search keeps half the engine's default: it is
// the fallback for audio the standard beam loses, and was not re-measured.
const silencePenalty = -25

func (k knobs) params(effort string) searchParams {
	beam := float64(sphinx.DefaultBeam)
	if k.standardBeam > 0 {
		beam = k.standardBeam
	}
	chunk := 60.0
	if k.chunkSeconds > 0 {
		chunk = k.chunkSeconds
	}
	p := searchParams{effort: effort, beam: beam, silencePenalty: silencePenalty, chunkFrames: int(chunk * 100)}
	if effort == EffortExtended {
		p.beam = extendedFactor * float64(sphinx.DefaultBeam)
		p.silencePenalty = sphinx.DefaultSilencePenalty / 2
		p.chunkFrames *= 2
	}
	return p
}

func (p searchParams) sphinx() sphinx.AlignOptions {
	return sphinx.AlignOptions{Beam: p.beam, SilencePenalty: p.silencePenalty}
}

// alignedWord is one word (or inserted silence, parent -1) of a search
// result, in frames of the searched audio.
type alignedWord struct {
	parent     int // token index, or -1 for silence
	start, end int // frames, end exclusive
	phones     int // phones of the pronunciation used
	score      float64
}

// searchOut is the result of a successful search.
type searchOut struct {
	words     []alignedWord
	frames    int
	frameRate int
	stats     sphinx.AlignStats // summed over chunks on the streaming path
	// chunks and retries count the searches of the streaming path and
	// those that were repeated with fewer words, a longer window or the
	// extended beam; widened counts the chunks searched again with the
	// extended beam (only when the request allows it: effort auto).
	chunks, retries, widened int
}

// searchJob is one alignment request's search: the per-request model and
// labels, the samples and the cached features of the whole-audio path.
type searchJob struct {
	l       *lattice
	m       *sphinx.Model
	labels  []string
	samples []float32
	path    string
	report  func(Progress)
	// widen lets the streaming path search a poorly matched chunk again
	// with the extended beam (effort auto): a local form of auto's retry.
	widen bool
	// garbage lets the whole-audio search begin and end in the engine's
	// garbage loop (Options.StrictEnds false).
	garbage bool

	feats []float32 // whole-audio features, computed once
	n     int
	// bestCI is the best CI senone score of every frame of feats (the
	// garbage model, and the confidences' denominator), computed once
	// when the garbage loop is on.
	bestCI []float32
	// last is the statistics of the last failed attempt.
	last sphinx.AlignStats
}

func (j *searchJob) seconds() float64 { return float64(len(j.samples)) / sotto.SampleRate }

// progress reports the share f of the current search.
func (j *searchJob) progress(f float64) {
	if j.report != nil {
		f = min(max(f, 0), 1)
		j.report(Progress{Fraction: f, Seconds: f * j.seconds()})
	}
}

// run runs one search with effort on the job's path. A search that ran but
// failed returns its classification; err is for everything else
// (cancellation, bad input).
func (j *searchJob) run(ctx context.Context, effort string) (*searchOut, *searchFailure, error) {
	p := j.l.knobs.params(effort)
	j.progress(0)
	if j.path == PathStreaming {
		return j.streaming(ctx, p)
	}
	return j.wholeAudio(ctx, p)
}

// wholeAudio aligns all words to all frames in one Viterbi search.
func (j *searchJob) wholeAudio(ctx context.Context, p searchParams) (*searchOut, *searchFailure, error) {
	if j.feats == nil {
		f, n, err := j.m.Features(ctx, j.samples)
		if err != nil {
			return nil, nil, err
		}
		j.feats, j.n = f, n
	}
	n := j.n
	if f := j.tooShort(0, len(j.labels), n, p); f != nil {
		return nil, f, nil
	}
	if f := j.tooLarge(p); f != nil {
		return nil, f, nil
	}
	dim := len(j.feats) / max(n, 1)
	step := max(100, n/100)
	frame := func(t int) []float32 {
		if t%step == 0 {
			j.progress(0.05 + 0.75*float64(t)/float64(n))
		}
		return j.feats[t*dim : (t+1)*dim]
	}
	so := p.sphinx()
	if j.garbage {
		if j.bestCI == nil {
			j.bestCI = j.l.bestCI(ctx, j.feats, n, n, nil)
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		so.Garbage, so.GarbageScores = garbagePenalty, j.bestCI
	}
	res, st, err := j.m.AlignFrames(ctx, frame, n, j.labels, so)
	if so.Garbage != 0 && isNoPath(err) {
		// Paths that entered the words late from the leading loop can
		// prune every path that would have finished them: search again
		// as if the transcript covered the whole audio.
		so.Garbage = 0
		res, st, err = j.m.AlignFrames(ctx, frame, n, j.labels, so)
	}
	if err != nil {
		j.last = st
		return nil, j.classify(err, p, st), nilIfClassified(err)
	}
	j.progress(0.8)
	scores := j.l.score(ctx, res, j.feats, n, n, j.bestCI)
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	out := &searchOut{frames: n, frameRate: res.FrameRate, stats: st}
	out.words = wordsOf(res, scores, 0, len(res.Words))
	if f := collapsed(out, p, j.path); f != nil {
		return nil, f, nil
	}
	return out, nil, nil
}

// wordsOf converts res.Words[from:to] to alignedWords with their phone
// counts and scores, in res's frames and word indices.
func wordsOf(res *sphinx.Alignment, scores []float64, from, to int) []alignedWord {
	phones := make([]int, len(res.Words))
	for _, p := range res.Phones {
		if p.Parent >= 0 && p.Parent < len(phones) {
			phones[p.Parent]++
		}
	}
	out := make([]alignedWord, 0, to-from)
	for i := from; i < to; i++ {
		w := res.Words[i]
		out = append(out, alignedWord{parent: w.Parent, start: w.Start, end: w.End, phones: phones[i], score: scores[i]})
	}
	return out
}

// minPhoneFrames is the fewest frames a phone HMM can take (entry, a skip,
// exit). Skips are nearly impossible in the model (-26 nats), so the
// fewest frames a phone takes in practice is shortPhoneFrames.
const (
	minPhoneFrames   = 2
	shortPhoneFrames = 3
)

// tooShort fails the search up front when words [from,to) cannot fit into
// n frames even at minimum duration: no search can find a path then.
func (j *searchJob) tooShort(from, to, n int, p searchParams) *searchFailure {
	need := 0
	for _, w := range j.labels[from:to] {
		prons := j.m.Dict.Lookup(w)
		shortest := math.MaxInt
		for _, pr := range prons {
			shortest = min(shortest, len(pr))
		}
		if len(prons) > 0 {
			need += shortest * minPhoneFrames
		}
	}
	if need <= n {
		return nil
	}
	return &searchFailure{Failure{Reason: ReasonNoPath, SearchEffortUsed: p.effort, SearchPath: j.path, SearchLimit: LimitNone},
		fmt.Sprintf("the %d words need at least %d frames; the audio has %d", to-from, need, n)}
}

// tooLarge fails a whole-audio search whose graph alone would take more
// memory than the machine can spare (an upper bound: every pronunciation
// with all its cross-word context copies).
func (j *searchJob) tooLarge(p searchParams) *searchFailure {
	var states int64
	for _, w := range j.labels {
		for _, pr := range j.m.Dict.Lookup(w) {
			states += 3 * int64(len(pr)+10)
		}
	}
	b, ok := searchBytes(states, maxActiveAtDefaultBeam*int64(p.beam)/sphinx.DefaultBeam)
	spare := j.l.knobs.graphBudget
	if spare <= 0 {
		spare = spareMemory()
	}
	if ok && b <= spare {
		return nil
	}
	return &searchFailure{Failure{Reason: ReasonSearchIncomplete, SearchEffortUsed: p.effort, SearchPath: j.path, SearchLimit: LimitGraphSize},
		fmt.Sprintf("the graph of %d words (up to %d states) needs more memory than can be spared", len(j.labels), states)}
}

// spare returns the bytes an extended search may use.
func (j *searchJob) spare() int64 {
	if j.l.knobs.budget > 0 {
		return j.l.knobs.budget
	}
	return spareMemory()
}

func nilIfClassified(err error) error {
	var se *sotto.Error
	if errors.As(err, &se) && se.Code == "alignment_failed" {
		return nil
	}
	return err
}

// classify turns an engine failure into the spec's alignment object. A
// search that lost its path to the beam may succeed with a wider one, so
// retry is recommended after a standard search; the estimate of the extra
// memory comes from the statistics of the failed search.
func (j *searchJob) classify(err error, p searchParams, st sphinx.AlignStats) *searchFailure {
	var se *sotto.Error
	if !errors.As(err, &se) || se.Code != "alignment_failed" {
		return nil
	}
	f := &searchFailure{Failure{Reason: ReasonNoPath, SearchEffortUsed: p.effort, SearchPath: j.path, SearchLimit: LimitNone}, se.Message}
	if d, ok := se.Detail.(map[string]any); ok {
		if r, ok := d["reason"].(string); ok {
			f.Reason = r
		}
	}
	if f.Reason == ReasonNoPath {
		f.SearchLimit = LimitBudget
		if p.effort == EffortStandard {
			f.RetryRecommended = true
			j.estimate(&f.Failure, st)
		}
	}
	return f
}

// collapsed fails a result whose words were squeezed: most words at (or
// near) their minimum duration, or phones far shorter than speech allows.
// Such a path means the transcript does not match the audio (or most of
// the audio is not speech), and a wider search would only find the same.
func collapsed(out *searchOut, p searchParams, path string) *searchFailure {
	var words, squeezed, phones, frames int
	for _, w := range out.words {
		if w.parent < 0 {
			continue
		}
		words++
		phones += w.phones
		frames += w.end - w.start
		if w.end-w.start <= w.phones*shortPhoneFrames+1 {
			squeezed++
		}
	}
	if words < 3 {
		return nil
	}
	meanPhone := float64(frames) / float64(max(phones, 1))
	if 2*squeezed < words && meanPhone >= collapsedPhoneFrames {
		return nil
	}
	return &searchFailure{Failure{Reason: ReasonCollapsed, SearchEffortUsed: p.effort, SearchPath: path, SearchLimit: LimitNone},
		fmt.Sprintf("%d of %d words at minimum duration, mean phone %.1f frames", squeezed, words, meanPhone)}
}

// collapsedPhoneFrames is the mean phone duration (frames of 10 ms) below
// which an alignment is collapsed; natural speech averages 7 to 12.
const collapsedPhoneFrames = 3.5

// searchFailure is a classified failed search with a human-readable cause.
type searchFailure struct {
	Failure
	detail string
}

// message is the error message of a failure.
func (f *searchFailure) message() string {
	msg := "align: alignment failed: " + f.Reason
	if f.detail != "" {
		msg += " (" + f.detail + ")"
	}
	if f.RetryRecommended {
		msg += "; a wider search (search_effort extended or auto) may succeed"
	}
	return msg
}

// Memory model of one search, calibrated on the engine
// (docs/bench/align-search.md): the graph's score arrays take 25 bytes per
// state, the back-pointer store at least 4096 records of 34 bytes (20, ×1.5
// for slice growth, plus the collection map), and the rest grows with the
// most states alive in one frame: widening the beam from 200 to 600 nats
// allocated 1,750–1,880 more bytes per extra peak active state on three
// recordings (runtime TotalAlloc), and multiplied the peak active states
// by 1.7–3.1.
const (
	bytesPerState  = 25
	bytesPerRecord = 34
	recordsSlack   = 4096
	// bytesPerActive is the allocation per peak active state (measured
	// 1,750–1,880, rounded up).
	bytesPerActive = 2000
	// activeGrowth multiplies the standard search's peak active states
	// for the extended one (measured at most 3.05).
	activeGrowth = 3.5
	// maxActiveAtDefaultBeam bounds the active states of a standard
	// search when none was run (largest seen: 318).
	maxActiveAtDefaultBeam = 400
)

// searchBytes estimates the memory of a whole-audio search with maxActive
// states alive at most, on a graph of states states; ok is false when the
// estimate overflows.
func searchBytes(states, maxActive int64) (int64, bool) {
	maxActive = min(maxActive, states)
	b := float64(states)*bytesPerState + recordsSlack*bytesPerRecord + float64(maxActive)*bytesPerActive
	if b > math.MaxInt64/4 || math.IsNaN(b) {
		return 0, false
	}
	return int64(b), true
}

// estimate fills f.EstimatedExtraBytes: the memory the extended search
// needs beyond the standard one, from the standard search's statistics st
// (or, with st zero, the graph size). On the streaming path the wider
// window adds its features too.
func (j *searchJob) estimate(f *Failure, st sphinx.AlignStats) {
	std := j.l.knobs.params(EffortStandard)
	ext := j.l.knobs.params(EffortExtended)
	states := int64(st.States)
	switch {
	case states == 0:
		_, s, err := j.m.GraphSize(j.labels, ext.sphinx())
		if err != nil {
			return
		}
		states = int64(s)
		if j.path == PathStreaming {
			// A chunk's graph covers the words of one window only.
			frames := int64(max(len(j.samples)/160, 1))
			states = max(1, min(states, states*int64(ext.chunkFrames)/frames))
		}
	case j.path == PathStreaming:
		// The failed chunk's graph, for a window ext.chunkFrames long.
		states = states * int64(ext.chunkFrames) / int64(std.chunkFrames)
	}
	active := int64(st.MaxActive)
	if active == 0 {
		active = maxActiveAtDefaultBeam * int64(std.beam) / sphinx.DefaultBeam
	}
	extActive := int64(float64(active) * activeGrowth * ext.beam / (extendedFactor * std.beam))
	a, ok1 := searchBytes(states, active)
	b, ok2 := searchBytes(states, extActive)
	if !ok1 || !ok2 {
		f.SearchLimit, f.EstimatedExtraBytes = LimitEstimateOverflow, 0
		return
	}
	extra := b - a
	if j.path == PathStreaming {
		// Features (39 float32) and senone-score scratch of the wider window.
		extra += int64(ext.chunkFrames-std.chunkFrames) * 39 * 4
	}
	f.EstimatedExtraBytes = max(extra, 1)
}

// checkBudget refuses an extended search whose estimated extra memory
// exceeds what the machine can spare. fail is the failed standard search
// (nil when the extended search was asked for directly).
func (j *searchJob) checkBudget(fail *searchFailure) error {
	f := Failure{Reason: ReasonNoPath, SearchEffortUsed: EffortStandard, SearchPath: j.path, SearchLimit: LimitBudget}
	if fail != nil {
		f = fail.Failure
	} else {
		// Nothing ran: the extended search was refused before it began.
		f.Reason, f.SearchEffortUsed = ReasonSearchIncomplete, ""
	}
	if f.EstimatedExtraBytes == 0 {
		j.estimate(&f, j.last)
	}
	if f.SearchLimit == LimitEstimateOverflow {
		f.RetryRecommended = false
		return &sotto.Error{Kind: sotto.ErrUnsatisfiable, Code: "alignment_search_budget_exceeded",
			Message: "align: the memory of the extended search cannot be estimated (the transcript is too large); it did not run", Detail: f}
	}
	spare := j.spare()
	if f.EstimatedExtraBytes <= spare {
		return nil
	}
	f.RetryRecommended, f.SearchLimit = false, LimitBudget
	return &sotto.Error{Kind: sotto.ErrUnsatisfiable, Code: "alignment_search_budget_exceeded",
		Message: fmt.Sprintf("align: the extended search needs about %d more bytes; %d can be spared; it did not run", f.EstimatedExtraBytes, spare),
		Detail:  f}
}

// spareSafety is the share of MemAvailable a wider search may use.
const spareSafety = 0.5

// spareMemory returns the bytes a wider search may use: MemAvailable from
// /proc/meminfo times spareSafety, or 1 GiB where it cannot be read.
func spareMemory() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 1 << 30
	}
	if v, ok := memAvailable(b); ok {
		return int64(float64(v) * spareSafety)
	}
	return 1 << 30
}

// memAvailable parses the MemAvailable line of /proc/meminfo (in kB) and
// returns bytes.
func memAvailable(meminfo []byte) (int64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(meminfo))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) >= 2 && string(f[0]) == "MemAvailable:" {
			kb, err := strconv.ParseInt(string(f[1]), 10, 64)
			if err != nil || kb < 0 || kb > math.MaxInt64/1024 {
				return 0, false
			}
			return kb * 1024, true
		}
	}
	return 0, false
}

// isNoPath reports whether err is the engine's failure to find any path
// through the words (reason no_path).
func isNoPath(err error) bool {
	var se *sotto.Error
	if !errors.As(err, &se) || se.Code != "alignment_failed" {
		return false
	}
	d, ok := se.Detail.(map[string]any)
	return ok && d["reason"] == ReasonNoPath
}
