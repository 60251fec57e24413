// Package loaders connects the model runtime (internal/models) to the
// capability packages: for each catalog backend name it registers the
// function that opens the capability's backend on the model's files.
package loaders

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/sottolabs/sotto/align"
	"github.com/sottolabs/sotto/internal/models"
)

// Register registers every loader this build has with rt.
func Register(rt interface {
	RegisterLoader(name string, l models.Loader)
}) {
	rt.RegisterLoader("lattice-1", Align)
	rt.RegisterLoader("lattice-2", Align)
}

// Align opens the alignment backend of a Lattice model. The catalog entry's
// options name its files ("mdef": "en-us/mdef", "dict":
// "cmudict-en-us.dict"); they are resolved to the paths the store found.
func Align(ctx context.Context, spec models.LoadSpec) (io.Closer, error) {
	cfg := spec.Config()
	opts := map[string]string{}
	resolve := func(key, def string) (string, error) {
		name := cfg.Options[key]
		if name == "" {
			name = def
		}
		p, ok := spec.Paths[name]
		if !ok {
			return "", fmt.Errorf("loaders: %s: file %q (option %s) is not on disk", spec.Entry.ID, name, key)
		}
		return p, nil
	}
	mdef, err := resolve("mdef", "en-us/mdef")
	if err != nil {
		return nil, err
	}
	dict, err := resolve("dict", "cmudict-en-us.dict")
	if err != nil {
		return nil, err
	}
	opts[align.OptAcousticDir] = filepath.Dir(mdef)
	opts[align.OptDict] = dict
	cfg.Options = opts
	return align.Open(ctx, "", cfg)
}
