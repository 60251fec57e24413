package models

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDefaultDataDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tt := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_DATA_HOME": "/x", "HOME": "/h"}, "/x/sotto"},
		{map[string]string{"HOME": "/h"}, "/h/.local/share/sotto"},
		{nil, filepath.Join(os.TempDir(), "sotto")},
	} {
		if got := DefaultDataDir(env(tt.env)); got != tt.want {
			t.Errorf("DefaultDataDir(%v) = %q, want %q", tt.env, got, tt.want)
		}
	}
}

func TestUserCatalogFile(t *testing.T) {
	dir := t.TempDir()
	if got := UserCatalog(dir, ""); got != "" {
		t.Errorf("no user catalog: got %q, want \"\"", got)
	}
	if got := UserCatalog(dir, "/given.json"); got != "/given.json" {
		t.Errorf("a given catalog: got %q", got)
	}
	if err := os.Mkdir(filepath.Join(dir, UserCatalogName), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := UserCatalog(dir, ""); got != "" {
		t.Errorf("a directory named %s: got %q, want \"\"", UserCatalogName, got)
	}
	dir2 := t.TempDir()
	p := filepath.Join(dir2, UserCatalogName)
	if err := os.WriteFile(p, []byte(`{"models": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := UserCatalog(dir2, ""); got != p {
		t.Errorf("the data directory's catalog: got %q, want %q", got, p)
	}
}
