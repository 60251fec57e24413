package models

import (
	"os"
	"path/filepath"
)

// UserCatalogName is the user catalog file inside a data directory: where
// sotto-cli models import writes, and what sotto-cli serve and the
// command-line tools read when no other catalog file is given.
const UserCatalogName = "catalog.json"

// DefaultDataDir is the data directory of sotto-cli serve and the
// command-line tools when none is given: $XDG_DATA_HOME/sotto, else
// ~/.local/share/sotto, else sotto in the temporary directory. getenv is
// os.Getenv outside tests.
func DefaultDataDir(getenv func(string) string) string {
	if d := getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "sotto")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "share", "sotto")
	}
	return filepath.Join(os.TempDir(), "sotto")
}

// UserCatalog returns the catalog file to read: catalog when it is given,
// else dataDir's user catalog ([UserCatalogName]) when that is a file,
// else "" (the built-in catalog alone).
func UserCatalog(dataDir, catalog string) string {
	if catalog != "" {
		return catalog
	}
	p := filepath.Join(dataDir, UserCatalogName)
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
		return p
	}
	return ""
}
