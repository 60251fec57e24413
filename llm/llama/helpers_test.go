package llama

import (
	"path/filepath"
	"testing"

	"github.com/sottolabs/sotto/internal/testdata"
)

func sharedModels(t *testing.T) string {
	t.Helper()
	return filepath.Join(testdata.Dir(t, "models"), "models")
}
