package sphinx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// DefaultModelDir is where Debian's pocketsphinx-en-us installs the US
// English acoustic model.
const DefaultModelDir = "/usr/share/pocketsphinx/model/en-us/en-us"

// DefaultDictPath is the CMU pronouncing dictionary shipped beside it.
const DefaultDictPath = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"

// Config names the model files to load. The zero value loads the Debian
// en-us model with the peer's default floors.
type Config struct {
	Dir       string  // acoustic model directory; "" = DefaultModelDir
	Dict      string  // pronouncing dictionary; "" = DefaultDictPath
	NoiseDict string  // filler dictionary; "" = Dir/noisedict
	VarFloor  float64 // variance floor; 0 = 1e-4
	TmatFloor float64 // transition probability floor; 0 = 1e-4
	TopN      int     // Gaussians kept per codebook and stream; 0 = 4
	MixwFloor float64 // floor of mixture_weights values; 0 = DefaultMixwFloor
}

// Model is a loaded acoustic model with its dictionary. It is read-only
// after Load and safe for concurrent use by multiple goroutines.
type Model struct {
	Params FeatParams
	Mdef   *Mdef
	Tmat   *TransitionMatrices
	Mixw   *MixWeights
	Dict   *Dict
	// Kind is "ptm" (one codebook per CI phone, the Debian en-us model),
	// "cont" (one per senone) or "semi" (one shared codebook).
	Kind string
	// Transform is the model's feature_transform (LDA/MLLT) or nil. The
	// Scorer applies it; Features and the aligner pass 1s_c_d_dd vectors.
	Transform *FeatureTransform
	scorer    *gmm
	senCB     []int32
	topN      int
}

// Load reads and validates every file of the acoustic model and the
// dictionaries. It fails with a descriptive error naming the file on any
// missing, truncated or inconsistent file.
func Load(ctx context.Context, cfg Config) (*Model, error) {
	if cfg.Dir == "" {
		cfg.Dir = DefaultModelDir
	}
	if cfg.Dict == "" {
		cfg.Dict = DefaultDictPath
	}
	if cfg.NoiseDict == "" {
		cfg.NoiseDict = filepath.Join(cfg.Dir, "noisedict")
	}
	if cfg.VarFloor == 0 {
		cfg.VarFloor = 1e-4
	}
	if cfg.TmatFloor == 0 {
		cfg.TmatFloor = 1e-4
	}
	if cfg.TopN == 0 {
		cfg.TopN = 4
	}
	read := func(path string) ([]byte, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("sphinx: %w", err)
		}
		return b, nil
	}
	m := &Model{topN: cfg.TopN}
	b, err := read(filepath.Join(cfg.Dir, "feat.params"))
	if err != nil {
		return nil, err
	}
	if m.Params, err = ParseFeatParams("feat.params", b); err != nil {
		return nil, err
	}
	if b, err = read(filepath.Join(cfg.Dir, "mdef")); err != nil {
		return nil, err
	}
	if m.Mdef, err = ParseMdef("mdef", b); err != nil {
		return nil, err
	}
	if b, err = read(filepath.Join(cfg.Dir, "means")); err != nil {
		return nil, err
	}
	means, err := ParseGauden("means", b)
	if err != nil {
		return nil, err
	}
	if b, err = read(filepath.Join(cfg.Dir, "variances")); err != nil {
		return nil, err
	}
	vars, err := ParseGauden("variances", b)
	if err != nil {
		return nil, err
	}
	if !means.sameShape(vars) {
		return nil, fmt.Errorf("sphinx: means and variances differ in shape")
	}
	if b, err = read(filepath.Join(cfg.Dir, "transition_matrices")); err != nil {
		return nil, err
	}
	if m.Tmat, err = ParseTransitionMatrices("transition_matrices", b, cfg.TmatFloor); err != nil {
		return nil, err
	}
	if err := m.loadWeights(cfg, read, means); err != nil {
		return nil, err
	}
	if err := m.check(means); err != nil {
		return nil, err
	}
	// A word naming a phone the model lacks is left out, as by the peer:
	// one odd line must not make a whole downloaded dictionary unusable.
	m.Dict = &Dict{SkipUnknownPhones: true}
	if b, err = read(cfg.NoiseDict); err != nil {
		return nil, err
	}
	if err := ParseDict("noisedict", b, m.Mdef, true, m.Dict); err != nil {
		return nil, err
	}
	if b, err = read(cfg.Dict); err != nil {
		return nil, err
	}
	if err := ParseDict(filepath.Base(cfg.Dict), b, m.Mdef, false, m.Dict); err != nil {
		return nil, err
	}
	m.scorer = newGMM(means, vars, cfg.VarFloor, m.Mixw, m.senCB, m.Transform, cfg.TopN)
	return m, nil
}

// loadWeights reads the mixture weights (sendump when the directory has
// one, else mixture_weights) and the optional feature_transform, and maps
// each senone to its codebook from the number of codebooks, as the peer
// does: one per CI phone (PTM), one per senone (continuous) or a single
// one (semi-continuous).
func (m *Model) loadWeights(cfg Config, read func(string) ([]byte, error), means *Gauden) error {
	md := m.Mdef
	sendump := filepath.Join(cfg.Dir, "sendump")
	if _, err := os.Stat(sendump); err == nil {
		b, err := read(sendump)
		if err != nil {
			return err
		}
		if m.Mixw, err = ParseSendump("sendump", b, means.NFeat, means.NDensity, md.NSen); err != nil {
			return err
		}
	} else {
		b, err := read(filepath.Join(cfg.Dir, "mixture_weights"))
		if err != nil {
			return fmt.Errorf("%w (the model has no sendump either)", err)
		}
		if m.Mixw, err = ParseMixtureWeights("mixture_weights", b, cfg.MixwFloor); err != nil {
			return err
		}
		if mw := m.Mixw; mw.NSen != md.NSen || mw.NFeat != means.NFeat || mw.NDensity != means.NDensity {
			return fmt.Errorf("sphinx: mixture_weights: %d senones × %d streams × %d densities, model has %d × %d × %d",
				mw.NSen, mw.NFeat, mw.NDensity, md.NSen, means.NFeat, means.NDensity)
		}
	}
	m.senCB = make([]int32, md.NSen)
	switch means.NMgau {
	case len(md.CIName):
		m.Kind = "ptm"
		for s := range m.senCB {
			m.senCB[s] = int32(md.senToBase[s])
		}
	case md.NSen:
		m.Kind = "cont"
		for s := range m.senCB {
			m.senCB[s] = int32(s)
		}
	case 1:
		m.Kind = "semi"
	default:
		return fmt.Errorf("sphinx: means: %d codebooks; want one per CI phone (%d, PTM), one per senone (%d, continuous) or one (semi-continuous)",
			means.NMgau, len(md.CIName), md.NSen)
	}
	lda := filepath.Join(cfg.Dir, "feature_transform")
	if _, err := os.Stat(lda); err == nil {
		b, err := read(lda)
		if err != nil {
			return err
		}
		dim := 0
		if v, ok := m.Params.Extra["ldadim"]; ok {
			if dim, err = strconv.Atoi(v); err != nil || dim < 0 {
				return fmt.Errorf("sphinx: feat.params: -ldadim %q is not a non-negative integer", v)
			}
		}
		if m.Transform, err = ParseFeatureTransform("feature_transform", b, dim); err != nil {
			return err
		}
	}
	return nil
}

// check verifies that the files agree with each other.
func (m *Model) check(means *Gauden) error {
	md := m.Mdef
	switch m.Params.Model {
	case "", m.Kind:
	case "ptm", "cont", "semi":
		return fmt.Errorf("sphinx: feat.params says -model %s, but the files make a %s model", m.Params.Model, m.Kind)
	default:
		return fmt.Errorf("sphinx: feat.params: -model %q unsupported (want ptm, cont or semi)", m.Params.Model)
	}
	if m.Tmat.N != md.NTmat || m.Tmat.NState != md.NEmit {
		return fmt.Errorf("sphinx: transition_matrices: %d matrices of %d states, mdef wants %d of %d", m.Tmat.N, m.Tmat.NState, md.NTmat, md.NEmit)
	}
	dims := 3 * m.Params.NCep
	if t := m.Transform; t != nil {
		if t.In != dims {
			return fmt.Errorf("sphinx: feature_transform takes %d dimensions, the features have %d", t.In, dims)
		}
		if len(m.Params.SVSpec) > 1 || means.NFeat != 1 {
			return fmt.Errorf("sphinx: feature_transform needs single-stream features (means have %d streams)", means.NFeat)
		}
		dims = t.Out
	}
	streams := m.Params.SVSpec
	if len(streams) == 0 || m.Transform != nil {
		streams = [][2]int{{0, dims - 1}}
	}
	if len(streams) != means.NFeat {
		return fmt.Errorf("sphinx: feat.params -svspec has %d streams, means have %d", len(streams), means.NFeat)
	}
	next := 0
	for i, r := range streams {
		if r[0] != next || r[1]-r[0]+1 != means.VecLen[i] {
			return fmt.Errorf("sphinx: feat.params -svspec stream %d (%d-%d) does not match means (length %d, contiguous)", i, r[0], r[1], means.VecLen[i])
		}
		next = r[1] + 1
	}
	if next != dims {
		return fmt.Errorf("sphinx: feat.params -svspec covers %d of %d dimensions", next, dims)
	}
	return nil
}

// Cepstra runs the model's front end on samples (16 kHz, values in [-1,1])
// and applies the model's CMN: batch CMN per region of constant long-term
// cepstral mean ([CMNSegmental]: audio joined from recordings of different
// channels is normalised per recording, audio of one recording exactly as
// by [CMNBatch]), or live CMN from the -cmninit prior. It returns NCep
// values per frame and the number of frames.
func (m *Model) Cepstra(ctx context.Context, samples []float32) ([]float32, int, error) {
	return m.CepstraWarped(ctx, samples, 0)
}

// CepstraWarped is Cepstra with the mel filterbank warped by the factor
// warp (FeatParams.Warp; 0 or 1 = none), for vocal tract length
// normalisation.
func (m *Model) CepstraWarped(ctx context.Context, samples []float32, warp float64) ([]float32, int, error) {
	p := m.Params
	p.Warp = warp
	fe, err := NewFrontend(p)
	if err != nil {
		return nil, 0, err
	}
	cep, err := fe.Cepstra(ctx, samples)
	if err != nil {
		return nil, 0, err
	}
	nc := m.Params.NCep
	switch m.Params.CMN {
	case "batch":
		CMNSegmental(cep, nc)
	case "live":
		NewLiveCMN(nc, m.Params.CMNInit).Apply(cep)
	}
	return cep, len(cep) / nc, nil
}

// Features is Cepstra followed by the 1s_c_d_dd features: it returns the
// flat feature matrix (frames × 3·ncep) and the number of frames.
func (m *Model) Features(ctx context.Context, samples []float32) ([]float32, int, error) {
	cep, n, err := m.Cepstra(ctx, samples)
	if err != nil {
		return nil, 0, err
	}
	return Features(cep, m.Params.NCep), n, nil
}
