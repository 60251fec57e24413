package asr

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
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

// lm2BinaryPath is where the compact binary form of the default second
// model (internal/lm's WriteBinary) is kept: next to its ARPA file, as
// debian-text-v1.slm.
func lm2BinaryPath(arpa string) string {
	return strings.TrimSuffix(arpa, ".arpa.gz") + ".slm"
}

// EnsureDefaultLM2 returns the path of the default second language model
// ([DefaultLM2Path]), building it first when it is not there: an
// interpolated Kneser-Ney trigram over cmudict's words from the English
// text of Debian's dict-gcide, fortunes, dict-devil and bible-kjv packages
// (package asr/internal/debtext; about 20 CPU-seconds and 0.5 GB of memory,
// once per machine, a 13 MB file). It returns "" and no error when one of
// those packages is not installed (scripts/deps.sh installs them) or there
// is no cache directory: the lattice rescoring then uses the trigram alone.
//
// The ARPA file is the model's interchange form. A process reads the model
// from its compact binary form beside it (debian-text-v1.slm, 22 MB, read
// in a few hundredths of a second instead of seconds of ARPA parsing),
// written when the model is built, or on the first load after an older
// version built the ARPA file alone, and written again from the ARPA file,
// with a log line, when it is corrupt, truncated, of another format version
// or made from another ARPA file.
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
	// Its binary form now, once, while the model is in hand.
	if _, err := loadLM2(p); err != nil {
		return "", fmt.Errorf("asr: the default %s just built: %w", OptLM2, err)
	}
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
// model is read-only, so every backend opened on the same file shares it.
var lm2Loaded sync.Map // lm2Key → *lm2Entry

// loadLM2 returns the second model of file path, read once per process:
// the default model ([DefaultLM2Path]) through its binary form
// ([loadBinaryLM2]), any other file as it is.
func loadLM2(path string) (*lm.Model, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	e, _ := lm2Loaded.LoadOrStore(lm2Key{path, st.Size(), st.ModTime()}, &lm2Entry{})
	en := e.(*lm2Entry)
	en.once.Do(func() {
		if d, err := DefaultLM2Path(); err == nil && d == path {
			en.m, _, en.err = loadBinaryLM2(path, lm2BinaryPath(path), slog.Default())
			return
		}
		en.m, en.err = lm.Load(path)
	})
	return en.m, en.err
}

// loadBinaryLM2 reads the ARPA model of file arpa (gzip-compressed or
// not) from its binary form in file bin, and reports whether it did. The
// binary file records the ARPA file it was made from (name, size and
// CRC-32C of its bytes); when it is missing, unreadable, corrupt,
// truncated, of another format version or made from other bytes, the ARPA
// file is parsed instead and the binary file written again from it (a
// log line says which and why; failing to write it only costs the next
// process the parse again). Both forms give the same model bit for bit.
func loadBinaryLM2(arpa, bin string, log *slog.Logger) (*lm.Model, bool, error) {
	text, err := os.ReadFile(arpa)
	if err != nil {
		return nil, false, fmt.Errorf("lm: %w", err)
	}
	src := fmt.Sprintf("%s %d bytes crc32c %08x", filepath.Base(arpa), len(text), crc32.Checksum(text, crc32.MakeTable(crc32.Castagnoli)))
	data, err := os.ReadFile(bin)
	switch {
	case err == nil:
		m, made, err := lm.ParseBinary(bin, data)
		if err == nil && made == src {
			return m, true, nil
		}
		if err == nil {
			err = fmt.Errorf("made from %q, not the current %q", made, src)
		}
		log.Warn("asr: the second language model's binary form is unusable; writing it again from the ARPA file", "path", bin, "err", err)
	case errors.Is(err, fs.ErrNotExist):
		log.Info("asr: writing the second language model's binary form, once for this machine (a few CPU-seconds)", "path", bin)
	default:
		log.Warn("asr: the second language model's binary form is unreadable; writing it again from the ARPA file", "path", bin, "err", err)
	}
	if bytes.HasPrefix(text, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(text))
		if err == nil {
			text, err = io.ReadAll(zr)
		}
		if err != nil {
			return nil, false, fmt.Errorf("lm: %s: %w", arpa, err)
		}
	}
	m, err := lm.ParseARPA(arpa, text)
	if err != nil {
		return nil, false, err
	}
	if err := writeBinaryLM2(m, bin, src); err != nil {
		log.Warn("asr: could not write the second language model's binary form; the next process parses the ARPA file again", "path", bin, "err", err)
	}
	return m, false, nil
}

// writeBinaryLM2 writes m in its binary form to file bin, through a
// temporary file renamed into place, so a reader never sees half a file.
func writeBinaryLM2(m *lm.Model, bin, src string) error {
	f, err := os.CreateTemp(filepath.Dir(bin), filepath.Base(bin)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	err = f.Chmod(0o644)
	if err == nil {
		err = m.WriteBinary(f, src)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp, bin)
}
