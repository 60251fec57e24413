package models

import (
	"crypto/sha1"
	"encoding/hex"
	"strings"
	"testing"
)

// A file whose catalog entry gives only the SHA-1 its upstream publishes
// (whisper.cpp's model table) is verified against it, resumed downloads
// included, and a mismatch fails the job and removes the bytes.
func TestDownloadSHA1(t *testing.T) {
	b := newBlob(2<<20+77, 11)
	s := sha1.Sum(b.data)
	sum1 := hex.EncodeToString(s[:])
	for _, tc := range []struct {
		name, sha256, sha1 string
		cut                bool
		wantErr            string
	}{
		{name: "sha1 matches", sha1: sum1},
		{name: "sha1 matches after a resume", sha1: sum1, cut: true},
		{name: "both match", sha256: b.sum, sha1: sum1},
		{name: "sha1 mismatch", sha1: strings.Repeat("0", 40), wantErr: "sha1 mismatch"},
		{name: "sha1 mismatch with a good sha256", sha256: b.sum, sha1: strings.Repeat("0", 40), wantErr: "sha1 mismatch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, fs, e := setup(t, b, tc.sha256)
			e.Files[0].SHA1 = tc.sha1
			if tc.cut {
				fs.set(func(s *fileServer) { s.cutAt = int64(len(b.data) / 3) })
			}
			if _, err := d.Start(e); err != nil {
				t.Fatal(err)
			}
			end := last(wait(t, d, e.ID))
			if tc.wantErr != "" {
				if end.State != StateFailed || end.Error == nil || !strings.Contains(*end.Error, tc.wantErr) {
					t.Fatalf("job = %+v; want failed with %q", end, tc.wantErr)
				}
				if d.store.Downloaded(e) {
					t.Error("Downloaded = true after a checksum mismatch")
				}
				return
			}
			if end.State != StateCompleted {
				t.Fatalf("job = %+v; want completed", end)
			}
			checkStored(t, d, e, b)
			rec := d.store.readMarker(e.ID).Files[e.Files[0].Name]
			if rec.SHA1 != sum1 || rec.SHA256 != b.sum || !rec.Verified {
				t.Errorf("marker record = %+v; want both digests, verified", rec)
			}
			// A catalog that later names another SHA-1 makes the file stale.
			e.Files[0].SHA1 = strings.Repeat("1", 40)
			if d.store.Downloaded(e) {
				t.Error("Downloaded = true for a catalog whose sha1 differs from the stored file's")
			}
		})
	}
}

func TestCatalogSHA1Validation(t *testing.T) {
	for _, tc := range []struct {
		f    File
		want string
	}{
		{File{Name: "f", URL: "http://h/f", SHA1: "abc"}, "sha1"},
		{File{Name: "f", URL: "http://h/f", SHA1: strings.Repeat("A", 40)}, "sha1"},
		{File{Name: "f", SystemPath: "/usr/share/x", SHA1: strings.Repeat("a", 40)}, "only for url files"},
		{File{Name: "f", URL: "http://h/f", SHA1: strings.Repeat("a", 40)}, ""},
	} {
		err := tc.f.validate()
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("validate(%+v) = %v; want %q", tc.f, err, tc.want)
		}
	}
}
