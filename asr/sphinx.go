package asr

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/decoder"
	"github.com/sottolabs/sotto/internal/lm"
	"github.com/sottolabs/sotto/internal/sphinx"
)

// Option keys of backend.Config.Options understood by the "go" driver.
const (
	// OptAcousticDir is the acoustic model directory (default: Debian's
	// /usr/share/pocketsphinx/model/en-us/en-us).
	OptAcousticDir = "acoustic_dir"
	// OptDict is the pronouncing dictionary (default: Debian's
	// cmudict-en-us.dict).
	OptDict = "dict"
	// OptLM is the language model: sphinxbase binary trie or ARPA text
	// (default: Debian's en-us.lm.bin).
	OptLM = "lm"
	// OptPasses is "1" (the tree pass), "2" (the tree pass, then the
	// flat-lexicon pass over the words it found, by default on
	// speaker-adapted features, see OptAdapt) or "3" (default: both, then
	// the word lattice of the flat pass rescored with the exact trigram,
	// see OptBestPathLW). See docs/bench/asr.md.
	OptPasses = "passes"
	// OptFlatLW is the language weight of the flat pass (default 7.5,
	// chosen on the dev recordings of docs/bench/asr.md; the peer's
	// -fwdflatlw is 8.5).
	OptFlatLW = "flat_lw"
	// OptBestPathLW is the language weight of the lattice rescoring of
	// passes 3 (default 9, chosen on the dev recordings of
	// docs/bench/asr.md by a joint sweep with OptBestPathWIP and
	// OptLM2Weight; the peer's is 9.5).
	OptBestPathLW = "bestpath_lw"
	// OptBestPathWIP is the word insertion probability of the lattice
	// rescoring (default 0.2, chosen with OptBestPathLW).
	OptBestPathWIP = "bestpath_wip"
	// OptSilProb and OptFillProb are the probabilities of a silence and
	// of a noise word in both passes (defaults 0.005 and 1e-8, the
	// peer's -silprob and -fillprob).
	OptSilProb  = "sil_prob"
	OptFillProb = "fill_prob"
	// OptConsensus is "on" (the default with passes 3) or "off": take
	// the words of the confusion network of the rescored lattice
	// (consensus decoding, fewest expected word errors) instead of its
	// best path. See docs/bench/asr.md.
	OptConsensus = "consensus"
	// OptFlatStarts is the start cluster of the flat pass, in frames
	// (default 10; 0: off, one chain per word): a word's start frames are
	// split among up to OptFlatChains copies of the word (frame t to copy
	// (t/cluster) mod chains), so the lattice keeps several starts of a
	// word ending at a frame; see decoder.Config.FlatStartCluster and
	// docs/bench/asr.md.
	OptFlatStarts = "flat_starts"
	// OptFlatChains is the most copies per word with OptFlatStarts
	// (default 8).
	OptFlatChains = "flat_chains"
	// OptFlatPred is the number of predecessor buckets of the flat pass
	// (default 0: off; at most 16): each word gets a copy per bucket of
	// its predecessor's last word, see decoder.Config.FlatPredBuckets.
	OptFlatPred = "flat_pred"
	// OptWorkers is the number of segments decoded in parallel (default:
	// GOMAXPROCS).
	OptWorkers = "workers"
	// OptAdapt is the unsupervised speaker adaptation: "tree" (the
	// default with passes 2 or 3: the words of the tree pass are
	// force-aligned, one fMLLR feature transform is estimated for the
	// whole file from its speech frames, and the flat pass decodes the
	// transformed features), "off", or "full" (both passes, adapt, both
	// passes again; twice the CPU, no better). With adaptation, segments
	// are emitted only once the tree pass has covered the whole file.
	// See docs/bench/asr.md.
	OptAdapt = "adapt"
	// OptAdaptPrior is the weight, in frames, of the fMLLR prior centred
	// on no transform (default 1000).
	OptAdaptPrior = "adapt_prior"
	// OptAdaptMinFrames is the fewest aligned speech frames (10 ms) a file
	// needs to be adapted (default 300).
	OptAdaptMinFrames = "adapt_min_frames"
	// OptAdaptTransform is "blocks" (default: one 13×13 block per feature
	// stream — statics, deltas, double deltas — plus the offset) or
	// "full" (a 39×40 affine transform).
	OptAdaptTransform = "adapt_transform"
	// OptVTLN is "on" or "off": with speaker adaptation, before the fMLLR
	// transform is estimated, choose a per-file frequency warp of the mel
	// filterbank (vocal tract length normalisation, factors 0.88 to 1.12
	// in steps of 0.02) by the likelihood of the first pass's aligned
	// speech frames, and decode the flat pass on the warped features.
	OptVTLN = "vtln"
	// OptCacheLM is the weight λ in [0, 1) of the recording's unigram
	// cache in the flat pass and the lattice rescoring (default 0: off).
	// With adaptation, the tree pass's confident words (posterior at
	// least 0.5) of the file's other regions form the cache of each
	// region, and a word's LM probability becomes about
	// (1-λ)·P(w|h) + λ·(its share of the cache); see decoder.Options.Cache.
	OptCacheLM = "cache_lm"
	// OptLM2 is a second language model interpolated with OptLM in the
	// lattice rescoring of passes 3: every trigram probability there
	// becomes λ·P2 + (1-λ)·P, λ = OptLM2Weight. A file (ARPA text,
	// gzip-compressed or not, a sphinxbase binary trie or internal/lm's
	// binary form), "off", or by default the model built from the English
	// text of Debian packages ([EnsureDefaultLM2]; none when they are not
	// installed). See
	// decoder.Config.LM2 and docs/bench/asr.md (session 13).
	OptLM2 = "lm2"
	// OptLM2Weight is λ of OptLM2, in (0, 1) (default 0.5, chosen on the
	// dev recordings of docs/bench/asr.md).
	OptLM2Weight = "lm2_weight"
	// OptLM2Flat is "on" or "off" (default): with OptLM2, the flat pass
	// searches with the interpolated model too (decoder.Config.LM2Flat).
	OptLM2Flat = "lm2_flat"
)

// Defaults of OptFlatLW, OptBestPathLW, OptBestPathWIP and OptFlatStarts.
const (
	defaultFlatLW      = 7.5
	defaultBestPathLW  = 9 // session 15: joint sweep at stride 1 on stored lattices, dev 479 -> 468 errors (docs/bench/asr.md)
	defaultBestPathWIP = 0.2
	defaultFlatStarts  = 10
	defaultLM2Weight   = 0.5
)

// DefaultLM is where Debian's pocketsphinx-en-us installs its trigram
// language model.
const DefaultLM = "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin"

func init() {
	Register(Driver{Name: "go", Priority: 10, Open: openSphinx})
}

// sphinxASR is the pure-Go large-vocabulary recognizer: the Sphinx
// acoustic engine, a lexicon-tree Viterbi search with a trigram LM, and
// energy-based segmentation with segments decoded in parallel.
type sphinxASR struct {
	am             *sphinx.Model
	dec            *decoder.Decoder
	workers        int
	adapt          int     // adaptOff, adaptTree or adaptFull
	adaptPrior     float64 // fMLLR prior weight, frames
	cacheLM        float64 // OptCacheLM
	adaptMinFrames float64 // fewest speech frames to adapt on
	adaptBlocks    bool    // block-diagonal transform
	vtln           bool    // choose a frequency warp before fMLLR
	historyGap     int     // OptRegionHistory, frames
	topN           int     // OptTopN (0: the model's)
	mllr           mllrConfig
	cmn            int       // OptCMN: cmnFile, cmnSpeech or cmnPrior
	cmnPrior       float64   // OptCMNPrior, frames
	silence        int       // OptDigitalSilence: silenceKeep, silenceTrim or silenceDither
	combine        []variant // OptCombine
	retree         int       // OptRetree: retreeOff, retreeReplace or retreeUnion
	// onRegion, when set (by a test), sees every region's final result
	// in region order before its segment is emitted; it must not change
	// it.
	onRegion func(region int, res *decoder.Result)
}

// Speaker adaptation modes (OptAdapt).
const (
	adaptOff  = iota
	adaptTree // adapt between the tree pass and the flat pass
	adaptFull // decode both passes, adapt, decode both passes again
)

var _ Backend = (*sphinxASR)(nil)

// goOptions are the option keys the "go" driver reads.
var goOptions = []string{
	OptAcousticDir, OptDict, OptLM, OptPasses, OptFlatLW, OptBestPathLW, OptBestPathWIP, OptSilProb,
	OptFillProb, OptConsensus, OptFlatStarts, OptFlatChains, OptFlatPred, OptWorkers, OptAdapt,
	OptAdaptPrior, OptAdaptMinFrames, OptAdaptTransform, OptVTLN, OptCacheLM, OptAdaptSpace,
	OptMLLRClasses, OptMLLRPrior, OptCMN, OptCMNPrior, OptDigitalSilence, OptCombine,
	OptRegionHistory, OptTopN, OptRetree, OptFlatListBeam, OptFlatMinEnds, OptFlatWindow, OptFlatWordBeam,
	OptLM2, OptLM2Weight, OptLM2Flat,
}

func openSphinx(ctx context.Context, cfg backend.Config) (Backend, error) {
	s, err := openSphinxWith(ctx, cfg, nil)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// openSphinxWith is openSphinx with tune (nil: none) applied to the
// decoder's configuration just before the decoder is made; a test uses it
// to keep each region's lattice (decoder.Config.KeepLattice), which
// changes no word.
func openSphinxWith(ctx context.Context, cfg backend.Config, tune func(*decoder.Config)) (*sphinxASR, error) {
	o := cfg.Options
	// Options first: a bad one fails before the model loads, and so does
	// a misspelt key, which would otherwise change nothing unnoticed.
	for k := range o {
		if !slices.Contains(goOptions, k) {
			return nil, fmt.Errorf("asr: the go driver has no option %q (its options: %s)", k, strings.Join(goOptions, ", "))
		}
	}
	var dcfg decoder.Config
	dcfg.BestPathLanguageWeight, dcfg.BestPathWordInsertion = defaultBestPathLW, defaultBestPathWIP
	dcfg.FlatLanguageWeight = defaultFlatLW
	dcfg.FlatStartCluster = defaultFlatStarts
	switch o[OptPasses] {
	case "1":
	case "2":
		dcfg.Flat = true
	case "", "3":
		dcfg.Flat, dcfg.BestPath = true, true
	default:
		return nil, fmt.Errorf("asr: option %s %q: want 1, 2 or 3", OptPasses, o[OptPasses])
	}
	for _, kv := range []struct {
		key string
		dst *float64
		max float64
	}{{OptFlatLW, &dcfg.FlatLanguageWeight, math.Inf(1)}, {OptBestPathLW, &dcfg.BestPathLanguageWeight, math.Inf(1)}, {OptBestPathWIP, &dcfg.BestPathWordInsertion, 1},
		{OptSilProb, &dcfg.SilenceProb, 1}, {OptFillProb, &dcfg.FillerProb, 1}} {
		if v := o[kv.key]; v != "" {
			if _, err := fmt.Sscan(v, kv.dst); err != nil || *kv.dst <= 0 || *kv.dst > kv.max {
				return nil, fmt.Errorf("asr: option %s %q: want a number > 0 (at most %g)", kv.key, v, kv.max)
			}
		}
	}
	switch o[OptConsensus] {
	case "":
		dcfg.Consensus = dcfg.BestPath
	case "off":
	case "on":
		if !dcfg.BestPath {
			return nil, fmt.Errorf("asr: option %s on needs the lattice (%s 3)", OptConsensus, OptPasses)
		}
		dcfg.Consensus = true
	default:
		return nil, fmt.Errorf("asr: option %s %q: want on or off", OptConsensus, o[OptConsensus])
	}
	for _, kv := range []struct {
		key string
		dst *int
	}{{OptFlatStarts, &dcfg.FlatStartCluster}, {OptFlatChains, &dcfg.FlatChains}, {OptFlatPred, &dcfg.FlatPredBuckets}} {
		if v := o[kv.key]; v != "" {
			if _, err := fmt.Sscan(v, kv.dst); err != nil || *kv.dst < 0 {
				return nil, fmt.Errorf("asr: option %s %q: want an integer ≥ 0", kv.key, v)
			}
		}
	}
	if err := parseWordList(o, &dcfg); err != nil {
		return nil, err
	}
	w := runtime.GOMAXPROCS(0)
	if v := o[OptWorkers]; v != "" {
		if _, err := fmt.Sscan(v, &w); err != nil || w < 1 {
			return nil, fmt.Errorf("asr: option %s %q: want a positive integer", OptWorkers, v)
		}
	}
	sa := &sphinxASR{workers: w, adaptPrior: 1000, adaptMinFrames: 300, adaptBlocks: true}
	switch o[OptAdapt] {
	case "":
		if dcfg.Flat {
			sa.adapt = adaptTree
		}
	case "off":
	case "tree":
		sa.adapt = adaptTree
	case "full":
		sa.adapt = adaptFull
	default:
		return nil, fmt.Errorf("asr: option %s %q: want off, tree or full", OptAdapt, o[OptAdapt])
	}
	if sa.adapt == adaptTree && !dcfg.Flat {
		return nil, fmt.Errorf("asr: option %s tree needs the flat pass (%s 2 or 3)", OptAdapt, OptPasses)
	}
	for _, kv := range []struct {
		key string
		dst *float64
	}{{OptAdaptPrior, &sa.adaptPrior}, {OptAdaptMinFrames, &sa.adaptMinFrames}, {OptCacheLM, &sa.cacheLM}} {
		if v := o[kv.key]; v != "" {
			if _, err := fmt.Sscan(v, kv.dst); err != nil || *kv.dst < 0 {
				return nil, fmt.Errorf("asr: option %s %q: want a number ≥ 0", kv.key, v)
			}
		}
	}
	if sa.cacheLM >= 1 {
		return nil, fmt.Errorf("asr: option %s %q: want a number in [0, 1)", OptCacheLM, o[OptCacheLM])
	}
	switch o[OptAdaptTransform] {
	case "", "blocks":
	case "full":
		sa.adaptBlocks = false
	default:
		return nil, fmt.Errorf("asr: option %s %q: want blocks or full", OptAdaptTransform, o[OptAdaptTransform])
	}
	switch o[OptVTLN] {
	case "", "off":
	case "on":
		sa.vtln = true
	default:
		return nil, fmt.Errorf("asr: option %s %q: want on or off", OptVTLN, o[OptVTLN])
	}
	mc, err := parseMLLR(o)
	if err != nil {
		return nil, err
	}
	sa.mllr = mc
	if sa.cmn, sa.cmnPrior, err = parseCMN(o); err != nil {
		return nil, err
	}
	if sa.silence, err = parseDigitalSilence(o); err != nil {
		return nil, err
	}
	if sa.historyGap, err = parseRegionHistory(o); err != nil {
		return nil, err
	}
	if sa.topN, err = parseTopN(o); err != nil {
		return nil, err
	}
	if sa.combine, err = parseCombine(o[OptCombine]); err != nil {
		return nil, err
	}
	if len(sa.combine) > 0 && (!dcfg.Consensus || sa.adapt != adaptTree) {
		return nil, fmt.Errorf("asr: option %s needs consensus decoding (%s 3) and %s tree", OptCombine, OptPasses, OptAdapt)
	}
	if sa.retree, err = parseRetree(o); err != nil {
		return nil, err
	}
	if sa.retree != retreeOff && (sa.adapt != adaptTree || len(sa.combine) > 0) {
		return nil, fmt.Errorf("asr: option %s needs %s tree (and no %s)", OptRetree, OptAdapt, OptCombine)
	}
	if sa.vtln && sa.adapt == adaptOff {
		return nil, fmt.Errorf("asr: option %s on needs speaker adaptation (%s tree or full)", OptVTLN, OptAdapt)
	}
	lmPath := o[OptLM]
	if lmPath == "" {
		lmPath = DefaultLM
	}
	if _, err := os.Stat(lmPath); err != nil {
		return nil, fmt.Errorf("asr: language model: %w (apt-get install pocketsphinx-en-us, or pass an ARPA file)", err)
	}
	lm2Path := o[OptLM2]
	dcfg.LM2Weight = defaultLM2Weight
	if v := o[OptLM2Weight]; v != "" {
		if _, err := fmt.Sscan(v, &dcfg.LM2Weight); err != nil || dcfg.LM2Weight <= 0 || dcfg.LM2Weight >= 1 {
			return nil, fmt.Errorf("asr: option %s %q: want a number in (0, 1)", OptLM2Weight, v)
		}
		if lm2Path == "off" {
			return nil, fmt.Errorf("asr: option %s needs %s", OptLM2Weight, OptLM2)
		}
	}
	switch o[OptLM2Flat] {
	case "", "off":
	case "on":
		if lm2Path == "off" {
			return nil, fmt.Errorf("asr: option %s needs %s", OptLM2Flat, OptLM2)
		}
		dcfg.LM2Flat = true
	default:
		return nil, fmt.Errorf("asr: option %s %q: want on or off", OptLM2Flat, o[OptLM2Flat])
	}
	switch lm2Path {
	case "off":
		lm2Path = ""
	case "":
		if dcfg.BestPath {
			var err error
			if lm2Path, err = EnsureDefaultLM2(ctx); err != nil {
				return nil, err
			}
		}
	default:
		if !dcfg.BestPath {
			return nil, fmt.Errorf("asr: option %s needs the lattice (%s 3)", OptLM2, OptPasses)
		}
		if _, err := os.Stat(lm2Path); err != nil {
			return nil, fmt.Errorf("asr: option %s: %w", OptLM2, err)
		}
	}
	am, err := sphinx.Load(ctx, sphinx.Config{Dir: o[OptAcousticDir], Dict: o[OptDict]})
	if err != nil {
		return nil, fmt.Errorf("asr: %w", err)
	}
	lang, err := lm.Load(lmPath)
	if err != nil {
		return nil, fmt.Errorf("asr: %w", err)
	}
	if lm2Path != "" {
		if dcfg.LM2, err = loadLM2(lm2Path); err != nil {
			return nil, fmt.Errorf("asr: option %s: %w", OptLM2, err)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if tune != nil {
		tune(&dcfg)
	}
	dec, err := decoder.New(am, lang, dcfg)
	if err != nil {
		return nil, fmt.Errorf("asr: %w", err)
	}
	sa.am, sa.dec = am, dec
	return sa, nil
}

// Close releases nothing; the model is garbage-collected.
func (s *sphinxASR) Close() error { return nil }

// languageOK reports whether tag names English (or is empty).
func languageOK(tag string) bool {
	if tag == "" {
		return true
	}
	t := strings.ToLower(tag)
	return t == "en" || strings.HasPrefix(t, "en-") || strings.HasPrefix(t, "en_")
}

// regionOut is what a worker hands back for one region: the decoded
// result, or in the first phase of adaptation the tree pass and its
// aligned frames (adaptation statistics are summed by sumRegions).
type regionOut struct {
	res     *decoder.Result
	fp      *decoder.FirstPass
	aligned []alignedFrame
}

// sumRegions computes statistics of each of n regions on the workers and
// sums them in region order, so that the sum does not depend on
// scheduling; it is nil when no region gave any.
func sumRegions[T any, P interface {
	*T
	Merge(P)
}](ctx context.Context, workers, n int, stats func(i int) (P, error)) (P, error) {
	var total P
	parts := make([]P, n) // each written by its region's worker before consume reads it
	err := eachRegion(ctx, workers, n, func(ctx context.Context, i int) (regionOut, error) {
		st, err := stats(i)
		parts[i] = st
		return regionOut{}, err
	}, func(i int, _ regionOut) error {
		switch {
		case parts[i] == nil:
		case total == nil:
			total = parts[i]
		default:
			total.Merge(parts[i])
		}
		return nil
	})
	return total, err
}

// alignedFrame is a speech frame of the forced alignment of a region's
// first-pass words: the frame (from the region's start) and its senone.
type alignedFrame struct{ t, sen int32 }

// eachRegion runs work for regions 0…n-1 on up to workers goroutines and
// hands the outcomes to consume in region order, as each is ready. It
// returns the first error of work or consume; on return no work runs.
func eachRegion(ctx context.Context, workers, n int, work func(ctx context.Context, i int) (regionOut, error), consume func(i int, o regionOut) error) error {
	type result struct {
		out regionOut
		err error
	}
	ctx, cancel := context.WithCancel(ctx)
	results := make([]chan result, n)
	for i := range results {
		results[i] = make(chan result, 1)
	}
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	launched := make(chan struct{})
	// On return: stop the launcher and the workers, and wait for them, so
	// nothing runs after eachRegion returns.
	defer func() {
		cancel()
		<-launched
		wg.Wait()
	}()
	go func() {
		defer close(launched)
		for i := range n {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				for j := i; j < n; j++ {
					results[j] <- result{err: ctx.Err()}
				}
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				o, err := work(ctx, i)
				results[i] <- result{o, err}
			}()
		}
	}()
	for i := range n {
		var r result
		select {
		case r = <-results[i]:
		case <-ctx.Done():
			return ctx.Err()
		}
		if r.err != nil {
			return r.err
		}
		if err := consume(i, r.out); err != nil {
			return err
		}
	}
	return nil
}

// Transcribe finds the speech regions of a (energy-based segmentation of
// the model's cepstra, normalised over the whole file), decodes them in
// parallel on up to the configured number of workers and emits them in
// order as each is decided. Memory is bounded by the cepstra of the file
// (52 bytes per 10 ms) plus one search per worker. Words carry times in
// seconds and a posterior confidence.
//
// With speaker adaptation (OptAdapt), every region is first decoded with
// the tree pass; the words found are force-aligned and one feature
// transform (fMLLR) is estimated for the file from all of them; the
// flat pass then decodes each region's transformed features. Segments
// are emitted only in that second phase, so a streaming caller
// (Options.Streaming) gets the unadapted decoding, region by region.
func (s *sphinxASR) Transcribe(ctx context.Context, a sotto.Audio, opts Options, emit func(Segment) error) error {
	if opts.Temperature != 0 {
		return sotto.Invalid("bad_request", "temperature", "asr: temperature %g is not supported: this recognizer's beam search is deterministic; send 0 or leave it out", opts.Temperature)
	}
	if !languageOK(opts.Language) {
		return sotto.Invalid("asr_language_unsupported", "language", "asr: language %q unsupported (this model is English)", opts.Language)
	}
	if a.Rate() != sotto.SampleRate {
		return sotto.Invalid("bad_request", "file", "asr: sample rate %d Hz unsupported (want %d)", a.Rate(), sotto.SampleRate)
	}
	// Cepstra of the whole file with the model's CMN (batch CMN per region
	// of constant channel, sphinx.CMNSegmental): a short speech region gets
	// the mean of its recording, not of its own few frames.
	if s.silence == silenceDither {
		a.Samples = ditherSilence(a.Samples)
	}
	cep, regions, err := s.cepstra(ctx, a.Samples, 0)
	if err != nil {
		return err
	}
	nc := s.am.Params.NCep
	if len(regions) == 0 {
		return nil
	}
	emitOut := func(i int, o regionOut) error {
		if s.onRegion != nil {
			s.onRegion(i, o.res)
		}
		seg := s.segment(o.res, regions[i], i, opts)
		if seg.Text == "" {
			return nil
		}
		return emit(seg)
	}
	if s.adapt == adaptOff || opts.Streaming {
		return eachRegion(ctx, s.workers, len(regions), func(ctx context.Context, i int) (regionOut, error) {
			return s.decodeRegion(ctx, cep, nc, regions[i], phasePlain, nil, nil, nil, nil, nil, opts)
		}, emitOut)
	}
	// Adaptation: first phase, tree pass and forced alignment.
	first := make([]*decoder.FirstPass, len(regions))
	aligned := make([][]alignedFrame, len(regions))
	err = eachRegion(ctx, s.workers, len(regions), func(ctx context.Context, i int) (regionOut, error) {
		return s.decodeRegion(ctx, cep, nc, regions[i], phaseFirst, nil, nil, nil, nil, nil, opts)
	}, func(i int, o regionOut) error {
		first[i], aligned[i] = o.fp, o.aligned
		return nil
	})
	if err != nil {
		return err
	}
	cep0 := cep // unwarped, for OptCombine
	if s.vtln {
		w, err := s.chooseWarp(ctx, a.Samples, regions, aligned)
		if err != nil {
			return err
		}
		if w != 1 {
			if cep, _, err = s.cepstra(ctx, a.Samples, w); err != nil {
				return err
			}
		}
	}
	xf, am, err := s.adaptation(ctx, cep, nc, regions, aligned)
	if err != nil {
		return err
	}
	caches := s.caches(first)
	hists := histories(regions, first, s.historyGap)
	am = s.secondModel(am)
	if len(s.combine) > 0 {
		base := system{cep: cep, xf: xf, am: am, same: -1}
		variants, err := s.variantSystems(ctx, a.Samples, cep0, nc, regions, aligned, base)
		if err != nil {
			return err
		}
		return s.decodeCombined(ctx, append([]system{base}, variants...), nc, regions, first, caches, hists, opts, emitOut)
	}
	return eachRegion(ctx, s.workers, len(regions), func(ctx context.Context, i int) (regionOut, error) {
		cache, hist := regionContext(caches, hists, i)
		return s.decodeRegion(ctx, cep, nc, regions[i], phaseSecond, xf, am, first[i], cache, hist, opts)
	}, emitOut)
}

// cacheMinConf is the least tree-pass posterior of a word of the cache
// LM (OptCacheLM).
const cacheMinConf = 0.5

// caches returns the unigram cache of each region for OptCacheLM: the
// counts of the confident words of the tree pass in the other regions of
// the file (a region's own words would only confirm its first pass), or
// nil when the option is off.
func (s *sphinxASR) caches(first []*decoder.FirstPass) []map[string]float64 {
	if s.cacheLM <= 0 || s.cacheLM >= 1 {
		return nil
	}
	own := make([]map[string]float64, len(first))
	all := map[string]float64{}
	for i, fp := range first {
		own[i] = map[string]float64{}
		if fp == nil || fp.Result == nil {
			continue
		}
		for _, w := range fp.Result.Words {
			if !w.Filler && w.Confidence >= cacheMinConf {
				own[i][w.Text]++
				all[w.Text]++
			}
		}
	}
	out := make([]map[string]float64, len(first))
	for i := range first {
		m := map[string]float64{}
		for w, c := range all {
			if c -= own[i][w]; c > 0 {
				m[w] = c
			}
		}
		out[i] = m
	}
	return out
}

// transform returns the file's fMLLR transform (nil: none) estimated
// from the aligned frames of its regions.
func (s *sphinxASR) transform(ctx context.Context, cep []float32, nc int, regions [][2]int, aligned [][]alignedFrame) (*sphinx.Affine, error) {
	total, err := sumRegions(ctx, s.workers, len(regions), func(i int) (*sphinx.FMLLRStats, error) {
		return s.adaptStats(cep, nc, regions[i], aligned[i])
	})
	if err != nil {
		return nil, err
	}
	return s.estimate(total), nil
}

// estimate returns the file's feature transform from its statistics, or
// nil (no transform) when there are too few frames or the estimate
// fails.
func (s *sphinxASR) estimate(st *sphinx.FMLLRStats) *sphinx.Affine {
	if st == nil || st.Frames() < s.adaptMinFrames {
		return nil
	}
	xf, err := st.Estimate(sphinx.FMLLROptions{Prior: s.adaptPrior, Blocks: s.adaptBlocks})
	if err != nil {
		return nil
	}
	return xf
}

// Phases of decodeRegion.
const (
	phasePlain  = iota // both passes, no adaptation
	phaseFirst         // the first pass and adaptation statistics
	phaseSecond        // the second pass on transformed features
)

// frameSeconds converts frames to seconds (the Debian model's 100 frames
// per second).
func frameSeconds(f int) float64 { return float64(f) / 100 }

// decodeRegion decodes frames [r[0], r[1]) of the normalised cepstra in
// one phase: phasePlain decodes them; phaseFirst runs the first pass and
// gathers adaptation statistics from the force-alignment of its words;
// phaseSecond decodes the features transformed by xf (nil: untransformed)
// scored with the adapted means of am (nil: the decoder's model) with the
// rest of the search after fp, with the unigram cache cache (OptCacheLM;
// nil: none) and the LM history hist (OptRegionHistory; nil: none).
func (s *sphinxASR) decodeRegion(ctx context.Context, cep []float32, nc int, r [2]int, phase int, xf *sphinx.Affine, am *sphinx.Model, fp *decoder.FirstPass, cache map[string]float64, hist []string, opts Options) (regionOut, error) {
	c := cep[r[0]*nc : r[1]*nc]
	n := r[1] - r[0]
	buf := make([]float32, 3*nc)
	frame := func(t int) []float32 { return sphinx.FeatureAt(buf, c, nc, t) }
	if xf != nil {
		out := make([]float32, 3*nc)
		frame = func(t int) []float32 { return xf.Apply(out, sphinx.FeatureAt(buf, c, nc, t)) }
	}
	dopts := decoder.Options{Bias: promptWords(opts.Prompt), Cache: cache, CacheWeight: s.cacheLM, Acoustic: am, History: hist}
	var o regionOut
	var err error
	switch {
	case phase == phasePlain:
		o.res, err = s.dec.DecodeWith(ctx, frame, n, dopts)
	case phase == phaseFirst && s.adapt == adaptTree:
		if o.fp, err = s.dec.DecodeFirst(ctx, frame, n, dopts); err == nil {
			o.aligned, err = s.alignSpeech(ctx, frame, n, o.fp.Result)
		}
	case phase == phaseFirst:
		if o.res, err = s.dec.DecodeWith(ctx, frame, n, dopts); err == nil {
			o.fp = &decoder.FirstPass{Result: o.res}
			o.aligned, err = s.alignSpeech(ctx, frame, n, o.res)
		}
	case s.adapt == adaptTree:
		if fp, err = s.retreeFirst(ctx, frame, n, fp, xf == nil && am == nil, dopts); err == nil {
			o.res, err = s.dec.DecodeSecond(ctx, frame, fp, dopts)
		}
	case xf == nil && am == nil: // adaptFull without a transform: the first phase decoded it all
		o.res = fp.Result
	default:
		o.res, err = s.dec.DecodeWith(ctx, frame, n, dopts)
	}
	return o, err
}

// alignSpeech force-aligns the words of res to the region's features
// and returns its speech frames (silence and noise states are left out)
// with their senones, or nil when there is nothing to align.
func (s *sphinxASR) alignSpeech(ctx context.Context, frame func(t int) []float32, n int, res *decoder.Result) ([]alignedFrame, error) {
	var words []string
	for _, w := range res.Words {
		if !w.Filler {
			words = append(words, w.Text)
		}
	}
	if len(words) == 0 {
		return nil, nil
	}
	al, _, err := s.am.AlignFrames(ctx, frame, n, words, sphinx.AlignOptions{})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, nil // no path: this region adds nothing
	}
	var out []alignedFrame
	for _, seg := range al.States {
		if strings.HasPrefix(seg.Label, "SIL.") || strings.HasPrefix(seg.Label, "+") {
			continue
		}
		for t := seg.Start; t < seg.End; t++ {
			out = append(out, alignedFrame{int32(t), int32(seg.Senone)})
		}
	}
	return out, nil
}

// adaptStats returns the fMLLR statistics of the aligned frames of region
// r of the normalised cepstra cep, or nil when there are none.
func (s *sphinxASR) adaptStats(cep []float32, nc int, r [2]int, aligned []alignedFrame) (*sphinx.FMLLRStats, error) {
	if len(aligned) == 0 {
		return nil, nil
	}
	st, err := s.am.NewFMLLRStats()
	if err != nil {
		return nil, err
	}
	c := cep[r[0]*nc : r[1]*nc]
	buf := make([]float32, 3*nc)
	for _, a := range aligned {
		st.Add(sphinx.FeatureAt(buf, c, nc, int(a.t)), int(a.sen), 1)
	}
	return st, nil
}

// segment turns a region's result into a Segment with times in seconds.
func (s *sphinxASR) segment(res *decoder.Result, r [2]int, id int, opts Options) Segment {
	seg := Segment{ID: id}
	var text []string
	for _, w := range res.Words {
		if w.Filler {
			continue
		}
		word := Word{Word: w.Text, Start: frameSeconds(r[0] + w.Start), End: frameSeconds(r[0] + w.End),
			Confidence: math.Round(w.Confidence*1000) / 1000}
		if len(text) == 0 {
			seg.Start = word.Start
		}
		seg.End = word.End
		text = append(text, w.Text)
		if opts.Words {
			seg.Words = append(seg.Words, word)
		}
	}
	seg.Text = strings.Join(text, " ")
	return seg
}

// promptWords splits a prompt into lower-case words (letters, digits and
// apostrophes) for the decoder's bias list.
func promptWords(prompt string) []string {
	if prompt == "" {
		return nil
	}
	return strings.FieldsFunc(strings.ToLower(prompt), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
}

// regionContext returns region i's cache-LM counts and LM history, each
// nil when that option is off (caches or hists nil).
func regionContext(caches []map[string]float64, hists [][]string, i int) (cache map[string]float64, hist []string) {
	if caches != nil {
		cache = caches[i]
	}
	if hists != nil {
		hist = hists[i]
	}
	return cache, hist
}
