package sphinx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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
}

// Model is a loaded acoustic model with its dictionary. It is read-only
// after Load and safe for concurrent use by multiple goroutines.
type Model struct {
	Params FeatParams
	Mdef   *Mdef
	Tmat   *TransitionMatrices
	Mixw   *MixWeights
	Dict   *Dict
	scorer *gmm
	topN   int
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
	if b, err = read(filepath.Join(cfg.Dir, "sendump")); err != nil {
		return nil, err
	}
	if m.Mixw, err = ParseSendump("sendump", b, means.NFeat, means.NDensity, m.Mdef.NSen); err != nil {
		return nil, err
	}
	if err := m.check(means); err != nil {
		return nil, err
	}
	m.Dict = &Dict{}
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
	m.scorer = newGMM(means, vars, cfg.VarFloor, m.Mixw, m.Mdef, cfg.TopN)
	return m, nil
}

// check verifies that the files agree with each other.
func (m *Model) check(means *Gauden) error {
	md := m.Mdef
	if m.Params.Model != "" && m.Params.Model != "ptm" {
		return fmt.Errorf("sphinx: feat.params: -model %q unsupported (want ptm)", m.Params.Model)
	}
	if means.NMgau != len(md.CIName) {
		return fmt.Errorf("sphinx: means: %d codebooks, mdef has %d CI phones (a PTM model has one per phone)", means.NMgau, len(md.CIName))
	}
	if m.Tmat.N != md.NTmat || m.Tmat.NState != md.NEmit {
		return fmt.Errorf("sphinx: transition_matrices: %d matrices of %d states, mdef wants %d of %d", m.Tmat.N, m.Tmat.NState, md.NTmat, md.NEmit)
	}
	streams := m.Params.SVSpec
	if len(streams) == 0 {
		streams = [][2]int{{0, 3*m.Params.NCep - 1}}
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
	if next != 3*m.Params.NCep {
		return fmt.Errorf("sphinx: feat.params -svspec covers %d of %d dimensions", next, 3*m.Params.NCep)
	}
	return nil
}

// Cepstra runs the model's front end on samples (16 kHz, values in [-1,1])
// and applies the model's CMN (batch over the whole utterance, or live from
// the -cmninit prior). It returns NCep values per frame and the number of
// frames.
func (m *Model) Cepstra(ctx context.Context, samples []float32) ([]float32, int, error) {
	fe, err := NewFrontend(m.Params)
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
		CMNBatch(cep, nc)
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
