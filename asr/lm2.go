package asr

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sottolabs/sotto/asr/internal/debtext"
	"github.com/sottolabs/sotto/internal/lm"
)

// defaultLM2Name is the file name of the default second language model;
// it changes whenever the recipe (sources, spelling, smoothing) does, so
// that an older build is not used.
const defaultLM2Name = "debian-text-v1.arpa.gz"

// DefaultLM2Path returns where the default second language model of
// OptLM2 is kept: debian-text-v1.arpa.gz in the folder sotto/asr of the
// user's cache directory ($XDG_CACHE_HOME, or ~/.cache, on Linux).
func DefaultLM2Path() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("asr: no cache directory for the default %s: %w", OptLM2, err)
	}
	return filepath.Join(d, "sotto", "asr", defaultLM2Name), nil
}

var lm2Build sync.Mutex

// EnsureDefaultLM2 returns the path of the default second language model
// ([DefaultLM2Path]), building it first when it is not there: an
// interpolated Kneser-Ney trigram over cmudict's words from the English
// text of Debian's dict-gcide, fortunes, dict-devil and bible-kjv packages
// (package asr/internal/debtext; about 20 CPU-seconds and 0.5 GB of memory,
// once per machine, a 15 MB file). It returns "" and no error when one of
// those packages is not installed (scripts/deps.sh installs them) or there
// is no cache directory: the lattice rescoring then uses the trigram alone.
func EnsureDefaultLM2(ctx context.Context) (string, error) {
	p, err := DefaultLM2Path()
	if err != nil {
		return "", nil
	}
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	if len(debtext.Missing(debtext.DefaultSources)) > 0 {
		return "", nil
	}
	lm2Build.Lock()
	defer lm2Build.Unlock()
	if _, err := os.Stat(p); err == nil {
		return p, nil // built while this call waited
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", fmt.Errorf("asr: default %s: %w", OptLM2, err)
	}
	// The build takes tens of seconds once per machine: say so, so a
	// first transcription that waits for it does not look hung.
	start := time.Now()
	slog.Info("asr: building the second language model once for this machine (about 20 CPU-seconds)",
		"path", p, "sources", debtext.DefaultSources)
	if err := debtext.Build(ctx, p, debtext.DefaultSources, 2, nil); err != nil {
		return "", fmt.Errorf("asr: building the default %s: %w", OptLM2, err)
	}
	slog.Info("asr: second language model built", "path", p, "took", time.Since(start).Round(time.Second))
	return p, nil
}

type lm2Key struct {
	path string
	size int64
	mod  time.Time
}

type lm2Entry struct {
	once sync.Once
	m    *lm.Model
	err  error
}

// lm2Loaded holds the second models read in this process, by file: a
// model is read-only, so every backend opened on the same file shares it
// (an ARPA file takes seconds to parse).
var lm2Loaded sync.Map // lm2Key → *lm2Entry

func loadLM2(path string) (*lm.Model, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	e, _ := lm2Loaded.LoadOrStore(lm2Key{path, st.Size(), st.ModTime()}, &lm2Entry{})
	en := e.(*lm2Entry)
	en.once.Do(func() { en.m, en.err = lm.Load(path) })
	return en.m, en.err
}
