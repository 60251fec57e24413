package align

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/internal/sphinx"
)

// The streaming search path: long audio is aligned in anchored chunks, so
// the memory of the search and of the features is bounded by one window
// whatever the length of the audio.
//
// Each chunk aligns the next words — as many as the local speaking rate
// predicts for a share (fills[0]) of one window — to one window of audio
// starting at the last anchor. The search must end with the chunk's last
// word, so the audio after it (the speech of the next words) is absorbed
// by the final silence and the last words; too many words would instead
// be squeezed, which the beam does not survive, hence the fill below one.
// The end of a chunk is unreliable either way, so only the words ending in
// the first half of the window are kept, up to the last one that is not
// among the chunk's last anchorTailWords, is confidently aligned
// (goodness-of-pronunciation score at least anchorMinScore) and is not
// stretched (at most maxPhoneMillis per phone of its shortest
// pronunciation): that word's end is the anchor where the next chunk
// starts, with the next word.
//
// A chunk can also lose its words without failing: when the standard beam
// drops the right path, the words lag behind the speech, the final
// silence and the last words absorb the difference, and the anchor lands
// seconds late — on audio that repeats its content, a whole repetition
// late, which the following chunks then fit. Such a chunk's kept words
// are poorly matched, so a chunk whose kept words have a median
// confidence below anchorMinMedian times the mean of the accepted chunks'
// medians is searched again with the extended beam (extendedFactor times
// wider) over the same window, and that result is kept — when the request
// allows the extended search (effort auto, which then reports extended
// and retried); a standard request keeps its beam and fails as before.
//
// A chunk that finds no path or no anchor is retried with fewer words (the
// next fills), then with a window twice as long, up to maxWindowGrowth
// times the standard one, where the last word of the kept half anchors
// even without confidence. The last chunk aligns all remaining words to
// all remaining audio; so does a chunk that finds no path at its widest
// window (a long stretch without speech, which the initial silence of a
// chunk does not survive but a whole-audio search does), at the cost of
// that stretch's features held at once.

const (
	// anchorMinScore is the smallest word confidence an anchor may have.
	anchorMinScore = 0.2
	// anchorTailWords are the last words of a chunk never used as anchors.
	anchorTailWords = 2
	// maxPhoneMillis bounds the mean phone duration (ms) of an anchor
	// word: a longer word has swallowed a pause or other speech.
	maxPhoneMillis = 400
	// anchorMinMedian is the smallest median confidence of a chunk's kept
	// words, as a share of the mean over the chunks accepted before, that
	// the standard beam's result may have (measured on the evaluation's
	// long file: 0.42–0.72 for chunks on their words, 0.10–0.25 for chunks
	// that had slipped, against a mean of 0.57).
	anchorMinMedian = 0.6
	// maxWindowGrowth bounds how far a failing chunk's window may grow.
	maxWindowGrowth = 4
)

// fills are the shares of a window a chunk's words are expected to cover,
// tried in turn when a chunk fails.
var fills = []float64{0.7, 0.5, 0.35}

// streaming aligns the job's words to its audio in anchored chunks.
func (j *searchJob) streaming(ctx context.Context, p searchParams) (*searchOut, *searchFailure, error) {
	rate := j.m.Params.FrameRate
	if rate <= 0 {
		rate = 100
	}
	shift := sotto.SampleRate / rate
	total := len(j.samples) / shift
	phones := make([]int, len(j.labels))
	allPhones := 0
	for i, w := range j.labels {
		phones[i] = math.MaxInt
		for _, pr := range j.m.Dict.Lookup(w) {
			phones[i] = min(phones[i], len(pr))
		}
		if phones[i] == math.MaxInt {
			phones[i] = 1
		}
		allPhones += phones[i]
	}
	prior := float64(total) / float64(max(allPhones, 1)) // frames per phone
	regions, err := j.cepMean(ctx)
	if err != nil {
		return nil, nil, err
	}
	out := &searchOut{frameRate: rate, frames: total}
	fail := func(reason, detail string) *searchFailure {
		f := &searchFailure{Failure{Reason: reason, SearchEffortUsed: p.effort, SearchPath: PathStreaming, SearchLimit: LimitStreaming}, detail}
		if p.effort == EffortStandard {
			f.RetryRecommended = true
			j.estimate(&f.Failure, j.last)
		}
		return f
	}
	s, i, done := 0, 0, 0 // frame, word and phones consumed
	window, try := p.chunkFrames, 0
	// rest is set when a chunk could not be anchored at its widest window:
	// the remaining words are then aligned to the remaining audio in one
	// search, as on the whole-audio path.
	rest := false
	// confSum and confN give the mean over the accepted chunks of their
	// kept words' median confidence.
	confSum, confN := 0.0, 0
	// wide is set when the current chunk is searched with the extended
	// beam, after a poorly matched result; it stays for the chunk's
	// further retries.
	wide := false
	// retry moves to the next fill, then to a longer window; it reports
	// false when the chunk cannot be widened further.
	retry := func() bool {
		out.retries++
		if try+1 < len(fills) {
			try++
			return true
		}
		if window < maxWindowGrowth*p.chunkFrames {
			try, window = 0, window*2
			return true
		}
		return false
	}
	for i < len(j.labels) {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		j.progress(float64(s) / float64(max(total, 1)))
		// Words expected in one window at the local rate.
		fpp := prior
		if done > 0 && s > 0 {
			fpp = 0.5*prior + 0.5*float64(s)/float64(done)
		}
		k, acc := i, 0.0
		for k < len(j.labels) && acc < fills[try]*float64(window) {
			acc += float64(phones[k]) * fpp
			k++
		}
		final := rest || total-s <= window*3/2 || k == len(j.labels)
		end := s + window
		if final {
			k, end = len(j.labels), total
			if end <= s {
				return nil, fail(ReasonNoPath, fmt.Sprintf("the audio ends at %.2f s before words %d to %d", float64(s)/float64(rate), i, len(j.labels))), nil
			}
		}
		seg := j.samples[s*shift : min(len(j.samples), end*shift)]
		if final {
			seg = j.samples[s*shift:]
		}
		feats, n, err := j.chunkFeatures(ctx, seg, s, regions)
		if err != nil {
			return nil, nil, err
		}
		out.chunks++
		var res *sphinx.Alignment
		var st sphinx.AlignStats
		if f := j.tooShort(i, k, n, p); f == nil {
			dim := len(feats) / max(n, 1)
			so := p.sphinx()
			if wide {
				so.Beam *= extendedFactor
			}
			res, st, err = j.m.AlignFrames(ctx, func(t int) []float32 { return feats[t*dim : (t+1)*dim] }, n, j.labels[i:k], so)
		} else {
			err = alignFailed(f.detail)
		}
		out.stats.States = max(out.stats.States, st.States)
		out.stats.Nodes = max(out.stats.Nodes, st.Nodes)
		out.stats.MaxActive = max(out.stats.MaxActive, st.MaxActive)
		out.stats.PeakBackpointers = max(out.stats.PeakBackpointers, st.PeakBackpointers)
		out.stats.SenoneEvaluations += st.SenoneEvaluations
		if err != nil {
			if nilIfClassified(err) != nil {
				return nil, nil, err
			}
			j.last = st
			if !final && retry() {
				continue
			}
			if !final {
				rest = true
				continue
			}
			return nil, fail(ReasonNoPath, fmt.Sprintf("no path for words %d to %d from %.2f s: %v", i, k, float64(s)/float64(rate), err)), nil
		}
		if final {
			scores := j.l.score(ctx, res, feats, n, n, nil)
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
			for _, w := range wordsOf(res, scores, 0, len(res.Words)) {
				out.words = append(out.words, shiftWord(w, s, i))
			}
			break
		}
		keep := n / 2
		scores := j.l.score(ctx, res, feats, n, keep, nil)
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		anchor, fallback := -1, -1
		tail := 0
		for a := len(res.Words) - 1; a >= 0 && anchor < 0; a-- {
			w := res.Words[a]
			if w.Parent < 0 {
				continue
			}
			if tail < anchorTailWords {
				tail++
				continue
			}
			if w.End > keep {
				continue
			}
			if fallback < 0 {
				fallback = a
			}
			if scores[a] >= anchorMinScore && w.End-w.Start <= phones[i+w.Parent]*maxPhoneMillis*rate/1000 {
				anchor = a
			}
		}
		var med float64
		if anchor >= 0 {
			med = keptMedian(res, scores, anchor)
			if confN > 0 && med < anchorMinMedian*confSum/float64(confN) && !wide && j.widen && p.effort == EffortStandard {
				wide = true
				out.retries++
				if out.widened == 0 && j.report != nil {
					j.report(Progress{Stage: "extended_search"})
				}
				out.widened++
				continue
			}
		}
		if anchor < 0 {
			if retry() {
				continue
			}
			// At the widest window, the last word in the kept half
			// anchors even without confidence (speech the transcript
			// does not match); without one, the rest is one search.
			anchor = fallback
		}
		if anchor < 0 {
			rest = true
			continue
		}
		for _, w := range wordsOf(res, scores, 0, anchor+1) {
			out.words = append(out.words, shiftWord(w, s, i))
			if w.parent >= 0 {
				done += w.phones
			}
		}
		if med > 0 {
			confSum += med
			confN++
		}
		s += res.Words[anchor].End
		i += res.Words[anchor].Parent + 1
		window, try, wide = p.chunkFrames, 0, false
	}
	j.progress(1)
	if f := collapsed(out, p, PathStreaming); f != nil {
		return nil, f, nil
	}
	return out, nil, nil
}

// keptMedian returns the median confidence of the words of res up to and
// including the anchor a.
func keptMedian(res *sphinx.Alignment, scores []float64, a int) float64 {
	var sc []float64
	for k := 0; k <= a; k++ {
		if res.Words[k].Parent >= 0 {
			sc = append(sc, scores[k])
		}
	}
	if len(sc) == 0 {
		return 0
	}
	slices.Sort(sc)
	return sc[len(sc)/2]
}

// shiftWord moves a chunk's word to the frames and token indices of the
// whole audio.
func shiftWord(w alignedWord, frame0, word0 int) alignedWord {
	w.start += frame0
	w.end += frame0
	if w.parent >= 0 {
		w.parent += word0
	}
	return w
}

// alignFailed is an engine-style "no_path" failure for a chunk that cannot
// hold its words.
func alignFailed(detail string) error {
	e := sotto.Unsatisfiable("alignment_failed", "", "align: %s", detail)
	e.Detail = map[string]any{"reason": ReasonNoPath}
	return e
}

// cepMean returns the cepstral-mean regions of the whole audio for a model
// with batch CMN (nil otherwise, or when the audio has no speech frame),
// computed block by block so that memory stays bounded: the statistics
// kept are a few values per quarter second (sphinx.CMNStats), and regions
// split where the long-term mean shifts (audio joined from different
// rooms or microphones), as the whole-audio features are. Subtracting the
// region's mean from each frame of a chunk gives the chunks the features
// the whole-audio search sees; a chunk's own mean would be skewed by
// whatever the chunk holds (a long pause, music).
func (j *searchJob) cepMean(ctx context.Context) ([]sphinx.CMNRegion, error) {
	if j.m.Params.CMN != "batch" {
		return nil, nil
	}
	nc := j.m.Params.NCep
	stats := sphinx.NewCMNStats(nc)
	const block = 60 * sotto.SampleRate
	shift := j.shift()
	for off := 0; off < len(j.samples); off += block {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fe, err := sphinx.NewFrontend(j.m.Params)
		if err != nil {
			return nil, err
		}
		cep, err := fe.Cepstra(ctx, j.samples[off:min(off+block, len(j.samples))])
		if err != nil {
			return nil, err
		}
		stats.AddAt(off/shift, cep)
	}
	regions := stats.Regions()
	if len(regions) == 1 && regions[0].Mean == nil {
		return nil, nil
	}
	return regions, nil
}

// shift is the frame shift in samples.
func (j *searchJob) shift() int {
	rate := j.m.Params.FrameRate
	if rate <= 0 {
		rate = 100
	}
	return sotto.SampleRate / rate
}

// chunkFeatures computes the features of one chunk starting at frame
// frame0 of the audio, each frame normalised with the mean of its region
// when there are regions.
func (j *searchJob) chunkFeatures(ctx context.Context, seg []float32, frame0 int, regions []sphinx.CMNRegion) ([]float32, int, error) {
	if regions == nil {
		return j.m.Features(ctx, seg)
	}
	fe, err := sphinx.NewFrontend(j.m.Params)
	if err != nil {
		return nil, 0, err
	}
	cep, err := fe.Cepstra(ctx, seg)
	if err != nil {
		return nil, 0, err
	}
	nc := j.m.Params.NCep
	r := 0
	for t := 0; t+nc <= len(cep); t += nc {
		f := frame0 + t/nc
		for r+1 < len(regions) && f >= regions[r].End {
			r++
		}
		mean := regions[r].Mean
		if mean == nil {
			continue
		}
		for i := range nc {
			cep[t+i] -= float32(mean[i])
		}
	}
	return sphinx.Features(cep, nc), len(cep) / nc, nil
}
