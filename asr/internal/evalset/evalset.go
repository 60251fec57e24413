// Package evalset lists the English recordings with transcripts that the
// ASR evaluations read from the shared test data: speech/en_*_16k.wav,
// each with its transcript <name>.txt beside it. The eval
// (asr/internal/eval), the lattice sweep (asr's TestLatticeSweep) and the
// language-model trainer's checks (asr/internal/lmtrain) take their files
// from here, so a stride or a holdout part names the same recordings in
// all of them.
package evalset

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sottolabs/sotto/internal/holdout"
)

// Recording is one recording with its transcript.
type Recording struct {
	// Name is the file's name without "_16k.wav", e.g. "en_jfk".
	Name string
	// Wav is the path of the 16 kHz WAV file.
	Wav string
	// Text is the transcript as written in <Name>.txt.
	Text string
}

// List returns the recordings in dir (the shared test data's speech
// directory) in name order: every stride-th recording that has a
// transcript (stride below 1 counts as 1; the count runs over all
// recordings with a transcript, both holdout parts), and of those only the
// ones of holdout part part ("dev" or "sealed"; "" keeps both). A WAV file
// without a transcript is passed over; a transcript that cannot be read
// for another reason is an error.
func List(dir string, stride int, part string) ([]Recording, error) {
	wavs, err := filepath.Glob(filepath.Join(dir, "en_*_16k.wav"))
	if err != nil {
		return nil, err
	}
	slices.Sort(wavs)
	stride = max(stride, 1)
	var recs []Recording
	k := -1
	for _, w := range wavs {
		name := strings.TrimSuffix(filepath.Base(w), "_16k.wav")
		txt, err := os.ReadFile(filepath.Join(dir, name+".txt"))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if k++; k%stride != 0 {
			continue
		}
		if part != "" && holdout.Part(name) != part {
			continue
		}
		recs = append(recs, Recording{Name: name, Wav: w, Text: string(txt)})
	}
	return recs, nil
}
