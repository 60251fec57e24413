package models

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkDownload measures a whole job (request, write, fsync, SHA-256,
// rename, marker) of a 16 MiB file from a loopback server, next to a plain
// http.Get copied to a file as the baseline.
func BenchmarkDownload(b *testing.B) {
	bl := newBlob(16<<20, 20)
	fs := &fileServer{t: &testing.T{}, data: bl.data, etag: `"bench"`}
	srv := httptest.NewServer(fs)
	defer srv.Close()
	b.Run("job", func(b *testing.B) {
		b.SetBytes(int64(len(bl.data)))
		for b.Loop() {
			d := NewDownloader(NewStore(b.TempDir()), DownloaderConfig{Client: srv.Client()})
			e := testEntry("Bench/Blob", File{Name: "blob.bin", URL: srv.URL + "/blob.bin", SHA256: bl.sum})
			if _, err := d.Start(e); err != nil {
				b.Fatal(err)
			}
			for j, err := range d.Watch(context.Background(), e.ID) {
				if err != nil {
					b.Fatal(err)
				}
				if j.State.Terminal() && j.State != StateCompleted {
					b.Fatalf("job %+v", j)
				}
			}
		}
	})
	b.Run("plain-get", func(b *testing.B) {
		b.SetBytes(int64(len(bl.data)))
		for b.Loop() {
			resp, err := srv.Client().Get(srv.URL + "/blob.bin")
			if err != nil {
				b.Fatal(err)
			}
			f, err := os.Create(filepath.Join(b.TempDir(), "blob.bin"))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := io.Copy(f, resp.Body); err != nil {
				b.Fatal(err)
			}
			resp.Body.Close()
			f.Close()
			if resp.StatusCode != http.StatusOK {
				b.Fatal(resp.Status)
			}
		}
	})
}

// BenchmarkAcquireRelease measures the session bookkeeping of a loaded
// model, uncontended and with every goroutine on one model (MaxRunning 4).
func BenchmarkAcquireRelease(b *testing.B) {
	rt, _ := newTestRuntime(&testing.T{}, RuntimeConfig{MaxRunning: 4, MaxQueued: 1 << 20})
	ctx := context.Background()
	if _, err := rt.Load(ctx, "Test/Local"); err != nil {
		b.Fatal(err)
	}
	b.Run("serial", func(b *testing.B) {
		for b.Loop() {
			_, release, err := rt.Acquire(ctx, "Test/Local")
			if err != nil {
				b.Fatal(err)
			}
			release()
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				_, release, err := rt.Acquire(ctx, "Test/Local")
				if err != nil {
					b.Error(err)
					return
				}
				release()
			}
		})
	})
}
