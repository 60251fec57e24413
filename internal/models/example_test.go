package models_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/internal/models"
)

// A loaded model; a real loader returns a capability backend.
type demoModel struct{}

func (demoModel) Close() error { fmt.Println("closed"); return nil }

func Example() {
	dir, _ := os.MkdirTemp("", "sotto-example")
	defer os.RemoveAll(dir)
	// A user catalog adds a local model with no files to download.
	catalog := filepath.Join(dir, "catalog.json")
	os.WriteFile(catalog, []byte(`{"models": [{"id": "Demo/Echo", "supported_endpoints": [],
	  "features": [], "default_for": [], "execution_location": "local", "backend": "echo"}]}`), 0o644)

	m, err := models.New(models.Config{DataDir: dir, CatalogFile: catalog})
	if err != nil {
		panic(err)
	}
	m.RegisterLoader("echo", func(ctx context.Context, spec models.LoadSpec) (io.Closer, error) {
		return demoModel{}, nil
	})
	for _, model := range m.Models() {
		if model.ID == models.Skylark || model.ID == "Demo/Echo" {
			fmt.Println(model.ID, model.DefaultFor)
		}
	}

	obj, release, err := m.Acquire(context.Background(), "Demo/Echo")
	if err != nil {
		panic(err)
	}
	fmt.Printf("%T %s\n", obj, m.Running().Runtime.State)
	_, err = m.Unload(context.Background(), "Demo/Echo")
	var se *sotto.Error
	errors.As(err, &se)
	fmt.Println(se.Code)
	release()
	res, _ := m.Unload(context.Background(), "Demo/Echo")
	fmt.Println(res.Status)

	_, err = m.Load(context.Background(), models.Skylark)
	errors.As(err, &se)
	fmt.Println(se.Code, se.Param)
	// Output:
	// Sotto/Skylark [/v1/text/normalizations /v1/text/segmentations]
	// Demo/Echo []
	// models_test.demoModel running
	// model_in_use
	// closed
	// unloaded
	// model_builtin model
}

// ExampleDownloader_Watch follows a download to its end, as the CLI does.
func ExampleDownloader_Watch() {
	payload := []byte("acoustic model bytes")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "mdef", time.Time{}, bytes.NewReader(payload))
	}))
	defer srv.Close()
	dir, _ := os.MkdirTemp("", "sotto-example")
	defer os.RemoveAll(dir)

	d := models.NewDownloader(models.NewStore(dir), models.DownloaderConfig{Client: srv.Client()})
	defer d.Close(context.Background())
	sum := sha256.Sum256(payload)
	e := models.Entry{
		ID: "Demo/Tiny", Object: "model", ExecutionLocation: models.Local, Backend: "demo",
		Files: []models.File{{Name: "mdef", URL: srv.URL + "/mdef", SHA256: hex.EncodeToString(sum[:])}},
	}
	if _, err := d.Start(e); err != nil {
		panic(err)
	}
	var last models.Job
	for j, err := range d.Watch(context.Background(), e.ID) {
		if err != nil {
			panic(err)
		}
		last = j
	}
	fmt.Println(last.State, last.BytesDownloaded, last.TotalBytes)
	// Output: completed 20 20
}
