//go:build integration

package models

import (
	"context"
	"net/http"
	"testing"
	"time"
)

// TestLattice1RealDownload downloads the Chinese and German CMU Sphinx
// archives of Sotto/Lattice-1 from SourceForge and checks that every file
// the catalog options name is on disk afterwards. It needs the network:
//
//	go test -tags integration -run Lattice1RealDownload -timeout 30m ./internal/models
func TestLattice1RealDownload(t *testing.T) {
	e, err := DefaultCatalog().Lookup(Lattice1)
	if err != nil {
		t.Fatal(err)
	}
	probe, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(probe, http.MethodHead, e.Files[len(e.Files)-1].URL, nil)
	req.Header.Set("User-Agent", DefaultUserAgent)
	if resp, err := DefaultHTTPClient().Do(req); err != nil {
		t.Skipf("SourceForge unreachable: %v", err)
	} else {
		resp.Body.Close()
	}
	store := NewStore(t.TempDir())
	d := NewDownloader(store, DownloaderConfig{})
	defer d.Close(context.Background())
	if _, err := d.Start(e); err != nil {
		t.Fatal(err)
	}
	var end Job
	for j, err := range d.Watch(t.Context(), e.ID) {
		if err != nil {
			t.Fatal(err)
		}
		end = j
	}
	if end.State != StateCompleted {
		t.Fatalf("job = %+v (error %v); want completed", end, deref(end.Error))
	}
	for k, v := range e.Options {
		if _, err := store.Path(e, v); err != nil {
			t.Errorf("option %s: %v", k, err)
		}
	}
	rec := store.readMarker(e.ID).Files
	t.Logf("zh archive: %d bytes, sha256 %s", rec["zh"].Size, rec["zh"].SHA256)
	t.Logf("de archive: %d bytes, sha256 %s (verified %v)", rec["de"].Size, rec["de"].SHA256, rec["de"].Verified)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
