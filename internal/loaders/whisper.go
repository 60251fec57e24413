package loaders

import (
	"context"
	"fmt"
	"io"

	"github.com/sottolabs/sotto/asr"
	"github.com/sottolabs/sotto/internal/models"
)

// WhisperBackend is the catalog backend name of GGML Whisper models.
const WhisperBackend = "whisper"

// Whisper opens a GGML Whisper model (whisper.cpp's ggml-*.bin) with the
// pure-Go "whisper" asr driver. The entry's option "model" names the file
// (default: the entry's only file); the driver's own options
// ([asr.OptBeamSize], [asr.OptTemperatureInc]) pass through from the
// entry.
func Whisper(ctx context.Context, spec models.LoadSpec) (io.Closer, error) {
	cfg := spec.Config()
	if cfg.Options == nil {
		cfg.Options = map[string]string{}
	}
	name := cfg.Options["model"]
	delete(cfg.Options, "model")
	if name == "" {
		if len(spec.Entry.Files) != 1 {
			return nil, fmt.Errorf("loaders: %s: %d files and no option \"model\" naming the GGML file", spec.Entry.ID, len(spec.Entry.Files))
		}
		name = spec.Entry.Files[0].Name
	}
	p, err := spec.Path(name)
	if err != nil {
		return nil, fmt.Errorf("loaders: %s: file %q (option model) is not on disk: %w", spec.Entry.ID, name, err)
	}
	cfg.Options[asr.OptWhisperModel] = p
	return asr.Open(ctx, "whisper", cfg)
}
